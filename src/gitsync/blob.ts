/** Git object ids. */
import { createHash } from 'node:crypto';

/** The Git blob SHA-1 of `data` (what `git hash-object` prints): sha1 of `blob <len>\0` + data. */
export function gitBlobOid(data: Uint8Array): string {
  const hash = createHash('sha1');
  hash.update(`blob ${data.byteLength}\0`);
  hash.update(data);
  return hash.digest('hex');
}
