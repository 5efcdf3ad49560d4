/**
 * `updateChangeRequestContent` (the newest real API's page editing, gaps.md §2.2):
 * a batch of changes applied to a change request, in one new revision. docsctl applies
 *
 * - `update_page` with page metadata — `title`, `linkTitle` (the page link title Git
 *   Sync writes as `[Title](page.md "Short")`), `description`, `hidden`, `noIndex`,
 *   `noRobotsIndex` — and a new body, `document: {markdown}` (its front matter, when
 *   it has one, sets the page's description, icon, flags and layout, as the real API
 *   reads it);
 * - `revert_page`: the page as it is in `revision` (default: the change request's
 *   base), whole: its content, its place (parent and position among its siblings), or
 *   its absence (a page the revision does not have is removed with its subpages; one
 *   the change request does not have is restored, without subpages, under its parent).
 *   `cr resolve` resolves conflicts with these two.
 *
 * The other operations (insert, delete, files), `update_page`'s `into`/`at`, a JSON
 * `document` and `revert_page`'s `block` answer 501 by name, never a fake success.
 *
 * An edit writes the edited page objects and the trie path above them (`applyPatch`):
 * editing one page of a 5,000-page space reads and writes a few objects, not the tree.
 * The batch is atomic: any invalid change rejects it all.
 *
 * Page metadata edits
 *
 * `updateChangeRequestContent` (the newest real API's page editing; not in the 0.143.2 spec, so it
 * is listed as a newer-API operation in the route and contract tests) applies `update_page` changes
 * of page metadata (`title`, `linkTitle`, `description`, `hidden`, `noIndex`, `noRobotsIndex`) to a
 * change request in one new revision: `src/domain/content/page-edit.ts` writes the edited page
 * objects and the trie path above them (`applyPatch`), never the tree. Other operations and
 * `update_page`'s `document`/`into`/`at` answer 501 by name. `linkTitle` lives in the page's
 * `extra.linkTitle`, where the Git Sync converter reads and writes the SUMMARY.md link title.
 */
import { ApiError, badRequest, conflict, notFound } from '../../api/errors.js';
import type { RouteInput } from '../../api/route.js';
import type * as routes from '../../api/routes/content.js';
import { DELETE, makeChange } from '../../store/hamt.js';
import type { StoreWriter } from '../../store/types.js';
import { type Handler, implementer } from '../handler.js';
import { commitToChangeRequest } from './change-requests.js';
import { changeRequestFor } from './common.js';
import { applyPatch } from './fast-merge.js';
import { type ChangeRequestRecord, requireChangeRequest, requireRevisionRecord } from './change-request-records.js';
import { crView } from './revisions.js';
import { getRevision } from '../core-records.js';
import { type RevisionContent, type StoredPage, openContent } from './storage.js';

const on = implementer<typeof routes>();

/** Fields of `update_page` that docsctl applies. */
const METADATA = ['title', 'linkTitle', 'description', 'hidden', 'noIndex', 'noRobotsIndex'] as const;
const KNOWN_UPDATE = new Set<string>(['operation', 'page', 'document', ...METADATA]);
const KNOWN_REVERT = new Set<string>(['operation', 'page', 'revision']);

type Change = RouteInput<typeof routes.updateChangeRequestContent>['body']['changes'][number];

/**
 * The change request's pages as the batch changes them: the pages it rewrote (null:
 * removed) over the content it started from, and the root order.
 */
class Draft {
  readonly changed = new Map<string, StoredPage | null>();
  rootPages: string[];

  constructor(readonly content: RevisionContent) {
    this.rootPages = [...content.root.rootPages];
  }

  page(id: string): StoredPage | undefined {
    return this.changed.has(id) ? (this.changed.get(id) ?? undefined) : this.content.page(id);
  }

  set(page: StoredPage): void {
    this.changed.set(page.id, page);
  }

  childrenOf(parent: string | undefined): string[] {
    return parent === undefined ? this.rootPages : (this.page(parent)?.children ?? []);
  }

  setChildren(parent: string | undefined, ids: string[]): void {
    if (parent === undefined) this.rootPages = ids;
    else this.set({ ...(this.page(parent) as StoredPage), children: ids });
  }

  /** Removes a page and its subpages from the tree. */
  remove(id: string): void {
    const page = this.page(id);
    if (!page) return;
    this.setChildren(page.parent, this.childrenOf(page.parent).filter((child) => child !== id));
    const stack = [id];
    while (stack.length > 0) {
      const current = stack.pop() as string;
      for (const child of this.page(current)?.children ?? []) stack.push(child);
      this.changed.set(current, null);
    }
  }

