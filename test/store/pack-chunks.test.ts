/**
 * A pack's chunks go to the disk through one reused buffer (issue 21: import peak memory):
 * a buffer per chunk is garbage once written, and its bytes outside V8's heap stay until a
 * collection finds it, which a writer that allocates little in the heap hardly causes. A
 * 4,376-page import's 15 MB commit pack had ~10 MB of such chunks alive at the import's peak.
 * Measured as the bytes of ArrayBuffers alive while a 24 MB pack is written (no timing).
 */
import * as fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../src/store/objects.js';
import { PackWriter, newPackName, packsDir } from '../../src/store/pack-file.js';
import { cleanupTempDirs, storePath } from './helpers.js';

afterAll(() => cleanupTempDirs());

const MB = 1024 * 1024;

describe('PackWriter chunks', () => {
  it('writes a 24 MB pack holding at most a few MB of buffers beside its objects', async () => {
    const dir = storePath('pack-chunks');
    fs.mkdirSync(packsDir(dir), { recursive: true });
    // B+tree-leaf-sized objects, made (and counted) before the write.
    const objects = Array.from({ length: 1536 }, (_, i) => {
      const bytes = Buffer.alloc(16 * 1024, `{"leaf":${i},"rows":"${'x'.repeat(40)}"}`);
      return [sha256(bytes), bytes] as const;
    });
    const writer = new PackWriter(dir, newPackName(1, 'c'), { durable: false });
    const before = process.memoryUsage().arrayBuffers;
    let most = 0;
    const look = () => (most = Math.max(most, process.memoryUsage().arrayBuffers - before));
    for (const [hash, bytes] of objects) {
      writer.add(hash, bytes, false);
      look();
      if (writer.unwritten > 8 * MB) await writer.drain(2 * MB); // as a commit's own pack does (commit.ts writeOwnPack)
      look();
    }
    const info = await writer.finish();
    look();
    expect(info.bytes).toBe(objects.length * (16 * 1024 + 1));
    expect(fs.statSync(writer.packFile).size).toBe(info.bytes);
    // A new buffer per 1 MB chunk: ~24 MB more by the end; reused: its 2 MB (and the index's).
    expect(most).toBeLessThan(6 * MB);
  });
});
