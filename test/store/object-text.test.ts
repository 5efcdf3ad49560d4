/**
 * How stored bytes become text (objects.ts `storedText`): ASCII, nearly every object, is
 * decoded as Latin-1 (a copy); anything else as UTF-8. The two must never disagree: a
 * Latin-1 decoding of UTF-8 bytes above ASCII would turn "é" into "Ã©".
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createStore, openStore } from '../../src/store/index.js';
import { parseObject, storedText } from '../../src/store/objects.js';
import { cleanupTempDirs, storePath } from './helpers.js';

afterAll(() => cleanupTempDirs());

const texts = ['{"title":"Plain ASCII","n":1}', '{"title":"Café"}', '{"t":"日本語のページ"}', '{"e":"😀 emoji"}', '{"nbsp":"a\u00a0b","ctl":"\\u0000"}', '', '{"last":"ÿ"}'];

describe('the text of stored bytes', () => {
  it('is what UTF-8 decoding gives, for ASCII and for every other character', () => {
    for (const text of texts) {
      const bytes = Buffer.from(text, 'utf8');
      expect(storedText(bytes)).toBe(text);
      expect(storedText(bytes.subarray(0, bytes.length))).toBe(bytes.toString('utf8'));
    }
    // A view into larger memory (a pack's read window): only its own bytes.
    const window = Buffer.from(`xx${texts[1]}yy`, 'utf8');
    expect(parseObject(window.subarray(2, window.length - 2), 'f')).toEqual({ title: 'Café' });
  });

  it('reads objects of every kind of text back as they were written, through a checkpoint into packs', async () => {
    const dir = storePath('object-text');
    const store = createStore(dir, { durable: false, checkpointEvery: 2 });
    const values = texts.filter(Boolean).map((text) => JSON.parse(text) as Record<string, unknown>);
    const hashes: string[] = [];
    for (const value of values) {
      await store.transact((tx) => {
        const hash = tx.putObject(value);
        hashes.push(hash);
        tx.put('kept', hash, { hash });
      });
    }
    await store.close();
    const reader = openStore(dir).read();
    hashes.forEach((hash, i) => expect(reader.getObject(hash)).toEqual(values[i]));
  });
});