  /** Whether `id` is `ancestor` or below it. */
  within(id: string | undefined, ancestor: string): boolean {
    const seen = new Set<string>();
    for (let at = id; at !== undefined && !seen.has(at); at = this.page(at)?.parent) {
      if (at === ancestor) return true;
      seen.add(at);
    }
    return false;
  }

  /** Puts `id` among the children of `parent`: after `after` when it is one of them, else at `index` (at most the end). */
  place(id: string, parent: string | undefined, after: string | null, index: number): void {
    const siblings = this.childrenOf(parent).filter((child) => child !== id);
    const anchor = after === null ? -1 : siblings.indexOf(after);
    const at = after === null ? 0 : anchor >= 0 ? anchor + 1 : Math.min(index, siblings.length);
    siblings.splice(at, 0, id);
    this.setChildren(parent, siblings);
  }

  write(tx: StoreWriter): string | undefined {
    return applyPatch(tx, {
      ours: this.content.root,
      oursHash: this.content.hash,
      pages: [...this.changed].map(([id, page]) => makeChange(id, page === null ? DELETE : tx.putObject(page))),
      files: [],
      rootPages: this.rootPages,
    });
  }
}

/** The page after one `update_page` change's metadata (a new object; `null` removes a field). */
function edited(page: StoredPage, change: Change, where: string): StoredPage {
  const next: StoredPage = { ...page, ...(page.extra ? { extra: { ...page.extra } } : {}) };
  if (change.title !== undefined) next.title = change.title;
  if (change.description === null) delete next.description;
  else if (change.description !== undefined) next.description = change.description;
  for (const flag of ['hidden', 'noIndex', 'noRobotsIndex'] as const) {
    if (change[flag] === undefined) continue;
    if (page.type === 'link' && flag !== 'hidden') throw badRequest(`${where}.${flag}: a link page has no ${flag}`);
    if (change[flag]) next[flag] = true;
    else delete next[flag];
  }
  if (change.linkTitle !== undefined) {
    if (page.type === 'group') throw badRequest(`${where}.linkTitle: a page group has no link title (only document and link pages do)`);
    const extra = { ...(next.extra ?? {}) };
    if (change.linkTitle === null) delete extra.linkTitle;
    else extra.linkTitle = change.linkTitle;
    if (Object.keys(extra).length > 0) next.extra = extra;
    else delete next.extra;
  }
  return next;
}

/** `update_page`'s `document: {markdown}`: the new body, and the metadata its front matter sets. */
async function withDocument(tx: StoreWriter, page: StoredPage, document: unknown, where: string): Promise<StoredPage> {
  const markdown = (document as { markdown?: unknown } | null)?.markdown;
  if (typeof document !== 'object' || document === null || Array.isArray(document)) throw badRequest(`${where}.document: expected {"markdown": "…"}`);
  if (typeof markdown !== 'string' || Object.keys(document).length !== 1) {
    throw new ApiError(501, `${where}.document: only {"markdown": "…"} is implemented yet (not a JSON document)`);
  }
  if (page.type !== 'document') throw badRequest(`${where}.document: a ${page.type === 'group' ? 'page group' : 'link page'} has no document`);
  const [{ MAX_PAGE_BYTES }, { splitFrontMatter, parseFrontMatter, fieldsFromFrontMatter, PAGE_FIELD_KEYS }] = await Promise.all([
    import('../../gitsync/limits.js'),
    import('../../gitsync/frontmatter.js'),
  ]);
  if (Buffer.byteLength(markdown) > MAX_PAGE_BYTES) {
    throw new ApiError(413, `${where}.document: more than the ${MAX_PAGE_BYTES / 1024 / 1024} MiB of Markdown a page may hold`);
  }
  const split = splitFrontMatter(markdown);
  const next: StoredPage = { ...page, body: tx.putObject({ markdown: split.body }) };
  if (split.frontMatter) {
    const parsed = parseFrontMatter(split.frontMatter.yaml);
    if (parsed.error !== undefined) throw badRequest(`${where}.document: front matter: ${parsed.error}`);
    // Covers name files of the repository they came from: not read here.
    const fields = fieldsFromFrontMatter(parsed.data, () => undefined);
    for (const key of PAGE_FIELD_KEYS) {
      if (key === 'cover') continue;
      if (fields[key] === undefined) delete next[key];
      else (next as unknown as Record<string, unknown>)[key] = fields[key];
    }
    next.extra = { ...(next.extra ?? {}), frontMatter: split.frontMatter.raw };
  }
  return next;
}

