/**
 * The audit log of an organization (0.202 `AuditEvent`): every write docsctl makes through
 * an operation records who (the user, or the integration installation whose token acted,
 * and the token), what (the action: the operation id, e.g. `createSpace`; the object it
 * made or changed) and when. `execute.ts` calls `recordAudit` inside the write's own
 * transaction, after the handler: a write that fails records nothing, and a committed
 * write is never without its event. Handlers do nothing for it.
 *
 * Which writes: every non-GET, non-safe operation whose object belongs to an organization
 * (the organization the access check resolved, else the `organizationId` of the path,
 * else the organization the answer is: `createOrganization`). Writes about a user or a
 * token alone (`updateUserById`, `token create`) belong to no organization and are not in
 * any audit log. A DELETE of nothing (204) changed nothing and records nothing.
 *
 * Storage: two tables (append-only; an append writes the same few rows whatever the size
 * of the log). `audit` holds the log; `auditRecent` the events not indexed yet (after the
 * mark, below) and each organization's counter: fewer than INDEX_BATCH events each, so an
 * append rewrites one leaf and the root of a table of a few dozen KB, not a leaf and the
 * path of the whole log (a log of a few thousand events is five levels deep: ~14 KB per
 * write, most of a served write's commit). Every INDEX_BATCH-th event moves them into the
 * log with their index rows. A reader takes an event or the counter from either table
 * (`auditRecent` first); a log written before it holds its counter and unindexed events
 * in `audit` (read as they are; the next batch indexes them, the counter moves at the next append):
 * - `e/${org}/${id}` → the event. The id is a UUID (0.202 says `format: uuid`) laid out as
 *   a version-7 one: 48 bits of milliseconds, then the organization's event sequence
 *   number, then digits of the organization, so key order is occurrence order (ties in the
 *   same millisecond by sequence): a listing pages newest first by scanning backwards, and a
 *   time range is a key range.
 * - `e/${org}/~` → how many events the organization ever recorded, and `e/${org}/~i` → the
 *   index mark (below): after every event id, so they sit in the newest events' leaf and an
 *   append rewrites one leaf of the table for the event and its counter.
 * - `a/${org}/${action}/${id}`, `u/${org}/${actor}/${id}` and one `t/${org}/${object}/${id}`
 *   per object the write names (its target and the path's objects: a page edit in a change
 *   request is found by the space, the change request or the page) → 0: the filters
 *   `action`, `actor`, `target` read these rows.
 * Index rows are written in batches, not with each event: they lie in 3 to 6 other regions
 * of the table, and rewriting those leaves doubled a served write's CPU. Every
 * INDEX_BATCH-th event of an organization indexes the events after the mark and moves the
 * mark (`{ upTo }`: the newest indexed event id); a filtered list reads the events after the
 * mark themselves (fewer than INDEX_BATCH, newest first) and the index rows up to the mark
 * (audit.ts). An event recorded below the mark (the clock went back) is indexed at once. A
 * log written before the mark existed indexed every event: no mark and a counter row means
 * all indexed, and its next event writes the mark at its newest event.
 * Cost: the event and its counter rewrite one leaf (and its path) per write; a batch of
 * index rows every INDEX_BATCH writes rewrites each index region's newest leaves once for
 * all of them (`node bench/run.mjs --serve --quick`: a served PATCH costs about what it
 * did before audit events).
 */
import type { StoreReader, StoreWriter } from '../store/types.js';
import type { Clock } from '../util/clock.js';
import { getOrg, getUser } from './core-records.js';
import type { Actor } from './handler.js';
import type { ResolvedAccess } from './access.js';

/** How many events an organization keeps (the oldest go first). */
export const MAX_AUDIT_EVENTS = 100_000;

/** The log: indexed events, their index rows, the index mark. */
export const AUDIT = 'audit';
/** Events after the index mark, and the counter of each organization (see Storage). */
export const AUDIT_RECENT = 'auditRecent';

/** Every this many events of an organization, the events not yet indexed get their index rows (see Storage). */
export const INDEX_BATCH = 64;

