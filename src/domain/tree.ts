/**
 * The content tree of an organization: each container (the organization's root,
 * or a collection) keeps the ordered list of its children (spaces and
 * collections) in the `children` table. Moves with a `position` reorder these
 * lists; creation appends; a soft-deleted space leaves its list.
 */
import { badRequest, conflict } from '../api/errors.js';
import type { StoreReader, StoreWriter } from '../store/types.js';
import {
  type ChildRef,
  type SpaceRecord,
  Tables,
  getCollection,
  getTrash,
  putSpace,
  putTrash,
} from './records.js';

export type ContentPointer = { type: 'space'; space: string } | { type: 'collection'; collection: string };
export interface ContentPosition {
  before?: ContentPointer | undefined;
  after?: ContentPointer | undefined;
}

/** Key of a container: the organization's root or a collection. */
export function containerKey(orgId: string, parent: string | undefined | null): string {
  return parent ? `col:${parent}` : `org:${orgId}`;
}

export function getChildren(tx: StoreReader, key: string): ChildRef[] {
  return tx.get<ChildRef[]>(Tables.children, key) ?? [];
}

export function setChildren(tx: StoreWriter, key: string, children: ChildRef[]): void {
  if (children.length === 0) tx.delete(Tables.children, key);
  else tx.put(Tables.children, key, children);
}

export const sameRef = (a: ChildRef, b: ChildRef) => a.type === b.type && a.id === b.id;

export function appendChild(tx: StoreWriter, key: string, ref: ChildRef): void {
  const children = getChildren(tx, key).filter((child) => !sameRef(child, ref));
  children.push(ref);
  setChildren(tx, key, children);
}

/** Inserts `ref` right after `anchor` (at the end when the anchor is not there). */
export function insertAfter(tx: StoreWriter, key: string, ref: ChildRef, anchor: ChildRef): void {
  const children = getChildren(tx, key).filter((child) => !sameRef(child, ref));
  const at = children.findIndex((child) => sameRef(child, anchor));
  if (at < 0) children.push(ref);
  else children.splice(at + 1, 0, ref);
  setChildren(tx, key, children);
}

export function removeChild(tx: StoreWriter, key: string, ref: ChildRef): void {
  const children = getChildren(tx, key);
  const rest = children.filter((child) => !sameRef(child, ref));
  if (rest.length !== children.length) setChildren(tx, key, rest);
}

export function pointerRef(pointer: ContentPointer): ChildRef {
  return pointer.type === 'space' ? { type: 'space', id: pointer.space } : { type: 'collection', id: pointer.collection };
}

const describe = (ref: ChildRef) => `${ref.type} ${ref.id}`;

/**
 * The list `siblings` (which must not contain `ref`) with `ref` placed as
 * `position` asks: before/after a sibling, or at the end when omitted.
 * A pointer that is not a sibling in the target container, or a position with
 * both `before` and `after`, is a 400 "invalid position".
 */
export function place(siblings: readonly ChildRef[], ref: ChildRef, position: ContentPosition | undefined): ChildRef[] {
  const list = [...siblings];
  if (!position || (position.before === undefined && position.after === undefined)) {
    list.push(ref);
    return list;
  }
  if (position.before !== undefined && position.after !== undefined) {
    throw badRequest('Invalid position: give either "before" or "after", not both');
  }
  const pointer = (position.before ?? position.after) as ContentPointer;
  const target = pointerRef(pointer);
  if (sameRef(target, ref)) throw badRequest(`Invalid position: cannot place ${describe(ref)} relative to itself`);
  const at = list.findIndex((child) => sameRef(child, target));
  if (at < 0) throw badRequest(`Invalid position: ${describe(target)} is not in the target parent`);
  list.splice(position.before !== undefined ? at : at + 1, 0, ref);
  return list;
}

/** True when collection `candidate` is `collectionId` itself or nested (at any depth) inside it. */
export function isSelfOrDescendant(tx: StoreReader, candidate: string, collectionId: string): boolean {
  const seen = new Set<string>();
  let current: string | undefined = candidate;
  while (current !== undefined && !seen.has(current)) {
    if (current === collectionId) return true;
    seen.add(current);
    current = getCollection(tx, current)?.parent;
  }
  return false;
}

/** A collection's subtree: the collection and its nested collections (pre-order), and the spaces in them. */
export function subtree(tx: StoreReader, collectionId: string): { collections: string[]; spaces: string[] } {
  const collections: string[] = [];
  const spaces: string[] = [];
  const seen = new Set<string>();
  const visit = (id: string) => {
    if (seen.has(id)) return;
    seen.add(id);
    collections.push(id);
    for (const child of getChildren(tx, containerKey('', id))) {
      if (child.type === 'space') spaces.push(child.id);
      else visit(child.id);
    }
  };
  visit(collectionId);
  return { collections, spaces };
}

/**
 * Moves `ref` from container `from` to container `to` at `position` (end when
 * omitted). Throws 409 when the move would leave everything as it is.
 */
export function relocate(
  tx: StoreWriter,
  ref: ChildRef,
  from: string,
  to: string,
  position: ContentPosition | undefined,
  what: string,
): void {
  const source = getChildren(tx, from);
  const next = place(
    getChildren(tx, to).filter((child) => !sameRef(child, ref)),
    ref,
    position,
  );
  if (from === to && next.length === source.length && next.every((child, i) => sameRef(child, source[i] as ChildRef))) {
    throw conflict(`Moving ${what} would not result in any update`);
  }
  if (from !== to) removeChild(tx, from, ref);
  setChildren(tx, to, next);
}

/**
 * Soft-deletes an active space: it leaves its container's list and enters the
 * organization's trash, restorable for 7 days. `parent` is kept for restore.
 */
export function softDeleteSpace(tx: StoreWriter, space: SpaceRecord, now: string): SpaceRecord {
  const deleted: SpaceRecord = { ...space, deletedAt: now };
  putSpace(tx, deleted);
  removeChild(tx, containerKey(space.organization, space.parent), { type: 'space', id: space.id });
  const trash = getTrash(tx, space.organization).filter((entry) => entry.id !== space.id);
  trash.push({ id: space.id, deletedAt: now });
  putTrash(tx, space.organization, trash);
  return deleted;
}
