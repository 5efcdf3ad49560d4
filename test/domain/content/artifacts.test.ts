import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ARTIFACT_TTL_MS, MemoryArtifacts, directoryArtifacts, safeArtifactName } from '../../../src/transport/artifacts.js';
import { writeFixture } from './helpers.js';

describe('artifact sinks', () => {
  it('directoryArtifacts writes the file and answers its file:// URL; names cannot escape the directory', async () => {
    const dir = writeFixture({});
    const sink = directoryArtifacts(dir);
    const url = await sink.save('../../etc/passwd', new Uint8Array([1, 2, 3]), 'application/pdf');
    expect(url.startsWith('file://')).toBe(true);
    const file = fileURLToPath(url);
    expect(file.startsWith(dir)).toBe(true);
    expect([...readFileSync(file)]).toEqual([1, 2, 3]);
    expect(safeArtifactName('a b/c.pdf')).toBe('a-b-c.pdf');
  });

  it('MemoryArtifacts serves what was saved under the origin, for an hour, within a byte budget', async () => {
    let now = 0;
    const sink = new MemoryArtifacts(() => 'http://127.0.0.1:4000/', () => now, 10);
    const url = await sink.save('x.pdf', new Uint8Array(6), 'application/pdf');
    expect(url).toBe('http://127.0.0.1:4000/artifacts/x.pdf');
    expect(sink.get('x.pdf')?.contentType).toBe('application/pdf');
    await sink.save('y.pdf', new Uint8Array(6), 'application/pdf');
    expect(sink.get('x.pdf')).toBeUndefined(); // over budget: the oldest goes
    expect(sink.get('y.pdf')).toBeDefined();
    now += ARTIFACT_TTL_MS;
    expect(sink.get('y.pdf')).toBeUndefined();
  });
});
