/**
 * Readers take a commit's record line without its packed objects (readCommitHead):
 * a commit that packs an import is megabytes, and every command reads the newest one.
 */
import * as fs from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCommitHead } from '../../src/store/commit-file.js';

const dir = mkdtempSync(join(tmpdir(), 'docsctl-commit-head-'));
let n = 0;
function file(bytes: Buffer | string): string {
  const path = join(dir, `commit-${n++}`);
  fs.writeFileSync(path, bytes);
  return path;
}

describe('readCommitHead', () => {
  it('returns the text before the first newline and the size of the whole file', () => {
    const body = Buffer.alloc(300_000, 0x61);
    const path = file(Buffer.concat([Buffer.from('{"gen":1}\n'), body]));
    expect(readCommitHead(path)).toEqual({ header: '{"gen":1}', size: 300_010 });
  });

  it('reads on past its first read for a long record (a pack list of thousands of objects)', () => {
    for (const length of [16 * 1024 - 1, 16 * 1024, 16 * 1024 + 1, 200_000]) {
      const header = `{"pack":"${'é'.repeat(length)}"}`;
      const path = file(`${header}\n${'x'.repeat(1000)}`);
      const head = readCommitHead(path);
      expect(head?.header).toBe(header);
      expect(head?.size).toBe(Buffer.byteLength(header) + 1 + 1000);
    }
  });

  it('returns the whole text of a file without a newline (a record cut short), and of an empty one', () => {
    expect(readCommitHead(file('{"gen":1,"ro'))).toEqual({ header: '{"gen":1,"ro', size: 12 });
    expect(readCommitHead(file(''))).toEqual({ header: '', size: 0 });
  });

  it('returns undefined for a missing file and throws other errors', () => {
    expect(readCommitHead(join(dir, 'missing'))).toBeUndefined();
    expect(() => readCommitHead(dir)).toThrow();
  });
});
