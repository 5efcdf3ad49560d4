/**
 * API doc §4.1 Collections.
 *
 * Rules decided here (the API doc and the spec leave them open):
 * - Creating, editing, moving and deleting collections needs the `create` role;
 *   transferring needs `admin` in both organizations.
 * - Deleting a collection removes it and its nested collections, and
 *   soft-deletes the spaces inside them (restorable for 7 days, to the
 *   organization's root since their collection is gone).
 * - Only a root-level collection can be transferred to another organization
 *   (412 otherwise): a nested collection would leave its parent behind in the
 *   source organization, and there is no place to put it in the target one that
 *   the caller asked for. Move it to the root first, then transfer it. Its nested
 *   collections and their (active) spaces go with it; soft-deleted spaces stay in
 *   the source organization and restore there.
 */
import { badRequest, noUpdate, preconditionFailed } from '../api/errors.js';
import type * as routes from '../api/routes/collections.js';
import type { StoreReader, StoreWriter } from '../store/types.js';
import type { Entry } from './ordered.js';
import { paginate, rowsOf } from './pagination.js';
import { type Handler, Reply, deleted, implementer, nothingToDelete } from './handler.js';
import { ListedRoles, collectionAccess, findCollection, orgAccess, requireRole, roleIn } from './permissions.js';
import {
  type ChildRef,
  type CollectionRecord,
  Tables,
  getCollection,
  getSpace,
  orgCollectionList,
  orgSpaceList,
  putCollection,
  putSpace,
  sweepTrash,
} from './core-records.js';
import {
  appendChild,
  clearChildren,
  containerKey,
  countChildren,
  pageChildren,
  isSelfOrDescendant,
  relocate,
  removeChild,
  softDeleteSpace,
  subtree,
} from './tree.js';
import { collectionView, spaceView } from './views.js';

/** A collection of organization `orgId` named as `field`, or 400 naming the field. */
export function requireParentCollection(
  tx: StoreWriter,
  orgId: string,
  collectionId: string,
  field: string,
): CollectionRecord {
  const parent = getCollection(tx, collectionId);
  if (!parent || parent.organization !== orgId) {
    throw badRequest(`Invalid ${field}: collection ${collectionId} not found in organization ${orgId}`);
  }
  return parent;
}

const collectionRef = (id: string): ChildRef => ({ type: 'collection', id });
const byCreation = (a: { createdAt: string; id: string }, b: { createdAt: string; id: string }) =>
  a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

function loadListed(tx: StoreReader, orgId: string, id: string): CollectionRecord {
  const collection = getCollection(tx, id);
  if (!collection) throw new Error(`store inconsistency: organization ${orgId} lists missing collection ${id}`);
  return collection;
}

const on = implementer<typeof routes>();