/** `revert_page`: the page as `source` has it (see the file comment). */
function reverted(draft: Draft, source: RevisionContent, id: string, where: string, cr: ChangeRequestRecord): void {
  const target = source.page(id);
  const current = draft.page(id);
  if (!target && !current) throw notFound(`${where}: page ${id} is neither in change request #${cr.number} nor in the revision`);
  if (!target) {
    draft.remove(id);
    return;
  }
  const parent = target.parent !== undefined && draft.page(target.parent) ? target.parent : current ? current.parent : undefined;
  if (target.parent !== undefined && parent !== target.parent && !current) {
    throw conflict(`${where}: page ${id} cannot be restored: its parent ${target.parent} is not in change request #${cr.number}`);
  }
  if (current && parent !== undefined && draft.within(parent, id)) {
    throw conflict(`${where}: page ${id} cannot go back under ${parent}, which is now inside it`);
  }
  const { children: _children, parent: _parent, ...rest } = target;
  const next: StoredPage = { ...rest, ...(parent !== undefined ? { parent } : {}), children: current?.children ?? [] };
  if (current && current.parent !== parent) draft.setChildren(current.parent, draft.childrenOf(current.parent).filter((child) => child !== id));
  draft.set(next);
  // Its place among the revision's siblings (after the same previous sibling), unless its parent there is gone.
  if (parent !== target.parent) return;
  const siblings = source.children(target.parent === undefined ? undefined : source.page(target.parent)).map((page) => page.id);
  const index = siblings.indexOf(id);
  draft.place(id, parent, index > 0 ? (siblings[index - 1] as string) : null, Math.max(index, 0));
}

export const pageEditHandlers: Record<string, Handler> = {
  ...on('updateChangeRequestContent', async (ctx, { params, query, body }) => {
    const { space, cr } = changeRequestFor(ctx.tx, ctx, params.spaceId, params.changeRequestId);
    if (cr.status === 'merged' || cr.status === 'archived') {
      throw conflict(`Change request #${cr.number} is ${cr.status}: its content cannot change`);
    }
    if (query.compat === false) throw new ApiError(501, 'compat=false is not implemented yet: the answer is the change request (compat=true)');
    const content = openContent(ctx.tx, requireRevisionRecord(ctx.tx, space.id, cr.revision));
    const draft = new Draft(content);
    for (const [index, change] of body.changes.entries()) {
      const where = `changes[${index}]`;
      if (change.operation !== 'update_page' && change.operation !== 'revert_page') {
        throw new ApiError(501, `${where}: operation ${change.operation} is not implemented yet (docsctl applies update_page and revert_page)`);
      }
      const known = change.operation === 'update_page' ? KNOWN_UPDATE : KNOWN_REVERT;
      const unsupported = Object.keys(change).filter((key) => !known.has(key));
      if (unsupported.length > 0) {
        throw new ApiError(501, `${where}: ${unsupported.join(', ')} of ${change.operation} ${unsupported.length > 1 ? 'are' : 'is'} not implemented yet`);
      }
      if (!change.page) throw badRequest(`${where}.page: required (the id of the page to ${change.operation === 'update_page' ? 'update' : 'revert'})`);
      if (change.operation === 'revert_page') {
        const revisionId = typeof change.revision === 'string' ? change.revision : (cr.revisionMergedAncestor ?? cr.revisionInitial);
        const revision = getRevision(ctx.tx, space.id, revisionId);
        if (!revision) throw notFound(`${where}.revision: no revision ${revisionId} in space ${space.id}`);
        reverted(draft, openContent(ctx.tx, revision), change.page, where, cr);
        continue;
      }
      const page = draft.page(change.page);
      if (!page) throw notFound(`${where}: page ${change.page} not found in change request #${cr.number}`);
      let next = edited(page, change, where);
      if (change.document !== undefined) next = await withDocument(ctx.tx, next, change.document, where);
      draft.set(next);
    }
    const hash = draft.write(ctx.tx);
    if (hash !== content.hash) commitToChangeRequest(ctx, ctx.tx, cr, hash);
    return crView(ctx.tx, ctx, space, requireChangeRequest(ctx.tx, space.id, cr.id));
  }),
};
