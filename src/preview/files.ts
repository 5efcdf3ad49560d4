/**
 * The bytes of a content file for the preview. Locally from the store (the local
 * mode's `downloadURL` names a server that does not run); remotely from its
 * `downloadURL` (http or https only, no token sent, 30 s, at most 64 MiB).
 */
import type { Transport } from '../transport/types.js';
import type { FileEntry } from './model.js';

export const MAX_FILE_BYTES = 64 * 1024 * 1024;

export function fileReader(transport: Transport): (file: FileEntry) => Promise<Uint8Array | undefined> {
  const local = transport.download?.bind(transport);
  if (local) return async (file) => local(file.downloadURL);
  return async (file) => {
    let url: URL;
    try {
      url = new URL(file.downloadURL);
    } catch {
      return undefined;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    const answer = await fetch(url, { signal: AbortSignal.timeout(30_000), redirect: 'follow' }).catch(() => undefined);
    if (!answer?.ok || !answer.body) return undefined;
    if (Number(answer.headers.get('content-length') ?? 0) > MAX_FILE_BYTES) return undefined;
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      for await (const chunk of answer.body as unknown as AsyncIterable<Uint8Array>) {
        size += chunk.byteLength;
        if (size > MAX_FILE_BYTES) return undefined;
        chunks.push(chunk);
      }
    } catch {
      return undefined;
    }
    return Buffer.concat(chunks);
  };
}
