/**
 * API doc §4.2 Spaces, plus space creation and listing by organization (gaps.md §2.1).
 *
 * Lifecycle: DELETE soft-deletes (sets `deletedAt`, takes the space out of its
 * collection/root list and out of every listing); GET still returns it, with
 * `deletedAt`, for 7 days; restore puts it back at the end of its collection (or
 * of the organization's root when that collection is gone). Past 7 days the
 * space is gone (404) and is purged lazily by the next write in its organization.
 *
 * Rules decided here:
 * - Creating, editing, duplicating, moving, deleting and restoring need the
 *   `create` role; transferring needs `admin` in both organizations (also for a
 *   transfer between collections of one organization, which is what `move` is for).
 * - Operations other than get/delete/restore on a soft-deleted space answer 404
 *   with a hint to restore it first.
 * - A space that ends up at an organization's root stops being `in-collection`
 *   (that visibility exists only inside a collection) and becomes `private`.
 * - `emoji` and `icon` are exclusive: setting one clears the other; null clears it.
 */
import { badRequest, noUpdate, notFound } from '../api/errors.js';
import type * as routes from '../api/routes/spaces.js';
import type { StoreWriter } from '../store/types.js';
import { requireParentCollection } from './collections.js';
import { type Handler, type HandlerContext, Reply, deleted, implementer, nothingToDelete } from './handler.js';
import { ListedRoles, activeSpaceAccess, orgAccess, requireRole, roleIn, spaceAccess } from './permissions.js';
import {
  type ChildRef,
  type ContentVisibility,
  type RevisionRecord,
  type SpaceRecord,
  getCollection,
  getRevision,
  getSpace,
  isExpired,
  orgSpaceList,
  putRevision,
  putSpace,
  sweepTrash,
  untrashSpace,
} from './core-records.js';
import { detachSpaceFromSites } from './sites/integrity.js';
import { dropStyleguide, orgStyleguides } from './sites/styleguide-records.js';
import { appendChild, containerKey, insertAfter, relocate, softDeleteSpace } from './tree.js';
import { spaceView } from './views.js';
import { recordSpaceEvent } from './integration-events.js';

const MAX_TITLE = 50;
const spaceRef = (id: string): ChildRef => ({ type: 'space', id });

/** Visibility of a space placed in `parent` (undefined = organization root). */
function visibilityIn(current: ContentVisibility, parent: string | undefined): ContentVisibility {
  return parent === undefined && current === 'in-collection' ? 'private' : current;
}

/** The record with `parent` set, or without the key at all when undefined (root). */
function withParent(space: SpaceRecord, parent: string | undefined): SpaceRecord {
  const { parent: _old, ...rest } = space;
  return parent === undefined ? rest : { ...rest, parent };
}

/** Creates the primary revision of a new space (a copy of `from` when duplicating). */
function newRevision(tx: StoreWriter, spaceId: string, id: string, now: string, from?: RevisionRecord): string {
  const revision: RevisionRecord = from
    ? { ...from, id, space: spaceId, type: 'edits', parents: [from.id], createdAt: now }
    : { id, space: spaceId, type: 'edits', parents: [], createdAt: now };
  putRevision(tx, revision);
  return id;
}

const on = implementer<typeof routes>();

/**
 * A copy of a space (its primary content as a new revision, its settings, "(copy)" after its
 * title) placed right after it: duplicateSpace, and duplicateSiteSpace (sites/structure-handlers.ts).
 */
/** A new, empty space of an organization (at its root, or in `parent`), listed where it belongs. */
export function createSpaceIn(
  ctx: HandlerContext,
  orgId: string,
  fields: {
    title?: string | undefined;
    emoji?: string | undefined;
    parent?: string | undefined;
    editMode?: SpaceRecord['editMode'] | undefined;
    language?: SpaceRecord['language'] | undefined;
    /** A style guide (sites/styleguide-records.ts: the caller lists it). */
    type?: SpaceRecord['type'] | undefined;
  },
): SpaceRecord {
  const parent = fields.parent === undefined ? undefined : requireParentCollection(ctx.tx, orgId, fields.parent, 'parent');
  const now = ctx.clock();
  sweepTrash(ctx.tx, orgId, now);
  const at = now.toISOString();
  const id = ctx.ids();
  const space: SpaceRecord = {
    id,
    organization: orgId,
    title: fields.title ?? 'Untitled',
    emoji: fields.emoji ?? '',
    visibility: parent ? 'in-collection' : 'private',
    ...(parent ? { parent: parent.id } : {}),
    editMode: fields.editMode ?? 'live',
    defaultLevel: 'inherit',
    ...(fields.language !== undefined ? { language: fields.language } : {}),
    mergeRules: { type: 'inherit' },
    revision: newRevision(ctx.tx, id, ctx.ids(), at),
    createdAt: at,
    updatedAt: at,
    counters: { comments: 0, changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0 },
    ...(fields.type !== undefined ? { type: fields.type } : {}),
  };
  putSpace(ctx.tx, space);
  orgSpaceList.insert(ctx.tx, orgId, id, null);
  appendChild(ctx.tx, containerKey(orgId, space.parent), spaceRef(id));
  return space;
}

