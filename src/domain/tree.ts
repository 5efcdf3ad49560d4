/**
 * The content tree of an organization: each container (the organization's root,
 * or a collection) keeps the ordered list of its children (spaces and
 * collections) in the `children` table. Moves with a `position` reorder these
 * lists; creation appends; a soft-deleted space leaves its list.
 */
import { badRequest, noUpdate } from '../api/errors.js';
import type { StoreReader, StoreWriter } from '../store/types.js';
import { type Entry, OrderedList } from './ordered.js';
import { type ListEnvelope, type PageQuery, paginate, rowsOf } from './pagination.js';
import { type ChildRef, type SpaceRecord, Tables, getCollection, putSpace, trashSpace } from './core-records.js';

export type ContentPointer = { type: 'space'; space: string } | { type: 'collection'; collection: string };
export interface ContentPosition {
  before?: ContentPointer | undefined;
  after?: ContentPointer | undefined;
}

/**
 * A container's children: one row per child (`children` table, owner = container key,
 * item id = `${type}:${id}`), in the container's order, and a count per type
 * (`childCounts`, `${container}:${type}` → number) so a listing of one type knows its size.
 */
const childList = new OrderedList<ChildRef>(Tables.children);

/** Key of a container: the organization's root or a collection. */
export function containerKey(orgId: string, parent: string | undefined | null): string {
  return parent ? `col:${parent}` : `org:${orgId}`;
}

const itemId = (ref: ChildRef) => `${ref.type}:${ref.id}`;
const countKey = (container: string, type: ChildRef['type']) => `${container}:${type}`;

export const sameRef = (a: ChildRef, b: ChildRef) => a.type === b.type && a.id === b.id;

/** Every child of a container, in order. For whole-subtree operations (delete, transfer) and tests. */
export function getChildren(tx: StoreReader, container: string): ChildRef[] {
  return childList.all(tx, container).map((entry) => entry.value);
}

export function hasChild(tx: StoreReader, container: string, ref: ChildRef): boolean {
  return childList.has(tx, container, itemId(ref));
}

/** How many children of one type a container holds (one row read). */
export function countChildren(tx: StoreReader, container: string, type: ChildRef['type']): number {
  return tx.get<number>(Tables.childCounts, countKey(container, type)) ?? 0;
}

function bumpCount(tx: StoreWriter, container: string, type: ChildRef['type'], delta: number): void {
  const next = countChildren(tx, container, type) + delta;
  if (next > 0) tx.put(Tables.childCounts, countKey(container, type), next);
  else tx.delete(Tables.childCounts, countKey(container, type));
}

/** One page of a container's children of one type, in the container's order. */
export function pageChildren<T>(
  tx: StoreReader,
  container: string,
  type: ChildRef['type'],
  query: PageQuery,
  map: (ref: ChildRef) => T,
): ListEnvelope<T> {
  return paginate(
    rowsOf<Entry<ChildRef>>(tx, Tables.children, `${container}/`),
    query,
    (entry) => (entry.value.type === type ? map(entry.value) : undefined),
    countChildren(tx, container, type),
  );
}

/** Adds `ref` at the end of a container (moves it there when it is already in it). */
export function appendChild(tx: StoreWriter, container: string, ref: ChildRef): void {
  if (childList.has(tx, container, itemId(ref))) {
    childList.move(tx, container, itemId(ref), undefined);
    return;
  }
  childList.insert(tx, container, itemId(ref), ref);
  bumpCount(tx, container, ref.type, 1);
}

/** Inserts `ref` right after `anchor` (at the end when the anchor is not there). */
export function insertAfter(tx: StoreWriter, container: string, ref: ChildRef, anchor: ChildRef): void {
  if (!childList.has(tx, container, itemId(anchor))) {
    appendChild(tx, container, ref);
    return;
  }
  if (childList.has(tx, container, itemId(ref))) {
    childList.move(tx, container, itemId(ref), { after: itemId(anchor) });
    return;
  }
  childList.insert(tx, container, itemId(ref), ref, { after: itemId(anchor) });
  bumpCount(tx, container, ref.type, 1);
}

export function removeChild(tx: StoreWriter, container: string, ref: ChildRef): void {
  if (childList.remove(tx, container, itemId(ref))) bumpCount(tx, container, ref.type, -1);
}

export function pointerRef(pointer: ContentPointer): ChildRef {
  return pointer.type === 'space' ? { type: 'space', id: pointer.space } : { type: 'collection', id: pointer.collection };
}

const describe = (ref: ChildRef) => `${ref.type} ${ref.id}`;

/**
 * Where `ref` goes in container `to` as `position` asks: before/after a sibling, or at
 * the end when omitted. A pointer that is not a sibling in the target container, or a
 * position with both `before` and `after`, is a 400 "invalid position".
 */
function placement(
  tx: StoreReader,
  to: string,
  ref: ChildRef,
  position: ContentPosition | undefined,
): { before?: string; after?: string } | undefined {
  if (!position || (position.before === undefined && position.after === undefined)) return undefined;
  if (position.before !== undefined && position.after !== undefined) {
    throw badRequest('Invalid position: give either "before" or "after", not both');
  }
  const target = pointerRef((position.before ?? position.after) as ContentPointer);
  if (sameRef(target, ref)) throw badRequest(`Invalid position: cannot place ${describe(ref)} relative to itself`);
  if (!childList.has(tx, to, itemId(target))) {
    throw badRequest(`Invalid position: ${describe(target)} is not in the target parent`);
  }
  return position.before !== undefined ? { before: itemId(target) } : { after: itemId(target) };
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
 * omitted). Throws 409 when the move would leave everything as it is. Writes the
 * moved child's rows only, whatever the size of either container.
 */
export function relocate(
  tx: StoreWriter,
  ref: ChildRef,
  from: string,
  to: string,
  position: ContentPosition | undefined,
  what: string,
): void {
  const where = placement(tx, to, ref, position);
  if (from === to) {
    if (childList.inPlace(tx, to, itemId(ref), where)) throw noUpdate(`Moving ${what}`);
    if (childList.move(tx, to, itemId(ref), where)) return;
  } else {
    removeChild(tx, from, ref);
  }
  childList.insert(tx, to, itemId(ref), ref, where);
  bumpCount(tx, to, ref.type, 1);
}

/** Removes every child row of a container (its children are being deleted with it). */
export function clearChildren(tx: StoreWriter, container: string): void {
  for (const ref of getChildren(tx, container)) removeChild(tx, container, ref);
}

/**
 * Soft-deletes an active space: it leaves its container's list and the organization's
 * list of active spaces and enters the organization's trash, restorable for 7 days.
 * `parent` is kept for restore.
 */
export function softDeleteSpace(tx: StoreWriter, space: SpaceRecord, now: string): SpaceRecord {
  const deleted: SpaceRecord & { deletedAt: string } = { ...space, deletedAt: now };
  putSpace(tx, deleted);
  removeChild(tx, containerKey(space.organization, space.parent), { type: 'space', id: space.id });
  trashSpace(tx, deleted);
  return deleted;
}
