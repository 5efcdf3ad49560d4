/**
 * API doc §4.8 Change requests (and the organization-wide listing of the real API).
 *
 * A change request (CR) owns a revision chain beside the space's primary one:
 * - create: a new revision (type `edits`) whose content is the primary's (the
 *   same content hash: nothing is copied), `revisionInitial` = the primary revision;
 * - merge (three-way, base = `revisionMergedAncestor ?? revisionInitial`, ours =
 *   primary, theirs = CR): a clean result becomes a new primary revision of type
 *   `merge` (parents [primary, CR revision], `mergedFrom` = CR) and the CR is
 *   `merged`; conflicts change nothing and answer `result: "conflicts"` with the
 *   CR's revision (plus a `conflicts` list naming the pages and the reasons);
 * - update (pull the primary into the CR: ours = CR, theirs = primary): a clean
 *   result becomes a new CR revision of type `update` (parents [CR revision,
 *   primary]) and `revisionMergedAncestor` = the primary revision;
 * - `outdated` = the primary revision is not the one the CR last took in.
 *
 * Rules decided here:
 * - A new CR is `open` (the listing's default filter), numbered 1, 2, … per space.
 * - PATCH `status` moves freely between draft, open and archived; a merged CR's
 *   status cannot change (409), its subject and description can. Merging or
 *   updating a merged or archived CR is a 409. A draft can be merged.
 * - The space counters: `changeRequests` counts every CR, `changeRequestsOpen` and
 *   `changeRequestsDraft` those in that status; each transition adjusts them.
 * - Merge and update compute the three-way merge outside the store lock (two-phase)
 *   and apply it only if neither the primary nor the CR moved meanwhile (else they
 *   merge again under the lock). When one side did not change since the base, its
 *   content is taken as is (no tree is loaded).
 * - Listings: newest first (by number within a space, by creation across spaces).
 *
 * Content and change requests
 *
 * A revision record (`revisions` table) points at a content root object
 * `{rootPages, pages: <trie root>, files: <trie root>}`; the tries map page and file ids to
 * immutable page objects (`PageMeta` + `parent` + `children` + `body` hash) and file objects
 * (metadata + data hash). Unchanged pages keep their hashes, so a change request editing 10 pages
 * of a 5,000-page space adds a dozen objects, and the merge of disjoint changes diffs the tries
 * (`hamtDiff`) instead of loading three trees. Conflicting merges run the full `mergeTrees`.
 * Slow work (fetching an import URL, cloning, merging) runs in a two-phase handler's `prepare`,
 * outside the writer lock; `run` applies the result (re-planning if the state moved meanwhile).
 * `cr diff`, `cr conflicts` and the conflict listing of `cr merge` read the revisions through the API
 * and compare them locally, so they work against any `/v1` server. `cr resolve`
 * (`src/cli/commands/cr-resolve.ts`) is built from real-API operations only: `revert_page` (to the
 * space's revision) on each conflicting page, `updateChangeRequest` (now clean: the base moves to the
 * space's revision), then `revert_page` (to the change request's earlier revision) and `update_page`
 * with `document: {markdown}` for the pages that keep their version or take a file; every conflicting
 * page needs its side in the same command, since a page left unresolved could not stay in conflict
 * once the base has moved. The next merge takes the change request as it is.
 */
