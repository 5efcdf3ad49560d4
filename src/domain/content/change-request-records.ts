/**
 * Change request records and the accessors every content operation shares:
 * finding a change request by id or number, the space counters, and the
 * revision records of a space.
 *
 * | table               | key                 | value                                   |
 * |---------------------|---------------------|-----------------------------------------|
 * | changeRequests      | `${spaceId}/${id}`  | ChangeRequestRecord                     |
 * | spaceChangeRequests | KeyedSet: spaceId, number → crId (`crNumberKey`) |
 * | changeRequestsByStatus | KeyedSet: `${spaceId}:${status}`, number → crId |
 *
 * Numbers are never reused (change requests are never deleted, only archived).
 * `comments` is the count of open comments on the change request; the comments
 * area keeps it exact (it is stored here so a listing reads one record per item).
 */
import { notFound } from '../../api/errors.js';
import type { StoreReader, StoreWriter } from '../../store/types.js';
import {
  type RevisionRecord,
  type SpaceRecord,
  Tables,
  crNumberKey,
  crStatusIndex,
  getRevision,
  putRevision,
  spaceCrNumbers,
} from '../core-records.js';

export type ChangeRequestStatus = 'draft' | 'open' | 'archived' | 'merged';

export interface ChangeRequestRecord {
  id: string;
  space: string;
  number: number;
  status: ChangeRequestStatus;
  subject: string;
  /** A JSONDocument, as given. */
  description?: unknown;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
  /** The change request's current revision. */
  revision: string;
  /** The primary revision it was created from. */
  revisionInitial: string;
  /** The primary revision last pulled in by an update. */
  revisionMergedAncestor?: string;
  /** The primary revision its merge created. */
  revisionMerged?: string;
  mergedAt?: string;
  /** Count of open comments (kept by the comments area). */
  comments: number;
  /** Users who created, edited, imported into, updated or merged it (creation order). */
  contributors: string[];
  /** 0.202's external links (at most 10), in the order given. */
  links?: ChangeRequestLink[];
}

export interface ChangeRequestLink {
  id: string;
  ref: { kind: 'url'; url: string };
  title?: string;
}

export const crKey = (spaceId: string, crId: string) => `${spaceId}/${crId}`;

export function getChangeRequest(tx: StoreReader, spaceId: string, crId: string): ChangeRequestRecord | undefined {
  return tx.get<ChangeRequestRecord>(Tables.changeRequests, crKey(spaceId, crId));
}

export const statusOwner = (spaceId: string, status: ChangeRequestStatus) => `${spaceId}:${status}`;

/** Writes a change request record and keeps the by-status index in step with its status. */
export function putChangeRequest(tx: StoreWriter, cr: ChangeRequestRecord): void {
  const before = getChangeRequest(tx, cr.space, cr.id);
  tx.put(Tables.changeRequests, crKey(cr.space, cr.id), cr);
  if (before?.status === cr.status) return;
  if (before) crStatusIndex.remove(tx, statusOwner(cr.space, before.status), crNumberKey(before.number));
  crStatusIndex.put(tx, statusOwner(cr.space, cr.status), crNumberKey(cr.number), cr.id);
}

/** How many change requests a space has (numbers run 1..count). */
export function changeRequestCount(tx: StoreReader, spaceId: string): number {
  return spaceCrNumbers.count(tx, spaceId);
}

/** A change request by id, or by its number in the space (`{changeRequestId}` accepts both). */
export function findChangeRequest(tx: StoreReader, spaceId: string, idOrNumber: string): ChangeRequestRecord | undefined {
  const byId = getChangeRequest(tx, spaceId, idOrNumber);
  if (byId) return byId;
  if (!/^[1-9]\d{0,8}$/.test(idOrNumber)) return undefined;
  const id = spaceCrNumbers.get(tx, spaceId, crNumberKey(Number(idOrNumber)));
  return id === undefined ? undefined : getChangeRequest(tx, spaceId, id);
}

export function requireChangeRequest(tx: StoreReader, spaceId: string, idOrNumber: string): ChangeRequestRecord {
  const cr = findChangeRequest(tx, spaceId, idOrNumber);
  if (!cr) throw notFound(`Change request ${idOrNumber} not found in space ${spaceId}`);
  return cr;
}

/** Adds a new change request (the next number) to its space's list. */
export function addChangeRequest(tx: StoreWriter, cr: ChangeRequestRecord): void {
  putChangeRequest(tx, cr);
  spaceCrNumbers.put(tx, cr.space, crNumberKey(cr.number), cr.id);
}

/** The space counters after a change request moves from `from` (undefined = new) to `to`. */
export function countersAfter(space: SpaceRecord, from: ChangeRequestStatus | undefined, to: ChangeRequestStatus): SpaceRecord['counters'] {
  const counters = { ...space.counters };
  if (from === undefined) counters.changeRequests += 1;
  if (from === 'open') counters.changeRequestsOpen -= 1;
  if (from === 'draft') counters.changeRequestsDraft -= 1;
  if (to === 'open') counters.changeRequestsOpen += 1;
  if (to === 'draft') counters.changeRequestsDraft += 1;
  return counters;
}

export function withContributor(cr: ChangeRequestRecord, userId: string): string[] {
  return cr.contributors.includes(userId) ? cr.contributors : [...cr.contributors, userId];
}

/** A revision record of the space; a missing one is a store inconsistency (500), not a 404. */
export function requireRevisionRecord(tx: StoreReader, spaceId: string, revisionId: string): RevisionRecord {
  const revision = getRevision(tx, spaceId, revisionId);
  if (!revision) throw new Error(`store inconsistency: revision ${revisionId} of space ${spaceId} is missing`);
  return revision;
}

/** Creates a revision record (content given by hash, undefined = empty). */
export function newRevisionRecord(
  tx: StoreWriter,
  fields: Omit<RevisionRecord, 'content'> & { content: string | undefined },
): RevisionRecord {
  const record: RevisionRecord = { ...fields } as RevisionRecord;
  if (record.content === undefined) delete record.content;
  for (const key of Object.keys(record)) if (record[key] === undefined) delete record[key];
  putRevision(tx, record);
  return record;
}
