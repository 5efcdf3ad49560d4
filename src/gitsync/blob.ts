/** Git object ids. */
import { createHash } from 'node:crypto';
import { sameBytes } from '../util/bytes.js';
import type { RepoFile } from './types.js';

/** The Git blob SHA-1 of `data` (what `git hash-object` prints): sha1 of `blob <len>\0` + data. */
export function gitBlobOid(data: Uint8Array): string {
  const hash = createHash('sha1');
  hash.update(`blob ${data.byteLength}\0`);
  hash.update(data);
  return hash.digest('hex');
}

/** The git blob id of a repository file: the one git gave (no hashing), else computed from its bytes. */
export function fileOid(file: RepoFile): string {
  return file.oid ?? file.stored?.oid ?? gitBlobOid(file.data);
}

/**
 * Whether a repository file holds exactly `data`: its bytes, or, when they went to the
 * store as they were read (types.ts StoredBytes), its size and blob id.
 */
export function holdsBytes(file: RepoFile, data: Uint8Array): boolean {
  if (file.stored === undefined) return sameBytes(file.data, data);
  return file.stored.size === data.byteLength && file.stored.oid === gitBlobOid(data);
}