import { type ContentPatch, applyPatch, planFastMerge } from './fast-merge.js';
import { badRequest, conflict } from '../../api/errors.js';
import type * as crRoutes from '../../api/routes/change-requests.js';
import type { ContentTree } from '../../content-model/model.js';
import type { TreeConflict } from '../../content-model/tree-merge.js';
import { conflictSummary } from '../../content-model/tree-types.js';
import type { StoreReader, StoreWriter } from '../../store/types.js';
import { type Handler, type HandlerContext, type PrepareContext, Reply, type TwoPhaseHandler, implementer } from '../handler.js';
import { type ListEnvelope, type PageQuery, itemsOf, paginate, rowsOf } from '../pagination.js';
import { orgAccess } from '../permissions.js';
import { ReviewTables } from '../review/review-records.js';
import { threadOf } from '../comments/comment-records.js';
import { type RevisionRecord, type SpaceRecord, crStatusIndex, getRevision, getSpace, orgSpaceList, putSpace } from '../core-records.js';
import { getSite, getSiteSpace, siteSpacesOfSite } from '../sites/site-records.js';
import { changeRequestFor, primaryRevision, spaceFor } from './common.js';
import {
  type ChangeRequestLink,
  type ChangeRequestRecord,
  type ChangeRequestStatus,
  addChangeRequest,
  changeRequestCount,
  countersAfter,
  getChangeRequest,
  newRevisionRecord,
  putChangeRequest,
  requireRevisionRecord,
  withContributor,
  statusOwner,
} from './change-request-records.js';
import { crView } from './revisions.js';
import { contentOf, openContent, saveTree } from './storage.js';
import { requireMergeRules } from '../review/merge-rules.js';
import { type IndexPlan, indexCommit } from '../search/index.js';
import { recordContentUpdated } from '../integration-events.js';

const crOn = implementer<typeof crRoutes>();

// ─── Three-way merge of revisions ──────────────────────────────────────────

/** What a merge (or update) would produce, computed against a given state. */
interface MergePlan {
  /** The revisions the plan was computed from. */
  primary: string;
  crRevision: string;
  base: string;
  outcome:
    | { kind: 'content'; content: string | undefined }
    | { kind: 'patch'; patch: ContentPatch }
    | { kind: 'tree'; tree: ContentTree; bases: ContentTree[] }
    | { kind: 'conflicts'; conflicts: TreeConflict[] };
}

type Direction = 'merge' | 'update';

function baseRevisionId(cr: ChangeRequestRecord): string {
  return cr.revisionMergedAncestor ?? cr.revisionInitial;
}

/**
 * The three-way merge of `ours` and `theirs` against `base`: for a merge ours =
 * primary, theirs = CR; for an update ours = CR, theirs = primary.
 */
async function planMerge(reader: StoreReader, space: SpaceRecord, cr: ChangeRequestRecord, direction: Direction): Promise<MergePlan> {
  const primary = requireRevisionRecord(reader, space.id, space.revision);
  const crRevision = requireRevisionRecord(reader, space.id, cr.revision);
  const base = requireRevisionRecord(reader, space.id, baseRevisionId(cr));
  const [ours, theirs] = direction === 'merge' ? [primary, crRevision] : [crRevision, primary];
  const plan = { primary: primary.id, crRevision: crRevision.id, base: base.id };
  const b = contentOf(base);
  const o = contentOf(ours);
  const t = contentOf(theirs);
  if (t === b || o === t) return { ...plan, outcome: { kind: 'content', content: o } };
  if (o === b) return { ...plan, outcome: { kind: 'content', content: t } };
  const patch = planFastMerge(reader, b, o, t);
  if (patch) return { ...plan, outcome: { kind: 'patch', patch } };
  const { mergeTrees } = await import('../../content-model/tree-merge.js');
  const oursTree = openContent(reader, ours).tree();
  const theirsTree = openContent(reader, theirs).tree();
  const baseTree = openContent(reader, base).tree();
  const labels =
    direction === 'merge'
      ? { oursLabel: 'the primary content', theirsLabel: 'the change request' }
      : { oursLabel: 'the change request', theirsLabel: 'the primary content' };
  const result = mergeTrees(baseTree, oursTree, theirsTree, labels);
  if (!result.clean) return { ...plan, outcome: { kind: 'conflicts', conflicts: result.conflicts } };
  return { ...plan, outcome: { kind: 'tree', tree: result.tree, bases: [oursTree, theirsTree, baseTree] } };
}