export function copySpace(ctx: HandlerContext, space: SpaceRecord): SpaceRecord {
  const at = ctx.clock().toISOString();
  const id = ctx.ids();
  const source = getRevision(ctx.tx, space.id, space.revision);
  const copy: SpaceRecord = {
    id,
    organization: space.organization,
    title: `${space.title} (copy)`.slice(0, MAX_TITLE),
    emoji: space.emoji,
    ...(space.icon !== undefined ? { icon: space.icon } : {}),
    visibility: space.visibility,
    ...(space.parent !== undefined ? { parent: space.parent } : {}),
    editMode: space.editMode,
    defaultLevel: space.defaultLevel,
    ...(space.language !== undefined ? { language: space.language } : {}),
    mergeRules: space.mergeRules,
    revision: newRevision(
      ctx.tx,
      id,
      ctx.ids(),
      at,
      source ?? { id: space.revision, space: space.id, type: 'edits', parents: [], createdAt: space.createdAt },
    ),
    createdAt: at,
    updatedAt: at,
    counters: { comments: 0, changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0 },
  };
  putSpace(ctx.tx, copy);
  orgSpaceList.insert(ctx.tx, space.organization, id, null);
  insertAfter(ctx.tx, containerKey(space.organization, space.parent), spaceRef(id), spaceRef(space.id));
  return copy;
}

