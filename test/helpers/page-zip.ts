/**
 * Zip archives of one Markdown page of a given shape and size, written without
 * holding the page in memory (deflated a megabyte at a time): a 400 MiB page of
 * newlines is a 408 KB archive, built in a few seconds.
 */
import { writeFileSync } from 'node:fs';
import * as zlib from 'node:zlib';
import { crc32 as crc32Js } from '../../src/util/zip.js';

const MIB = 1024 * 1024;

/** The text of a page of `bytes` bytes made of `unit` repeated (cut at the size). */
export function pageText(unit: string, bytes: number): string {
  return unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);
}

/** A zip holding `name`: `pageText(unit, bytes)`, written a whole number of units (about a megabyte) at a time. */
export async function writePageZip(file: string, name: string, unit: string, bytes: number): Promise<void> {
  const chunk = Buffer.from(unit.repeat(Math.max(1, Math.floor(MIB / unit.length))));
  const crc32 = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32 ?? crc32Js;
  const deflate = zlib.createDeflateRaw({ level: 9 });
  const parts: Buffer[] = [];
  deflate.on('data', (part: Buffer) => parts.push(part));
  const done = new Promise((resolve, reject) => deflate.on('end', resolve).on('error', reject));
  let crc = 0;
  for (let written = 0; written < bytes; written += chunk.length) {
    const piece = bytes - written >= chunk.length ? chunk : chunk.subarray(0, bytes - written);
    crc = crc32(piece, crc);
    if (!deflate.write(piece)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  const body = Buffer.concat(parts);
  const path = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(0x800, 6);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(crc >>> 0, 14);
  local.writeUInt32LE(body.length, 18);
  local.writeUInt32LE(bytes, 22);
  local.writeUInt16LE(path.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(0x800, 8);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(crc >>> 0, 16);
  central.writeUInt32LE(body.length, 20);
  central.writeUInt32LE(bytes, 24);
  central.writeUInt16LE(path.length, 28);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(46 + path.length, 12);
  end.writeUInt32LE(30 + path.length + body.length, 16);
  writeFileSync(file, Buffer.concat([local, path, body, central, path, end]));
}

/** Shapes of hostile Markdown: the text repeated to make a page. */
export const PAGE_SHAPES = {
  'blank lines': '\n',
  'one long line': 'a',
  'deep lists': '- x\n  - x\n    - x\n      - x\n        - x\n          - x\n            - x\n              - x\n',
  'many tiny blocks': 'a\n\n',
  'one-line code blocks': '```\n```\n',
  'links': '[a](b.md) ',
  'brackets and parentheses': '[](',
  'ordinary text': 'The quick brown fox jumps over the lazy dog, then reads the docs. It was a fine day.\n\n',
} as const;