function planIsCurrent(plan: MergePlan, space: SpaceRecord, cr: ChangeRequestRecord): boolean {
  return plan.primary === space.revision && plan.crRevision === cr.revision && plan.base === baseRevisionId(cr);
}

function conflictsView(conflicts: readonly TreeConflict[]) {
  return conflicts.map(conflictSummary);
}

function requireMergeable(cr: ChangeRequestRecord, what: string): void {
  if (cr.status === 'merged') throw conflict(`Change request #${cr.number} is already merged: it cannot be ${what}`);
  if (cr.status === 'archived') {
    throw conflict(`Change request #${cr.number} is archived: reopen it (status "open") before it can be ${what}`);
  }
}

interface CrInput {
  params: { spaceId: string; changeRequestId: string };
}

/** The merge or update, as a two-phase handler (the merge itself runs outside the store lock). */
type MergeRoute = typeof crRoutes.mergeChangeRequest;

function mergeHandler(direction: Direction): TwoPhaseHandler<MergeRoute, MergePlan | undefined> {
  const what = direction === 'merge' ? 'merged' : 'updated';
  return {
    async prepare(ctx: PrepareContext, input: CrInput): Promise<MergePlan | undefined> {
      const { space, cr } = changeRequestFor(ctx.reader, ctx, input.params.spaceId, input.params.changeRequestId);
      requireMergeable(cr, what);
      if (direction === 'merge') requireMergeRules(ctx.reader, space, cr, ctx.actor.userId);
      if (direction === 'update' && space.revision === baseRevisionId(cr)) return undefined;
      return planMerge(ctx.reader, space, cr, direction);
    },
    async run(ctx: HandlerContext, input: CrInput, prepared: MergePlan | undefined): Promise<unknown> {
      const { space, cr } = changeRequestFor(ctx.tx, ctx, input.params.spaceId, input.params.changeRequestId);
      requireMergeable(cr, what);
      if (direction === 'merge') requireMergeRules(ctx.tx, space, cr, ctx.actor.userId);
      if (direction === 'update' && space.revision === baseRevisionId(cr)) {
        // Already up to date with the primary content: nothing to pull.
        return { revision: cr.revision, result: 'update' };
      }
      const plan = prepared && planIsCurrent(prepared, space, cr) ? prepared : await planMerge(ctx.tx, space, cr, direction);
      if (plan.outcome.kind === 'conflicts') {
        return { revision: cr.revision, result: 'conflicts', conflicts: conflictsView(plan.outcome.conflicts) };
      }
      const content =
        plan.outcome.kind === 'content'
          ? plan.outcome.content
          : plan.outcome.kind === 'patch'
            ? applyPatch(ctx.tx, plan.outcome.patch)
            : saveTree(ctx.tx, plan.outcome.tree, plan.outcome.bases);
      const now = ctx.clock().toISOString();
      const id = ctx.ids();
      if (direction === 'merge') {
        newRevisionRecord(ctx.tx, {
          id,
          space: space.id,
          type: 'merge',
          parents: [space.revision, cr.revision],
          createdAt: now,
          mergedFrom: cr.id,
          content,
        });
        putSpace(ctx.tx, { ...space, revision: id, updatedAt: now, counters: countersAfter(space, cr.status, 'merged') });
        recordContentUpdated(ctx, ctx.tx, space, id);
        indexCommit(ctx.tx, space.id, getRevision(ctx.tx, space.id, space.revision), requireRevisionRecord(ctx.tx, space.id, id));
        putChangeRequest(ctx.tx, {
          ...cr,
          status: 'merged',
          revisionMerged: id,
          mergedAt: now,
          updatedAt: now,
          contributors: withContributor(cr, ctx.actor.userId),
        });
        return { revision: id, result: 'merge' };
      }
      newRevisionRecord(ctx.tx, {
        id,
        space: space.id,
        type: 'update',
        parents: [cr.revision, space.revision],
        createdAt: now,
        content,
      });
      putChangeRequest(ctx.tx, {
        ...cr,
        revision: id,
        revisionMergedAncestor: space.revision,
        updatedAt: now,
        contributors: withContributor(cr, ctx.actor.userId),
      });
      return { revision: id, result: 'update' };
    },
  };
}