export const collectionHandlers: Record<string, Handler> = {
  ...on('createCollection', (ctx, { params, body }) => {
    const { org, role } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    const parent = body.parent === undefined ? undefined : requireParentCollection(ctx.tx, org.id, body.parent, 'parent');
    const now = ctx.clock().toISOString();
    const collection: CollectionRecord = {
      id: ctx.ids(),
      organization: org.id,
      title: body.title ?? 'Untitled',
      ...(parent ? { parent: parent.id } : {}),
      defaultLevel: 'inherit',
      createdAt: now,
      updatedAt: now,
    };
    putCollection(ctx.tx, collection);
    orgCollectionList.insert(ctx.tx, org.id, collection.id, null);
    appendChild(ctx.tx, containerKey(org.id, collection.parent), collectionRef(collection.id));
    const view = collectionView(ctx, collection, role);
    return new Reply(201, view, { Location: view.urls.location });
  }),

  ...on('getCollectionById', (ctx, { params }) => {
    const { collection, role } = collectionAccess(ctx.tx, params.collectionId, ctx.actor.userId);
    return collectionView(ctx, collection, role);
  }),

  ...on('updateCollectionById', (ctx, { params, body }) => {
    const { collection, role } = collectionAccess(ctx.tx, params.collectionId, ctx.actor.userId);
    if (body.title === undefined && body.description === undefined && body.defaultLevel === undefined) {
      throw badRequest('Nothing to update: pass at least one of title, description, defaultLevel');
    }
    const updated: CollectionRecord = {
      ...collection,
      ...(body.title !== undefined ? { title: body.title } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
      ...(body.defaultLevel !== undefined ? { defaultLevel: body.defaultLevel } : {}),
      updatedAt: ctx.clock().toISOString(),
    };
    putCollection(ctx.tx, updated);
    return collectionView(ctx, updated, role);
  }),

  ...on('deleteCollectionById', (ctx, { params }) => {
    // Unknown, already deleted, or hidden from the actor: nothing to delete (204).
    const found = findCollection(ctx.tx, params.collectionId, ctx.actor.userId);
    if (!found) return nothingToDelete();
    const { collection } = found;
    const now = ctx.clock();
    const orgId = collection.organization;
    sweepTrash(ctx.tx, orgId, now);
    const { collections, spaces } = subtree(ctx.tx, collection.id);
    for (const spaceId of spaces) {
      const space = getSpace(ctx.tx, spaceId);
      if (space && space.deletedAt === undefined) softDeleteSpace(ctx.tx, space, now.toISOString());
    }
    removeChild(ctx.tx, containerKey(orgId, collection.parent), collectionRef(collection.id));
    for (const id of collections) {
      ctx.tx.delete(Tables.collections, id);
      clearChildren(ctx.tx, containerKey(orgId, id));
      orgCollectionList.remove(ctx.tx, orgId, id);
    }
    return deleted();
  }),

  ...on('listSpacesInCollectionById', (ctx, { params, query }) => {
    const { collection } = collectionAccess(ctx.tx, params.collectionId, ctx.actor.userId);
    const roles = new ListedRoles(ctx.tx, collection.organization, ctx.actor.userId, roleIn(ctx.tx, collection.organization, ctx.actor.userId) ?? null);
    // A collection's list holds its active spaces only (deleting a space takes it out).
    return pageChildren(ctx.tx, containerKey(collection.organization, collection.id), 'space', query, ({ id }) => {
      const space = getSpace(ctx.tx, id);
      if (!space) throw new Error(`store inconsistency: collection ${collection.id} lists missing space ${id}`);
      return spaceView(ctx, space, roles.space(space));
    });
  }),

  ...on('moveCollection', (ctx, { params, body }) => {
    const { collection, role } = collectionAccess(ctx.tx, params.collectionId, ctx.actor.userId);
    if (body.parent === undefined && body.position === undefined) {
      throw badRequest('Nothing to move: pass "parent" and/or "position"');
    }
    const orgId = collection.organization;
    const target = body.parent === undefined ? collection.parent : (body.parent ?? undefined);
    if (target !== undefined) {
      requireParentCollection(ctx.tx, orgId, target, 'parent');
      if (isSelfOrDescendant(ctx.tx, target, collection.id)) {
        throw badRequest(`Invalid parent: cannot move collection ${collection.id} into itself or one of its descendants`);
      }
    }
    relocate(
      ctx.tx,
      collectionRef(collection.id),
      containerKey(orgId, collection.parent),
      containerKey(orgId, target),
      body.position,
      `collection ${collection.id}`,
    );
    const { parent: _old, ...rest } = collection;
    const moved: CollectionRecord = {
      ...rest,
      ...(target !== undefined ? { parent: target } : {}),
      updatedAt: ctx.clock().toISOString(),
    };
    putCollection(ctx.tx, moved);
    return collectionView(ctx, moved, role);
  }),

  ...on('transferCollection', (ctx, { params, body }) => {
    const { collection } = collectionAccess(ctx.tx, params.collectionId, ctx.actor.userId);
    const source = collection.organization;
    const target = orgAccess(ctx.tx, body.organization, ctx.actor.userId);
    if (target.org.id === source) {
      throw noUpdate(`Transferring collection ${collection.id} to organization ${source} (it is already there)`);
    }
    requireRole(target.role, 'admin', target.org.id, 'transfer collections into it');
    if (collection.parent !== undefined) {
      throw preconditionFailed(
        `Collection ${collection.id} cannot be moved to another organization: it is nested in collection ${collection.parent}; move it to the root first`,
      );
    }
    const now = ctx.clock().toISOString();
    const tree = subtree(ctx.tx, collection.id);
    // Transferred objects join the end of the target's creation-order indexes, oldest first.
    const collections = tree.collections
      .map((id) => getCollection(ctx.tx, id))
      .filter((record) => record !== undefined)
      .sort(byCreation);
    const spaces = tree.spaces
      .map((id) => getSpace(ctx.tx, id))
      .filter((record) => record !== undefined)
      .sort(byCreation);
    let result: CollectionRecord = collection;
    for (const record of collections) {
      const moved: CollectionRecord = { ...record, organization: target.org.id, updatedAt: now };
      putCollection(ctx.tx, moved);
      orgCollectionList.remove(ctx.tx, source, record.id);
      orgCollectionList.insert(ctx.tx, target.org.id, record.id, null);
      if (record.id === collection.id) result = moved;
    }
    for (const space of spaces) {
      putSpace(ctx.tx, { ...space, organization: target.org.id, updatedAt: now });
      orgSpaceList.remove(ctx.tx, source, space.id);
      orgSpaceList.insert(ctx.tx, target.org.id, space.id, null);
    }
    removeChild(ctx.tx, containerKey(source, undefined), collectionRef(collection.id));
    appendChild(ctx.tx, containerKey(target.org.id, undefined), collectionRef(collection.id));
    return collectionView(ctx, result, target.role);
  }),

  ...on('listCollectionsInOrganizationById', (ctx, { params, query }) => {
    const { org, role: orgRole } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    const roles = new ListedRoles(ctx.tx, org.id, ctx.actor.userId, orgRole);
    if (query.nested === false) {
      // Root collections, in creation order: the org's list read past nested ones, counted by the root's count row.
      const rootCount = countChildren(ctx.tx, containerKey(org.id, undefined), 'collection');
      return paginate(
        rowsOf<Entry<null>>(ctx.tx, orgCollectionList.table, `${org.id}/`),
        query,
        ({ id }) => {
          const collection = loadListed(ctx.tx, org.id, id);
          return collection.parent === undefined ? collectionView(ctx, collection, roles.collection(collection)) : undefined;
        },
        rootCount,
      );
    }
    return orgCollectionList.page(ctx.tx, org.id, query, ({ id }) => {
      const collection = loadListed(ctx.tx, org.id, id);
      return collectionView(ctx, collection, roles.collection(collection));
    });
  }),
};
