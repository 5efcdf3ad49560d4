/**
 * `site tree` writes its text as it is drawn: treeTextChunks gives the text of an answer
 * a variant at a time (the same bytes as treeText, an answer out of shape refused before
 * the first chunk), and Session.printSanitizedChunks writes them ~64 KiB at a time, ends
 * the text with a newline, and turns a reader that went away into OutputClosedError.
 */
import { PassThrough, Readable, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Session } from '../../src/cli/session.js';
import { OutputClosedError } from '../../src/cli/io.js';
import { treeText, treeTextChunks } from '../../src/domain/sites/tree-text.js';
import type { TreeText } from '../../src/domain/sites/tree-shape.js';
import { randomIds } from '../../src/util/ids.js';
import { scriptedPrompter } from '../../src/cli/prompter.js';

/** A session writing to `out`. */
function sessionOn(out: Writable): Session {
  return new Session(
    {
      io: { in: Readable.from([]), out, err: new PassThrough(), isStdoutTTY: false, isStdinTTY: false, colorEnabled: false, columns: undefined },
      env: { NO_COLOR: '1' },
      clock: () => new Date(),
      ids: randomIds(),
      prompter: scriptedPrompter([]),
      version: 'test',
      onStopSignal: () => () => undefined,
    },
    {},
  );
}

/** A stdout that keeps each write. */
function recorder(): Writable & { writes: string[] } {
  const writes: string[] = [];
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      writes.push(chunk.toString('utf8'));
      done();
    },
  });
  return Object.assign(out, { writes });
}

const caret = (text: string) => text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '?');

/** 300 variants of 100 pages each, every other one showing the same pieces. */
function bigAnswer(): TreeText {
  const pieces = [0, 1].map((n) => Array.from({ length: 101 }, (_, i) => (i === 0 ? `    Page ${n}.${i}  ` : `page-${i}\n    Page ${n}.${i} ü  `)));
  const parts: TreeText['parts'] = [];
  for (let v = 0; v < 300; v += 1) parts.push(`  * Variant ${v}  variant v${v}  /v${v}\n`, [v % 2, `https://acme.gitbook.io/docs/v${v}/`]);
  parts.push('# Last  section s  /last\n');
  return { parts, pieces };
}

describe('treeTextChunks', () => {
  it('gives the bytes of treeText, a variant’s page lines in one chunk', () => {
    const answer = bigAnswer();
    const chunks = [...treeTextChunks(answer)];
    expect(chunks).toHaveLength(601);
    expect(chunks.join('')).toBe(treeText(answer));
    expect(chunks[1]).toBe((answer.pieces[0] as string[]).join('https://acme.gitbook.io/docs/v0/'));
    expect(chunks[1]?.split('\n')).toHaveLength(101);
  });

  it('cleans pieces and URLs: the text made safe, as treeText cleans it', () => {
    const hostile: TreeText = { parts: ['# A\u001b[2J\n', [0, 'https://x.test/\u009b/'], [0, 'https://y.test/']], pieces: [['  Evil \u0007  ', 'evil\n  Fine  ', 'fine\n']] };
    const text = [...treeTextChunks(hostile, caret)].join('');
    expect(text).toBe(caret(treeText(hostile)));
    expect(text).toBe('# A?[2J\n  Evil ?  https://x.test/?/evil\n  Fine  https://x.test/?/fine\n  Evil ?  https://y.test/evil\n  Fine  https://y.test/fine\n');
  });

  it('refuses an answer out of shape before its first chunk', () => {
    for (const bad of [[5, 'https://x.test/'], [0, 7], 'x'.split(''), { index: 0 }]) {
      const answer = { parts: ['# Section\n', [0, 'https://x.test/'], bad], pieces: [['a', 'b\n']] } as unknown as TreeText;
      const chunks = treeTextChunks(answer);
      expect(() => chunks.next()).toThrow(/names pieces that are not there/);
    }
  });
});

describe('Session.printSanitizedChunks', () => {
  it('writes the text ~64 KiB at a time, all of it, and ends it with a newline', async () => {
    const out = recorder();
    const session = sessionOn(out);
    const chunks = [...treeTextChunks(bigAnswer())].map((chunk, i, all) => (i === all.length - 1 ? chunk.slice(0, -1) : chunk));
    const written = await session.printSanitizedChunks(chunks);
    const text = chunks.join('');
    expect(text.length).toBeGreaterThan(4 * 64 * 1024);
    expect(written).toBe(text.length);
    expect(out.writes.join('')).toBe(`${text}\n`);
    expect(out.writes.length).toBeGreaterThanOrEqual(4);
    expect(out.writes.length).toBeLessThan(text.length / (64 * 1024) + 2);
    for (const write of out.writes.slice(0, -1)) expect(write.length).toBeGreaterThanOrEqual(64 * 1024);
  });

  it('writes nothing for no text, and no second newline', async () => {
    const out = recorder();
    expect(await sessionOn(out).printSanitizedChunks(['', ''])).toBe(0);
    expect(out.writes).toEqual([]);
    expect(await sessionOn(out).printSanitizedChunks(['a\n', '', 'b\n'])).toBe(4);
    expect(out.writes).toEqual(['a\nb\n']);
  });

  it('stops with OutputClosedError when the reader went away', async () => {
    const out = new Writable({
      write(_chunk, _encoding, done) {
        done(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
      },
    });
    out.on('error', () => undefined);
    let drawn = 0;
    function* lines() {
      for (let i = 0; i < 10_000; i += 1) {
        drawn += 1;
        yield `line ${i} ${'x'.repeat(60)}\n`;
      }
    }
    await expect(sessionOn(out).printSanitizedChunks(lines())).rejects.toBeInstanceOf(OutputClosedError);
    expect(drawn).toBeLessThan(2_000); // stopped at the first write, not after drawing everything
  });
});