// ─── Listing ───────────────────────────────────────────────────────────────

interface ListFilters {
  status?: ChangeRequestStatus | undefined;
  creator?: string | undefined;
  contributor?: string | undefined;
  requestedReviewer?: string | undefined;
}

function matches(tx: StoreReader, cr: ChangeRequestRecord, filters: ListFilters): boolean {
  if (cr.status !== (filters.status ?? 'open')) return false;
  if (filters.creator !== undefined && cr.createdBy !== filters.creator) return false;
  if (filters.contributor !== undefined && !cr.contributors.includes(filters.contributor)) return false;
  // One row per requested reviewer of a change request (review/review-records.ts): a lookup, not a scan.
  if (filters.requestedReviewer !== undefined && !tx.has(ReviewTables.reviewers, `${threadOf(cr.space, cr.id)}/${filters.requestedReviewer}`)) return false;
  return true;
}

/** The change requests of a space with one status, newest (highest number) first. */
function changeRequestsWithStatus(tx: StoreReader, space: SpaceRecord, status: ChangeRequestStatus): ChangeRequestRecord[] {
  return crStatusIndex
    .all(tx, statusOwner(space.id, status))
    .reverse()
    .map(({ value: id }) => loadListedCr(tx, space, id));
}

function loadListedCr(tx: StoreReader, space: SpaceRecord, id: string): ChangeRequestRecord {
  const cr = getChangeRequest(tx, space.id, id);
  if (!cr) throw new Error(`store inconsistency: space ${space.id} lists missing change request ${id}`);
  return cr;
}

/**
 * One page of a space's change requests (newest first) with a status. Without a
 * creator/contributor filter the page reads its rows and the count row; with one,
 * the count needs the status's whole list.
 */
/** Newest first by `field` (last update: the real API's default; or creation); ties by number. */
function newestFirst<T>(items: T[], crOf: (item: T) => ChangeRequestRecord, field: 'updatedAt' | 'createdAt'): T[] {
  return items.sort((x, y) => {
    const a = crOf(x);
    const b = crOf(y);
    return a[field] < b[field] ? 1 : a[field] > b[field] ? -1 : b.number - a.number;
  });
}

function pageChangeRequests<T>(
  tx: StoreReader,
  space: SpaceRecord,
  filters: ListFilters & PageQuery & { orderBy?: 'updatedAt' | 'createdAt' | undefined },
  map: (cr: ChangeRequestRecord) => T,
): ListEnvelope<T> {
  if (filters.orderBy === 'updatedAt') {
    // By last update: the index is by number, so this reads the status's change requests and sorts them.
    const found = changeRequestsWithStatus(tx, space, filters.status ?? 'open').filter((cr) => matches(tx, cr, filters));
    return paginate(itemsOf(newestFirst(found, (cr) => cr, 'updatedAt')), filters, map);
  }
  // Newest first by number: by creation, read a page at a time from the status index.
  const owner = statusOwner(space.id, filters.status ?? 'open');
  const narrowed = filters.creator !== undefined || filters.contributor !== undefined || filters.requestedReviewer !== undefined;
  const count = narrowed
    ? changeRequestsWithStatus(tx, space, filters.status ?? 'open').filter((cr) => matches(tx, cr, filters)).length
    : crStatusIndex.count(tx, owner);
  return paginate(
    rowsOf<string>(tx, crStatusIndex.table, `${owner}/`, { reverse: true }),
    filters,
    (id) => {
      const cr = loadListedCr(tx, space, id);
      return matches(tx, cr, filters) ? map(cr) : undefined;
    },
    count,
  );
}

