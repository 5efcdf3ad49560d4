/**
 * Reading a ZIP archive from a file without loading the archive into memory:
 * the tail and the central directory are read and checked first (the same checks
 * as `readZip`: names, methods, sizes against the limit before anything is
 * inflated, overlaps), then each entry's compressed bytes are read and inflated
 * on libuv's thread pool, one at a time. Memory holds the directory and the
 * entries' contents, never the archive, and the event loop keeps turning between
 * entries (a server answers other requests during a large import).
 */
import { type FileHandle, open } from 'node:fs/promises';
import { promisify } from 'node:util';
import { inflateRaw, inflateRawSync } from 'node:zlib';
import {
  type CentralRecord,
  type ReadZipOptions,
  Reader,
  TAIL_BYTES,
  type ZipEntry,
  checkOverlaps,
  dataStart,
  finishEntry,
  inflateError,
  locateDirectory,
  parseDirectory,
} from './zip.js';

const inflateRawAsync = promisify(inflateRaw) as (data: Uint8Array, options: { maxOutputLength: number }) => Promise<Buffer>;

/** How much of the archive is read at once: entries are read in file order through this window. */
const WINDOW_BYTES = 1024 * 1024;
/** A local header: 30 bytes, then a name and an extra field of at most 64 KiB each. */
const LOCAL_HEADER_MAX = 30 + 2 * 0xffff;
/** Entries smaller than this inflate on the event loop (microseconds); larger ones on the thread pool. */
const SYNC_INFLATE_BYTES = 64 * 1024;
/** Give other work a turn after this much continuous work. */
const SLICE_MS = 10;

async function readAt(handle: FileHandle, offset: number, length: number): Promise<Reader> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, offset);
  return new Reader(new Uint8Array(buffer.buffer, buffer.byteOffset, bytesRead), offset);
}

/** Reads [offset, offset + length) through a moving window, so consecutive small entries cost one read. */
class Window {
  private reader = new Reader(new Uint8Array(0), 0);
  constructor(
    private readonly handle: FileHandle,
    private readonly total: number,
  ) {}
  async get(offset: number, length: number): Promise<Reader> {
    const end = offset + length;
    if (offset < this.reader.origin || end > this.reader.origin + this.reader.data.length) {
      const size = Math.min(Math.max(WINDOW_BYTES, length + LOCAL_HEADER_MAX), this.total - offset);
      this.reader = await readAt(this.handle, offset, Math.max(0, size));
    }
    return this.reader;
  }
}

async function inflate(rec: CentralRecord, raw: Uint8Array): Promise<Uint8Array> {
  if (rec.method === 0) return raw.slice();
  let inflated: Buffer;
  try {
    // maxOutputLength: an entry may not inflate past what it declared.
    const options = { maxOutputLength: Math.max(rec.size, 1) };
    inflated = rec.compressedSize < SYNC_INFLATE_BYTES ? inflateRawSync(raw, options) : await inflateRawAsync(raw, options);
  } catch (err) {
    throw inflateError(rec, err);
  }
  return new Uint8Array(inflated.buffer, inflated.byteOffset, inflated.byteLength);
}

/** The entries of the archive at `file`, with readZip's checks and limits, in central-directory order. */
export async function readZipFile(file: string, options: ReadZipOptions = {}): Promise<ZipEntry[]> {
  const handle = await open(file, 'r');
  try {
    const total = (await handle.stat()).size;
    const tailStart = Math.max(0, total - TAIL_BYTES);
    const tail = await readAt(handle, tailStart, total - tailStart);
    const location = locateDirectory(tail, total, options);
    const directory = await readAt(handle, location.cdOffset, location.cdSize);
    const records = parseDirectory(directory, location, options);
    const order = records.map((_, i) => i).sort((a, b) => (records[a] as CentralRecord).localOffset - (records[b] as CentralRecord).localOffset);

    const window = new Window(handle, total);
    const starts: number[] = new Array(records.length);
    for (const i of order) {
      const rec = records[i] as CentralRecord;
      starts[i] = dataStart(await window.get(rec.localOffset, Math.min(30, total - rec.localOffset)), rec);
    }
    checkOverlaps(records, starts, total);

    const entries: ZipEntry[] = new Array(records.length);
    let sliceStart = performance.now();
    for (const i of order) {
      const rec = records[i] as CentralRecord;
      const start = starts[i] as number;
      const raw = (await window.get(start, rec.compressedSize)).bytes(start, rec.compressedSize, `data of ${rec.path}`);
      entries[i] = finishEntry(rec, await inflate(rec, raw));
      if (performance.now() - sliceStart > SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        sliceStart = performance.now();
      }
    }
    return entries;
  } finally {
    await handle.close();
  }
}