/** How many objects of one write are indexed for the `target` filter (its target first). */
const MAX_INDEXED_OBJECTS = 4;
/** How many body field names an event keeps (names only: values may be secrets). */
const MAX_FIELDS = 32;
const MAX_LABEL = 200;

/** Where a call entered: `api` (serve), `script` (the CLI on a local store), `integration` (an installation's token). */
export type AuditSource = 'api' | 'script' | 'integration';

export interface AuditRecord {
  id: string;
  occurredAt: string;
  action: string;
  actor: { type: 'user' | 'installation'; id: string; label?: string };
  source: AuditSource;
  target: { type: string; id: string; label?: string };
  /** The write's request: method, path objects (without the organization), body field names, status, token (the view adds `operation`). */
  payload: Record<string, unknown>;
}

/** What the hook knows of one committed-to-be write. */
export interface AuditedWrite {
  routeId: string;
  method: string;
  params: Readonly<Record<string, unknown>>;
  body: unknown;
  /** The handler's answer (its body when a Reply). */
  answer: unknown;
  status: number | undefined;
  actor: Actor;
  access: ResolvedAccess;
  source: AuditSource;
}

const seg = (value: string) => encodeURIComponent(value);
const hex = (value: number, width: number) => value.toString(16).padStart(width, '0').slice(-width);

