/**
 * The git progress line: drawn on a terminal only, redrawn in place, throttled,
 * cleared at the end; stage, objects, bytes and pages in the text.
 */
import { describe, expect, it } from 'vitest';
import { formatBytes, progressLine, progressRenderer } from '../../src/cli/git-progress.js';

function tty(isTTY = true) {
  const writes: string[] = [];
  return { writes, stream: { isTTY, columns: 100, write: ((chunk: string) => writes.push(chunk) > 0) as never } };
}

describe('progressLine', () => {
  it('shows the stage, a bar, the percentage, the objects and the bytes', () => {
    const line = progressLine({ stage: 'receiving', processed: 450, total: 1000, bytes: 1.5 * 1024 * 1024 }, 100);
    expect(line).toMatch(/^receiving +\[#+-+\] +45% +450\/1000 objects +1\.5 MiB$/);
  });

  it('counts pages when converting and files when reading', () => {
    expect(progressLine({ stage: 'converted', processed: 2000, total: 2000 })).toContain('2000/2000 pages');
    expect(progressLine({ stage: 'reading', processed: 12, total: 12, bytes: 2048 })).toMatch(/12\/12 files +2\.0 KiB/);
    expect(progressLine({ stage: 'converting' })).toBe('converting ');
  });

  it('fits the terminal width', () => {
    expect(progressLine({ stage: 'receiving', processed: 1, total: 2, bytes: 10 }, 30).length).toBeLessThan(30);
  });

  it('formats bytes in binary units', () => {
    expect([formatBytes(512), formatBytes(2048), formatBytes(300 * 1024 * 1024), formatBytes(3 * 1024 ** 3)]).toEqual(['512 B', '2.0 KiB', '300 MiB', '3.0 GiB']);
  });
});

describe('progressRenderer', () => {
  it('draws nothing when stderr is not a terminal, or when disabled (--json, --quiet)', () => {
    expect(progressRenderer(tty(false).stream, { enabled: true })).toBeUndefined();
    expect(progressRenderer(tty(true).stream, { enabled: false })).toBeUndefined();
  });

  it('redraws one line in place, throttles updates within a stage, and clears it at the end', () => {
    let clock = 0;
    const { stream, writes } = tty();
    const renderer = progressRenderer(stream, { enabled: true, now: () => clock })!;
    renderer.listener({ stage: 'counting', processed: 1, total: 10 });
    clock += 10;
    renderer.listener({ stage: 'counting', processed: 2, total: 10 }); // throttled
    clock += 200;
    renderer.listener({ stage: 'counting', processed: 5, total: 10 });
    clock += 1;
    renderer.listener({ stage: 'counting', processed: 10, total: 10 }); // the last one always shows
    renderer.listener({ stage: 'receiving', processed: 1, total: 4, bytes: 100 }); // a new stage always shows
    renderer.done();
    expect(writes).toHaveLength(5);
    expect(writes.slice(0, 4).every((chunk) => chunk.startsWith('\r') && !chunk.includes('\n'))).toBe(true);
    expect(writes[0]).toContain('1/10 objects');
    expect(writes[1]).toContain('5/10 objects');
    expect(writes[2]).toContain('10/10 objects');
    expect(writes[3]).toContain('receiving');
    expect(writes[3]).toContain('100 B');
    expect(writes[4]).toMatch(/^\r +\r$/);
  });

  it('pads a shorter line over a longer one, and clears nothing when nothing was drawn', () => {
    const { stream, writes } = tty();
    const renderer = progressRenderer(stream, { enabled: true, now: () => 0 })!;
    renderer.done();
    expect(writes).toEqual([]);
    renderer.listener({ stage: 'receiving', processed: 1, total: 2, bytes: 5_000_000 });
    renderer.listener({ stage: 'done' });
    expect(writes[1]!.length).toBeGreaterThanOrEqual(writes[0]!.length);
  });
});