// ─── Handlers ──────────────────────────────────────────────────────────────

/**
 * The change request's links after an update that gives the whole list: an item with an `id`
 * is that link, changed (400 when the change request has no such link); one without is new.
 */
function linksAfter(cr: ChangeRequestRecord, given: ReadonlyArray<{ id?: string | undefined; ref: { kind: 'url'; url: string }; title?: string | undefined }>, newId: () => string): ChangeRequestLink[] {
  const known = new Set((cr.links ?? []).map((link) => link.id));
  return given.map((link, index) => {
    if (link.id !== undefined && !known.has(link.id)) throw badRequest(`links[${index}].id: change request #${cr.number} has no link ${link.id} (leave the id out to add a link)`);
    return { id: link.id ?? newId(), ref: { kind: 'url', url: link.ref.url }, ...(link.title !== undefined ? { title: link.title } : {}) };
  });
}

function statusChange(space: SpaceRecord, cr: ChangeRequestRecord, status: ChangeRequestStatus | undefined): SpaceRecord | undefined {
  if (status === undefined || status === cr.status) return undefined;
  if (cr.status === 'merged') {
    throw conflict(`Change request #${cr.number} is merged: its status cannot change`);
  }
  return { ...space, counters: countersAfter(space, cr.status, status) };
}

