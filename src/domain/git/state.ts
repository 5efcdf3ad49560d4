/**
 * Git Sync state of a space.
 *
 * | table   | key     | value         |
 * |---------|---------|---------------|
 * | gitSync | spaceId | GitSyncRecord |
 * | gitBlobs | data object hash | git blob id of its bytes |
 *
 * The public part (API `GitSyncState`: repoName, installationProvider, url,
 * updatedAt) lives on the space record (`space.gitSync`, shown by the space
 * view and `getSpaceGitInfo`). What the sync needs for itself (the commit both
 * sides last agreed on, the last event's timestamp, the revisions made) lives
 * here, so it never leaks into API answers. URLs are always stored redacted
 * (no credentials).
 */
import type { SyncLayout } from '../../gitsync/layout.js';
import type { StoreReader, StoreWriter } from '../../store/types.js';

export const GIT_SYNC_TABLE = 'gitSync';

/**
 * What a sync learnt of the files' bytes: a data object's git blob id (a fact of its bytes,
 * the same for every space). An export compares a file with the branch by it without
 * reading, decoding and hashing the bytes again; a file it has no row for is read as before.
 * One row per distinct data object, added when first seen (by an import that staged the
 * bytes, or an export that hashed them), never rewritten.
 */
export const GIT_BLOBS_TABLE = 'gitBlobs';

/** Where the space is linked: repository (redacted URL), branch, project directory. */
export interface GitSyncTarget {
  url: string;
  ref: string;
  /** Normalised project directory ('' = the repository root). */
  projectDirectory: string;
}

export interface GitSyncRecord extends Partial<GitSyncTarget> {
  space: string;
  /** The commit the space and the branch last agreed on (last import, or last export's push / remote head). */
  lastOid?: string;
  /** Latest `timestamp` of an applied import or export (ISO date-time). */
  lastTimestamp?: string;
  lastDirection?: 'import' | 'export';
  /** Primary revision created by the last import. */
  lastImportRevision?: string;
  /** Primary revision the last export wrote (or attached git refs to). */
  lastExportRevision?: string;
  /** Last standalone (preview) import: a revision that is not the primary (no oid for a plain directory). */
  lastStandaloneRevision?: { revision: string; oid?: string; url: string; ref: string; createdAt: string };
  /** The `gitInfo` of the last sync request (provider, repository tree URL). */
  gitInfo?: { provider?: 'github' | 'gitlab' | undefined; url?: string | undefined };
  /** What the last export did: whether it committed, the branch head after it, the files it changed (the first 1,000). */
  lastExport?: { committed: boolean; commit?: string; fileCount: number; files: string[]; at: string };
  /** The `repoTreeURL` of the last sync request. */
  repoTreeURL?: string;
  /**
   * The layout the space was last synced with (gitsync/layout.ts: project directory,
   * `.gitbook.yaml`, SUMMARY.md), by the hash of the object holding it: what an export
   * into an empty repository writes.
   */
  layout?: string;
  updatedAt?: string;
}

export function getGitSync(tx: StoreReader, spaceId: string): GitSyncRecord | undefined {
  return tx.get<GitSyncRecord>(GIT_SYNC_TABLE, spaceId);
}

export function putGitSync(tx: StoreWriter, record: GitSyncRecord): void {
  const clean: GitSyncRecord = { ...record };
  for (const key of Object.keys(clean) as Array<keyof GitSyncRecord>) if (clean[key] === undefined) delete clean[key];
  tx.put(GIT_SYNC_TABLE, record.space, clean);
}

/** Whether the record is linked to exactly this repository, branch and directory. */
export function sameTarget(record: GitSyncRecord | undefined, target: GitSyncTarget): record is GitSyncRecord & GitSyncTarget {
  return (
    record !== undefined &&
    record.url === target.url &&
    record.ref === target.ref &&
    (record.projectDirectory ?? '') === target.projectDirectory
  );
}

/** True when `timestamp` is older than the last applied event's (the event is stale and must be skipped). */
export function isStale(record: GitSyncRecord | undefined, timestamp: string | undefined): boolean {
  if (timestamp === undefined || record?.lastTimestamp === undefined) return false;
  return Date.parse(timestamp) < Date.parse(record.lastTimestamp);
}

/** The later of the stored and the given timestamps. */
export function laterTimestamp(record: GitSyncRecord | undefined, timestamp: string | undefined): string | undefined {
  const previous = record?.lastTimestamp;
  if (timestamp === undefined) return previous;
  if (previous === undefined) return timestamp;
  return Date.parse(timestamp) >= Date.parse(previous) ? timestamp : previous;
}

/** The layout a record remembers; undefined when it remembers none (or its object is unreadable: then the export writes GitBook's defaults). */
export function rememberedLayout(reader: StoreReader, record: GitSyncRecord | undefined): SyncLayout | undefined {
  if (record?.layout === undefined) return undefined;
  try {
    return reader.getObject<SyncLayout>(record.layout);
  } catch {
    return undefined;
  }
}

/** Stores a layout (content-addressed: the same layout is the same object); answers what the record keeps. */
export function rememberLayout(tx: StoreWriter, layout: SyncLayout): string {
  return tx.putObject(layout);
}

/** The git blob id of a data object's bytes, when a sync learnt it. */
export function knownBlob(reader: StoreReader, dataHash: string): string | undefined {
  return reader.get<string>(GIT_BLOBS_TABLE, dataHash);
}

/** Remembers blob ids of data objects (`[data object hash, git blob id]`): only the ones not known yet are written. */
export function rememberBlobs(tx: StoreWriter, pairs: Iterable<readonly [string, string]>): void {
  for (const [dataHash, oid] of pairs) if (!tx.has(GIT_BLOBS_TABLE, dataHash)) tx.put(GIT_BLOBS_TABLE, dataHash, oid);
}