/** The key prefix of events at or after `ms` (a UUID's first 48 bits, as written). */
export function timePrefix(ms: number): string {
  const h = hex(Math.max(0, Math.min(ms, 2 ** 48 - 1)), 12);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-`;
}

/** FNV-1a of a string, 32 bits: an event id's last digits come from its organization's id (not the id generator: an audit event takes no id from the sequence handlers and tests see). */
function fnv(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** A version-7-shaped UUID: time, then the organization's sequence (13 hex digits), then 5 hex digits of the organization. */
function eventId(ms: number, seq: number, org: string): string {
  const s = hex(seq, 13);
  const r = hex(fnv(org), 5);
  return `${timePrefix(ms)}7${s.slice(0, 3)}-8${s.slice(3, 6)}-${s.slice(6, 13)}${r}`;
}

export const isEventId = (id: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/.test(id);

export const actionKey = (org: string, action: string) => `a/${seg(org)}/${seg(action)}/`;
export const actorKey = (org: string, actor: string) => `u/${seg(org)}/${seg(actor)}/`;
export const objectKey = (org: string, object: string) => `t/${seg(org)}/${seg(object)}/`;
export const eventsKey = (org: string) => `e/${seg(org)}/`;
/**
 * Below an organization's events, after every event id (`~` sorts after hex digits): the
 * sequence row lives in the leaf of the newest events, so an append rewrites one leaf for both.
 * A backwards scan of the events starts below it.
 */
export const LAST = '~';
const seqKey = (org: string) => eventsKey(org) + LAST;
/** The index mark: events up to `upTo` (an event id; '' none) have their index rows. */
const markKey = (org: string) => eventsKey(org) + LAST + 'i';
interface IndexMark {
  upTo: string;
}

/**
 * The newest event id whose index rows are written (events after it are read as events by
 * a filtered list): '' when none, LAST when every event is (a log written before the mark).
 */
export function indexedUpTo(tx: StoreReader, org: string): string {
  const mark = tx.get<IndexMark>(AUDIT, markKey(org));
  if (mark !== undefined) return mark.upTo;
  return tx.has(AUDIT, seqKey(org)) ? LAST : '';
}

/** How many events the organization ever recorded (undefined: none); a log written before `auditRecent` keeps its counter in `audit`. */
function counterOf(tx: StoreReader, org: string): number | undefined {
  const recent = tx.get<number>(AUDIT_RECENT, seqKey(org));
  const old = tx.get<number>(AUDIT, seqKey(org));
  return recent === undefined ? old : old === undefined ? recent : Math.max(recent, old);
}

export function auditCount(tx: StoreReader, org: string): number {
  return Math.min(counterOf(tx, org) ?? 0, MAX_AUDIT_EVENTS);
}

export function getAuditEvent(tx: StoreReader, org: string, id: string): AuditRecord | undefined {
  if (!isEventId(id)) return undefined;
  return tx.get<AuditRecord>(AUDIT_RECENT, eventsKey(org) + id) ?? tx.get<AuditRecord>(AUDIT, eventsKey(org) + id);
}

/** The ids a `target` filter finds an event by: its target, then the objects of its path (not the organization). */
export function objectsOf(record: AuditRecord, org: string): string[] {
  const objects = [record.target.id, ...Object.values((record.payload.objects as Record<string, string> | undefined) ?? {})];
  return [...new Set(objects)].filter((id) => id !== org).slice(0, MAX_INDEXED_OBJECTS);
}

type Answer = Record<string, unknown>;

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value.slice(0, MAX_LABEL) : undefined);

/** The organization a write belongs to, or undefined (a user's or a token's own). */
function organizationOf(tx: StoreReader, write: AuditedWrite, answer: Answer | undefined): string | undefined {
  if (write.access.organizationId !== undefined) return write.access.organizationId;
  const named = write.params.organizationId;
  if (typeof named === 'string' && getOrg(tx, named)) return named;
  if (answer?.object === 'organization' && typeof answer.id === 'string') return answer.id;
  return undefined;
}

/** The object a write made or changed: the answer's own (`object` and `id`), else the path's last object, else the organization. */
function targetOf(write: AuditedWrite, answer: Answer | undefined, org: string): AuditRecord['target'] {
  if (answer && typeof answer.id === 'string' && typeof answer.object === 'string') {
    const label = text(answer.title) ?? text(answer.name) ?? text(answer.displayName);
    return { type: answer.object, id: answer.id, ...(label !== undefined ? { label } : {}) };
  }
  const named = Object.entries(write.params).filter(([name, value]) => name !== 'organizationId' && typeof value === 'string');
  const last = named.at(-1);
  if (last) return { type: last[0].replace(/Id$/, ''), id: String(last[1]) };
  return { type: 'organization', id: org };
}

function actorOf(tx: StoreReader, actor: Actor): AuditRecord['actor'] {
  if (actor.installation) return { type: 'installation', id: actor.installation.installationId, label: actor.installation.integration };
  const label = text(getUser(tx, actor.userId)?.displayName);
  return { type: 'user', id: actor.userId, ...(label !== undefined ? { label } : {}) };
}

function payloadOf(write: AuditedWrite, objects: Record<string, string>): Record<string, unknown> {
  const body = write.body;
  const fields = typeof body === 'object' && body !== null && !Array.isArray(body) ? Object.keys(body).slice(0, MAX_FIELDS) : [];
  return {
    method: write.method,
    ...(Object.keys(objects).length > 0 ? { objects } : {}),
    ...(fields.length > 0 ? { fields } : {}),
    ...(write.status !== undefined ? { status: write.status } : {}),
    ...(write.actor.installation ? { userId: write.actor.userId } : {}),
    ...(write.actor.tokenId !== undefined ? { tokenId: write.actor.tokenId } : {}),
  };
}

/**
 * Records `write` in its organization's audit log, in the write's transaction. Costs the
 * event row and the counter row (and, every INDEX_BATCH events, the index rows of the
 * events since the last batch); past the cap, the oldest event's rows go.
 */
export function recordAudit(tx: StoreWriter, clock: Clock, write: AuditedWrite): AuditRecord | undefined {
  if (write.method === 'DELETE' && write.status === 204) return undefined; // nothing was there to delete
  const answer = typeof write.answer === 'object' && write.answer !== null && !Array.isArray(write.answer) ? (write.answer as Answer) : undefined;
  const org = organizationOf(tx, write, answer);
  if (org === undefined) return undefined;
  const counted = counterOf(tx, org);
  const mark = markOf(tx, org, counted !== undefined);
  const seq = (counted ?? 0) + 1;
  const now = clock();
  const target = targetOf(write, answer, org);
  const pathObjects: Record<string, string> = {};
  for (const [name, value] of Object.entries(write.params)) if (name !== 'organizationId' && typeof value === 'string') pathObjects[name] = value;
  const record: AuditRecord = {
    id: eventId(now.getTime(), seq, org),
    occurredAt: now.toISOString(),
    action: write.routeId,
    actor: actorOf(tx, write.actor),
    source: write.source,
    target,
    payload: payloadOf(write, pathObjects),
  };
  tx.put(AUDIT_RECENT, seqKey(org), seq);
  if (tx.has(AUDIT, seqKey(org))) tx.delete(AUDIT, seqKey(org)); // a log written before auditRecent: its counter moves, once
  if (record.id <= mark.upTo) {
    // Below the mark (the clock went back): into the log, indexed at once.
    tx.put(AUDIT, eventsKey(org) + record.id, record);
    putIndexRows(tx, org, record);
  } else {
    tx.put(AUDIT_RECENT, eventsKey(org) + record.id, record);
    if (seq % INDEX_BATCH === 0) indexAfterMark(tx, org, mark.upTo);
  }
  if (seq > MAX_AUDIT_EVENTS) dropOldest(tx, org);
  return record;
}

/** The organization's index mark, written on its first event (or its first since a log written before marks, whose events are all indexed). */
function markOf(tx: StoreWriter, org: string, counted: boolean): IndexMark {
  const mark = tx.get<IndexMark>(AUDIT, markKey(org));
  if (mark !== undefined) return mark;
  const [newest] = counted ? tx.scan(AUDIT, { prefix: eventsKey(org), after: seqKey(org), reverse: true, limit: 1 }) : [];
  const written = { upTo: newest === undefined ? '' : newest[0].slice(eventsKey(org).length) };
  tx.put(AUDIT, markKey(org), written);
  return written;
}

function putIndexRows(tx: StoreWriter, org: string, record: AuditRecord): void {
  tx.put(AUDIT, actionKey(org, record.action) + record.id, 0);
  tx.put(AUDIT, actorKey(org, record.actor.id) + record.id, 0);
  for (const object of objectsOf(record, org)) tx.put(AUDIT, objectKey(org, object) + record.id, 0);
}

/**
 * Moves the events after the mark (fewer than INDEX_BATCH and this one) from `auditRecent`
 * into the log with their index rows, and the mark to the newest. A log written before
 * `auditRecent` may hold such events itself: they get their index rows where they are.
 */
function indexAfterMark(tx: StoreWriter, org: string, upTo: string): void {
  const prefix = eventsKey(org);
  let newest = upTo;
  for (const table of [AUDIT, AUDIT_RECENT]) {
    for (const [key, record] of tx.scan<AuditRecord>(table, { prefix, after: prefix + upTo })) {
      const id = key.slice(prefix.length);
      if (id.startsWith(LAST)) break; // the counter and the mark
      if (table === AUDIT_RECENT) {
        tx.put(AUDIT, key, record);
        tx.delete(AUDIT_RECENT, key);
      }
      putIndexRows(tx, org, record);
      if (id > newest) newest = id;
    }
  }
  tx.put(AUDIT, markKey(org), { upTo: newest } satisfies IndexMark);
}

function dropOldest(tx: StoreWriter, org: string): void {
  let table = AUDIT;
  let [oldest] = tx.scan<AuditRecord>(AUDIT, { prefix: eventsKey(org), limit: 1 });
  if (oldest === undefined || oldest[0].startsWith(eventsKey(org) + LAST)) {
    table = AUDIT_RECENT; // every event is still recent (a cap below INDEX_BATCH)
    [oldest] = tx.scan<AuditRecord>(AUDIT_RECENT, { prefix: eventsKey(org), limit: 1 });
    if (oldest === undefined || oldest[0].startsWith(eventsKey(org) + LAST)) return;
  }
  const [key, record] = oldest;
  tx.delete(table, key);
  tx.delete(AUDIT, actionKey(org, record.action) + record.id);
  tx.delete(AUDIT, actorKey(org, record.actor.id) + record.id);
  for (const object of objectsOf(record, org)) tx.delete(AUDIT, objectKey(org, object) + record.id);
}
