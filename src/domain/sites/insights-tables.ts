/**
 * The tables of a site's Insights (described in insights.ts), and their removal with the site:
 * apart from the handlers so that deleting a site loads neither the query engine nor ingest.
 */
import type { StoreWriter } from '../../store/types.js';
import { KeyedSet } from '../ordered.js';

export const EVENTS = 'siteInsightsEvents';
export const SEGMENT_OF = 'siteInsightsSegmentOf';
export const SEGMENT_MEMBERS = 'siteInsightsSegmentMembers';
/** Rows read (or deleted) per scan. */
export const SCAN_BATCH = 1000;

export interface SegmentRow {
  id: string;
  title: string;
  claims: Record<string, unknown>;
  events: number;
  visitors: number;
  sessions: number;
}

export const segments = new KeyedSet<SegmentRow>('siteInsightsSegments');

function deleteByPrefix(tx: StoreWriter, table: string, prefix: string): void {
  for (;;) {
    const batch = tx.scan(table, { prefix, limit: SCAN_BATCH });
    for (const [key] of batch) tx.delete(table, key);
    if (batch.length < SCAN_BATCH) return;
  }
}

/** Deletes every event and segment of a site (the site is being deleted). */
export function removeSiteInsights(tx: StoreWriter, siteId: string): void {
  deleteByPrefix(tx, EVENTS, `${siteId}/`);
  for (const { id } of segments.all(tx, siteId)) {
    deleteByPrefix(tx, SEGMENT_MEMBERS, `${id}/`);
    segments.remove(tx, siteId, id);
  }
  deleteByPrefix(tx, SEGMENT_OF, `${siteId}/`);
}
