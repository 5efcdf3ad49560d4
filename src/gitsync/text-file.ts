/**
 * A repository file read as page text while git streamed it: its bytes are not kept.
 *
 * An import reads every page file of the tree before it converts any: as bytes, the 4,376
 * pages of a server manual were ~30 MB of small C-heap buffers, alive beside the text decoded
 * from them, and the C heap kept that memory once they were let go (its peak RSS was 250 MiB
 * for a 49 MiB project). Decoded as they stream, the bytes pass through one reused buffer and
 * the text is what the conversion would have made anyway.
 *
 * The decoding is exact or not done: UTF-8, fatal (a file that is not valid UTF-8 keeps its
 * bytes), a byte order mark kept as a character. So `data`, for a reader that wants bytes
 * after all (the table of contents' layout, a symbolic link's target), is the text encoded
 * again: the same bytes.
 */
import type { RepoFile } from './types.js';

const exactDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

export class TextRepoFile implements RepoFile {
  readonly mode = 'file' as const;

  constructor(
    readonly path: string,
    readonly text: string,
    readonly oid: string,
    /** The file's size in bytes. */
    readonly size: number,
  ) {}

  get data(): Uint8Array {
    return encoder.encode(this.text);
  }
}

/** `bytes` as text when they are valid UTF-8 (exactly: encoding the text gives them back), else undefined. */
export function exactText(bytes: Uint8Array): string | undefined {
  try {
    return exactDecoder.decode(bytes);
  } catch {
    return undefined;
  }
}