export const changeRequestHandlers: Record<string, Handler> = {
  ...crOn('createChangeRequest', (ctx, { params, body }) => {
    const { space } = spaceFor(ctx.tx, ctx, params.spaceId);
    const primary = primaryRevision(ctx.tx, space);
    const now = ctx.clock().toISOString();
    const id = ctx.ids();
    const revision = newRevisionRecord(ctx.tx, {
      id: ctx.ids(),
      space: space.id,
      type: 'edits',
      parents: [primary.id],
      createdAt: now,
      content: contentOf(primary),
    });
    const cr: ChangeRequestRecord = {
      id,
      space: space.id,
      number: changeRequestCount(ctx.tx, space.id) + 1,
      status: 'open',
      subject: body.subject ?? '',
      createdBy: ctx.actor.userId,
      createdAt: now,
      updatedAt: now,
      revision: revision.id,
      revisionInitial: primary.id,
      comments: 0,
      contributors: [ctx.actor.userId],
    };
    addChangeRequest(ctx.tx, cr);
    putSpace(ctx.tx, { ...space, counters: countersAfter(space, undefined, cr.status) });
    const view = crView(ctx.tx, ctx, space, cr);
    return new Reply(201, view, { Location: view.urls.location });
  }),

  ...crOn('listChangeRequestsForSpace', (ctx, { params, query }) => {
    const { space } = spaceFor(ctx.tx, ctx, params.spaceId);
    return pageChangeRequests(ctx.tx, space, query, (cr) => crView(ctx.tx, ctx, space, cr));
  }),

  ...crOn('getChangeRequestById', (ctx, { params }) => {
    const { space, cr } = changeRequestFor(ctx.tx, ctx, params.spaceId, params.changeRequestId);
    return crView(ctx.tx, ctx, space, cr);
  }),

  ...crOn('updateChangeRequestById', (ctx, { params, body }) => {
    const { space, cr } = changeRequestFor(ctx.tx, ctx, params.spaceId, params.changeRequestId);
    if (body.subject === undefined && body.description === undefined && body.status === undefined && body.links === undefined) {
      throw badRequest('Nothing to update: pass at least one of subject, description, status, links');
    }
    const movedSpace = statusChange(space, cr, body.status);
    const links = body.links === undefined ? undefined : linksAfter(cr, body.links, () => ctx.ids());
    const updated: ChangeRequestRecord = {
      ...cr,
      ...(body.subject !== undefined ? { subject: body.subject } : {}),
      ...(links !== undefined ? { links } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
      ...(body.status !== undefined ? { status: body.status } : {}),
      updatedAt: ctx.clock().toISOString(),
      contributors: withContributor(cr, ctx.actor.userId),
    };
    putChangeRequest(ctx.tx, updated);
    if (movedSpace) putSpace(ctx.tx, movedSpace);
    return crView(ctx.tx, ctx, movedSpace ?? space, updated);
  }),

  ...crOn('mergeChangeRequest', mergeHandler('merge')),
  ...crOn('updateChangeRequest', mergeHandler('update')),

  ...crOn('listChangeRequestsForOrganization', (ctx, { params, query }) => {
    const { org } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    // Reads each active space's index for the asked status (not every change request).
    const found: Array<{ space: SpaceRecord; cr: ChangeRequestRecord }> = [];
    let spaceIds = query.space !== undefined ? [query.space] : orgSpaceList.all(ctx.tx, org.id).map((entry) => entry.id);
    if (query.site !== undefined) {
      // Linked to a site: the change requests of the spaces it publishes (its site spaces).
      const site = getSite(ctx.tx, query.site);
      const published = new Set(site?.organization === org.id ? siteSpacesOfSite.all(ctx.tx, site.id).map(({ id }) => getSiteSpace(ctx.tx, id)?.space) : []);
      spaceIds = spaceIds.filter((id) => published.has(id));
    }
    for (const spaceId of spaceIds) {
      const space = getSpace(ctx.tx, spaceId);
      // A space of another organization (or none) has no change requests here.
      if (!space || space.organization !== org.id) continue;
      for (const cr of changeRequestsWithStatus(ctx.tx, space, query.status ?? 'open')) {
        if (matches(ctx.tx, cr, query)) found.push({ space, cr });
      }
    }
    return paginate(itemsOf(newestFirst(found, (item) => item.cr, query.orderBy ?? 'updatedAt')), query, ({ space, cr }) => crView(ctx.tx, ctx, space, cr));
  }),
};

// ─── Shared with import ────────────────────────────────────────────────────

/** A new `edits` revision of `spaceId` holding `content`, child of `parent`. */
function newEditsRevision(
  ctx: HandlerContext,
  tx: StoreWriter,
  spaceId: string,
  parent: string,
  content: string | undefined,
  extra: Partial<RevisionRecord>,
): RevisionRecord {
  return newRevisionRecord(tx, {
    ...extra,
    id: ctx.ids(),
    space: spaceId,
    type: 'edits',
    parents: [parent],
    createdAt: ctx.clock().toISOString(),
    content,
  });
}

/** Points a change request at a new revision holding `content` (type `edits`). */
export function commitToChangeRequest(
  ctx: HandlerContext,
  tx: StoreWriter,
  cr: ChangeRequestRecord,
  content: string | undefined,
  extra: Partial<RevisionRecord> = {},
): RevisionRecord {
  const revision = newEditsRevision(ctx, tx, cr.space, cr.revision, content, extra);
  putChangeRequest(tx, { ...cr, revision: revision.id, updatedAt: revision.createdAt, contributors: withContributor(cr, ctx.actor.userId) });
  return revision;
}

/** Makes a new revision holding `content` the space's primary one (type `edits`). */
export function commitToSpace(
  ctx: HandlerContext,
  tx: StoreWriter,
  space: SpaceRecord,
  content: string | undefined,
  extra: Partial<RevisionRecord> = {},
  /** The search index update, when the caller planned it ahead (search/index.ts, planIndex). */
  index?: IndexPlan,
): RevisionRecord {
  const revision = newEditsRevision(ctx, tx, space.id, space.revision, content, extra);
  putSpace(tx, { ...space, revision: revision.id, updatedAt: revision.createdAt });
  recordContentUpdated(ctx, tx, space, revision.id);
  indexCommit(tx, space.id, getRevision(tx, space.id, space.revision), revision, index);
  return revision;
}
