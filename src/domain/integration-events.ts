/**
 * Integration events (0.202 `IntegrationEvent`, what `gitbook tail` reads): what happened
 * to an integration's installations, recorded by the operations that made it happen.
 *
 * - Installing, updating or uninstalling an integration on an organization, a space or a
 *   site records `installation_setup` / `installation_deleted`, `space_installation_setup` /
 *   `space_installation_deleted`, `site_installation_setup` / `site_installation_deleted`.
 * - A new primary revision of a space records `space_content_updated` for every
 *   installation covering the space (installed on it, or on all spaces of its
 *   organization); moving a space into or out of a collection, when its visibility
 *   changes, `space_visibility_updated`; a Git Sync import or export
 *   `space_gitsync_started` and `space_gitsync_completed`.
 * - `queueIntegrationTask` records a `task` event.
 * docsctl runs no integration code: an event is recorded with status `success` and an
 * empty trace (no logs), never delivered anywhere.
 *
 * Storage (every list grows: an append writes two rows and the sequence row, whatever
 * the number of events): `integrationEvents` `${name}/${seq}` (seq zero-padded, so key
 * order is recording order and a listing pages newest first by scanning backwards),
 * `integrationEventIds` `${name}/${eventId}` → seq key, `integrationEventSeq` name →
 * last seq. An integration keeps its newest MAX_EVENTS events: the append that goes past
 * drops the oldest one (two deletes), so neither the table nor one append grows without
 * bound. A payload is bounded by what makes it (a task's payload and a configuration
 * are at most 16 KiB of JSON; their routes check it).
 */
import type { HandlerContext } from './handler.js';
import { notFound } from '../api/errors.js';
import type { StoreReader, StoreWriter } from '../store/types.js';
import { type SpaceRecord, getUser } from './core-records.js';
import { coveringInstallations, installedAnywhere } from './integration-records.js';
import { paginate, rowsOf, type PageQuery } from './pagination.js';
import { userView } from './views.js';

/** How many events an integration keeps (the oldest go first). */
export const MAX_EVENTS = 10_000;

const EVENTS = 'integrationEvents';
const EVENT_IDS = 'integrationEventIds';
const EVENT_SEQ = 'integrationEventSeq';

/** A 0.202 `Event` payload: `type` and what the type carries (`eventId` is added when recorded). */
export type EventPayload = { type: string; installationId?: string } & Record<string, unknown>;

export interface IntegrationEventRecord {
  id: string;
  integration: string;
  installationId?: string;
  createdAt: string;
  payload: EventPayload & { eventId: string };
}

const seqKey = (seq: number) => String(seq).padStart(12, '0');

/** Records one event of `integration` (an append: a few rows, whatever the number of events). */
export function recordEvent(ctx: Pick<HandlerContext, 'clock' | 'ids'>, tx: StoreWriter, integration: string, payload: EventPayload): IntegrationEventRecord {
  const seq = (tx.get<number>(EVENT_SEQ, integration) ?? 0) + 1;
  const id = ctx.ids();
  const event: IntegrationEventRecord = {
    id,
    integration,
    ...(payload.installationId !== undefined ? { installationId: payload.installationId } : {}),
    createdAt: ctx.clock().toISOString(),
    payload: { eventId: id, ...payload },
  };
  tx.put(EVENTS, `${integration}/${seqKey(seq)}`, event);
  tx.put(EVENT_IDS, `${integration}/${id}`, seqKey(seq));
  tx.put(EVENT_SEQ, integration, seq);
  if (seq > MAX_EVENTS) dropEvent(tx, integration, seqKey(seq - MAX_EVENTS));
  return event;
}

function dropEvent(tx: StoreWriter, integration: string, key: string): void {
  const oldest = tx.get<IntegrationEventRecord>(EVENTS, `${integration}/${key}`);
  if (!oldest) return;
  tx.delete(EVENTS, `${integration}/${key}`);
  tx.delete(EVENT_IDS, `${integration}/${oldest.id}`);
}

/** Forgets every event of an unpublished integration (a whole-integration operation, rare). */
export function dropEvents(tx: StoreWriter, integration: string): void {
  for (const [key] of tx.scan(EVENTS, { prefix: `${integration}/` })) tx.delete(EVENTS, key);
  for (const [key] of tx.scan(EVENT_IDS, { prefix: `${integration}/` })) tx.delete(EVENT_IDS, key);
  tx.delete(EVENT_SEQ, integration);
}

export function eventCount(tx: StoreReader, integration: string): number {
  return Math.min(tx.get<number>(EVENT_SEQ, integration) ?? 0, MAX_EVENTS);
}

function eventView(event: IntegrationEventRecord) {
  return {
    id: event.id,
    integrationId: event.integration,
    ...(event.installationId !== undefined ? { installationId: event.installationId } : {}),
    createdAt: event.createdAt,
    payload: event.payload,
    // Recorded, not delivered: docsctl runs no integration code, so nothing can fail.
    status: 'success' as const,
  };
}

/** A page of an integration's events, newest first: reads the rows of the page only. */
export function listEvents(tx: StoreReader, integration: string, query: PageQuery) {
  return paginate(rowsOf<IntegrationEventRecord>(tx, EVENTS, `${integration}/`, { reverse: true }), query, eventView, eventCount(tx, integration));
}

export function getEvent(tx: StoreReader, integration: string, eventId: string) {
  const key = eventId.includes('/') ? undefined : tx.get<string>(EVENT_IDS, `${integration}/${eventId}`);
  const event = key === undefined ? undefined : tx.get<IntegrationEventRecord>(EVENTS, `${integration}/${key}`);
  if (!event) throw notFound(`Event ${eventId} of integration ${integration} not found (an integration keeps its newest ${MAX_EVENTS} events)`);
  // No integration code runs in docsctl: an event has no execution logs.
  return { event: eventView(event), trace: { logs: [] } };
}

// ─── What happens to spaces ────────────────────────────────────────────────

/**
 * Records `payload` (a space event) for every installation covering `space`. Cheap when
 * nothing is installed: one check of a row per organization and one prefix scan.
 */
export function recordSpaceEvent(ctx: HandlerContext, tx: StoreWriter, space: SpaceRecord, payload: { type: string } & Record<string, unknown>): void {
  if (!installedAnywhere(tx, space.organization)) return;
  for (const { integration, installation } of coveringInstallations(tx, space)) {
    recordEvent(ctx, tx, integration, { ...payload, installationId: installation, spaceId: space.id });
  }
}

/** `space_content_updated`: the space's primary content is now `revisionId`, changed by the caller. */
export function recordContentUpdated(ctx: HandlerContext, tx: StoreWriter, space: SpaceRecord, revisionId: string): void {
  if (!installedAnywhere(tx, space.organization)) return;
  const user = getUser(tx, ctx.actor.userId);
  recordSpaceEvent(ctx, tx, space, { type: 'space_content_updated', revisionId, updatedBy: user ? [userView(ctx, user)] : [] });
}