export const spaceHandlers: Record<string, Handler> = {
  ...on('createSpace', (ctx, { params, body }) => {
    const { org, role } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    const space = createSpaceIn(ctx, org.id, body);
    const view = spaceView(ctx, space, role);
    return new Reply(201, view, { Location: view.urls.location });
  }),

  ...on('listSpacesInOrganizationById', (ctx, { params, query }) => {
    const { org, role } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    const roles = new ListedRoles(ctx.tx, org.id, ctx.actor.userId, role);
    return orgSpaceList.page(ctx.tx, org.id, query, ({ id }) => {
      const space = getSpace(ctx.tx, id);
      if (!space) throw new Error(`store inconsistency: organization ${org.id} lists missing space ${id}`);
      return spaceView(ctx, space, roles.space(space));
    });
  }),

  ...on('getSpaceById', (ctx, { params }) => {
    // The clock itself: asked only for a deleted space, so an active one's answer is kept for the generation under serve.
    const { space, role } = spaceAccess(ctx.tx, params.spaceId, ctx.actor.userId, ctx.clock);
    return spaceView(ctx, space, role);
  }),

  ...on('updateSpaceById', (ctx, { params, body }) => {
    const { space, role } = activeSpaceAccess(ctx.tx, params.spaceId, ctx.actor.userId, ctx.clock());
    if (Object.values(body).every((value) => value === undefined)) {
      throw badRequest(
        'Nothing to update: pass at least one of title, emoji, icon, editMode, defaultLevel, language, mergeRules',
      );
    }
    if (body.emoji != null && body.icon != null) throw badRequest('Invalid body: pass either emoji or icon, not both');
    let emoji = space.emoji;
    let icon = space.icon;
    if (body.emoji !== undefined) {
      emoji = body.emoji ?? '';
      if (body.emoji !== null) icon = undefined;
    }
    if (body.icon !== undefined) {
      icon = body.icon ?? undefined;
      if (body.icon !== null) emoji = '';
    }
    const { icon: _oldIcon, ...rest } = space;
    const updated: SpaceRecord = {
      ...rest,
      ...(body.title !== undefined ? { title: body.title } : {}),
      emoji,
      ...(icon !== undefined ? { icon } : {}),
      ...(body.editMode !== undefined ? { editMode: body.editMode } : {}),
      ...(body.defaultLevel !== undefined ? { defaultLevel: body.defaultLevel } : {}),
      ...(body.language !== undefined ? { language: body.language } : {}),
      ...(body.mergeRules !== undefined ? { mergeRules: body.mergeRules } : {}),
      updatedAt: ctx.clock().toISOString(),
    };
    putSpace(ctx.tx, updated);
    return spaceView(ctx, updated, role);
  }),

  ...on('deleteSpaceById', (ctx, { params }) => {
    const now = ctx.clock();
    const raw = getSpace(ctx.tx, params.spaceId);
    const role = raw ? roleIn(ctx.tx, raw.organization, ctx.actor.userId) : undefined;
    // Unknown, hidden from the actor, or already deleted: nothing to delete (204).
    if (!raw || role === undefined) return nothingToDelete();
    if (raw.deletedAt !== undefined) {
      sweepTrash(ctx.tx, raw.organization, now);
      return nothingToDelete();
    }
    sweepTrash(ctx.tx, raw.organization, now);
    softDeleteSpace(ctx.tx, raw, now.toISOString());
    return deleted();
  }),

  ...on('restoreSpace', (ctx, { params }) => {
    const now = ctx.clock();
    const raw = getSpace(ctx.tx, params.spaceId);
    const role = raw ? roleIn(ctx.tx, raw.organization, ctx.actor.userId) : undefined;
    if (!raw || role === undefined) throw notFound(`Space ${params.spaceId} not found`);
    if (isExpired(raw, now)) {
      throw notFound(
        `Space ${raw.id} was permanently deleted: it was deleted on ${raw.deletedAt}, more than 7 days ago`,
      );
    }
    // Not deleted: restoring is a no-op that answers the space as it is.
    if (raw.deletedAt === undefined) return spaceView(ctx, raw, role);
    sweepTrash(ctx.tx, raw.organization, now);
    const parentRecord = raw.parent === undefined ? undefined : getCollection(ctx.tx, raw.parent);
    const parent = parentRecord && parentRecord.organization === raw.organization ? parentRecord.id : undefined;
    const { deletedAt: _deletedAt, ...alive } = raw;
    const restored: SpaceRecord = {
      ...withParent(alive, parent),
      visibility: visibilityIn(raw.visibility, parent),
      updatedAt: now.toISOString(),
    };
    untrashSpace(ctx.tx, raw);
    putSpace(ctx.tx, restored);
    appendChild(ctx.tx, containerKey(raw.organization, parent), spaceRef(raw.id));
    return spaceView(ctx, restored, role);
  }),

  ...on('duplicateSpace', (ctx, { params }) => {
    const now = ctx.clock();
    const { space, role } = activeSpaceAccess(ctx.tx, params.spaceId, ctx.actor.userId, now);
    sweepTrash(ctx.tx, space.organization, now);
    const view = spaceView(ctx, copySpace(ctx, space), role);
    return new Reply(201, view, { Location: view.urls.location });
  }),

  ...on('moveSpace', (ctx, { params, body }) => {
    const { space, role } = activeSpaceAccess(ctx.tx, params.spaceId, ctx.actor.userId, ctx.clock());
    if (body.parent === undefined && body.position === undefined) {
      throw badRequest('Nothing to move: pass "parent" and/or "position"');
    }
    const orgId = space.organization;
    const target = body.parent === undefined ? space.parent : (body.parent ?? undefined);
    if (target !== undefined) requireParentCollection(ctx.tx, orgId, target, 'parent');
    relocate(
      ctx.tx,
      spaceRef(space.id),
      containerKey(orgId, space.parent),
      containerKey(orgId, target),
      body.position,
      `space ${space.id}`,
    );
    const moved: SpaceRecord = {
      ...withParent(space, target),
      visibility: visibilityIn(space.visibility, target),
      updatedAt: ctx.clock().toISOString(),
    };
    putSpace(ctx.tx, moved);
    recordVisibilityChange(ctx, space, moved);
    return spaceView(ctx, moved, role);
  }),

  ...on('transferSpace', (ctx, { params, body }) => {
    const { space } = activeSpaceAccess(ctx.tx, params.spaceId, ctx.actor.userId, ctx.clock());
    const source = space.organization;
    const target = orgAccess(ctx.tx, body.organization, ctx.actor.userId);
    const targetOrg = target.org.id;
    const parent =
      body.collection === undefined
        ? undefined
        : requireParentCollection(ctx.tx, targetOrg, body.collection, 'collection').id;
    if (targetOrg === source && parent === space.parent) {
      throw noUpdate(`Transferring space ${space.id} (it is already there)`);
    }
    requireRole(target.role, 'admin', targetOrg, 'transfer spaces into it');
    if (targetOrg !== source) {
      // A site shows only its own organization's spaces; a style guide stays one, of its new organization.
      detachSpaceFromSites(ctx.tx, space.id);
      dropStyleguide(ctx.tx, space);
      if (space.type === 'styleguide') orgStyleguides.put(ctx.tx, targetOrg, space.id, null);
    }
    const ref = spaceRef(space.id);
    relocate(ctx.tx, ref, containerKey(source, space.parent), containerKey(targetOrg, parent), undefined, `space ${space.id}`);
    if (targetOrg !== source) {
      orgSpaceList.remove(ctx.tx, source, space.id);
      orgSpaceList.insert(ctx.tx, targetOrg, space.id, null);
    }
    const moved: SpaceRecord = {
      ...withParent(space, parent),
      organization: targetOrg,
      visibility: visibilityIn(space.visibility, parent),
      updatedAt: ctx.clock().toISOString(),
    };
    putSpace(ctx.tx, moved);
    recordVisibilityChange(ctx, space, moved);
    return spaceView(ctx, moved, target.role);
  }),
};

/** `space_visibility_updated` for the integrations installed on a space whose visibility a move changed. */
function recordVisibilityChange(ctx: HandlerContext, before: SpaceRecord, after: SpaceRecord): void {
  if (after.visibility === before.visibility) return;
  recordSpaceEvent(ctx, ctx.tx, after, { type: 'space_visibility_updated', previousVisibility: before.visibility, visibility: after.visibility });
}
