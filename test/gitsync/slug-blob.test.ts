import { describe, expect, it } from 'vitest';
import { gitBlobOid } from '../../src/gitsync/blob.js';
import { slugFromPath, slugify, uniqueName } from '../../src/gitsync/slug.js';

describe('slugify', () => {
  it('follows GitBook', () => {
    expect(slugify('Vue.js no-code email builder')).toBe('vue.js-no-code-email-builder');
    expect(slugify('Deploying & Hosting')).toBe('deploying-and-hosting');
    expect(slugify("What's new? (2026)")).toBe('whats-new-2026');
    expect(slugify('It’s  a  "test" — ok')).toBe('its-a-test-ok');
    expect(slugify('Café Crème')).toBe('cafe-creme');
    expect(slugify('日本語 ページ')).toBe('日本語-ページ');
    expect(slugify('!!!')).toBe('');
    expect(slugify('x'.repeat(150)).length).toBe(100);
  });

  it('is idempotent', () => {
    for (const title of ['Vue.js no-code', 'A & B', 'snake_case', 'a--b', 'Ünïcödé']) {
      expect(slugify(slugify(title))).toBe(slugify(title));
    }
  });

  it('derives page slugs from paths', () => {
    expect(slugFromPath('README.md')).toBe('readme');
    expect(slugFromPath('guide/README.md')).toBe('guide');
    expect(slugFromPath('guide/readme.md')).toBe('guide');
    expect(slugFromPath('guide/INTRODUCTION.md')).toBe('introduction');
    expect(slugFromPath('a/!!!.md')).toBe('untitled');
  });

  it('numbers clashes', () => {
    const taken = new Set(['faq', 'faq-1']);
    expect(uniqueName('faq', (n) => taken.has(n))).toBe('faq-2');
    expect(uniqueName('new', (n) => taken.has(n))).toBe('new');
  });
});

describe('gitBlobOid', () => {
  it('is what git hash-object prints', () => {
    expect(gitBlobOid(new TextEncoder().encode('hello\n'))).toBe('ce013625030ba8dba906f756967f9e9ca394464a');
    expect(gitBlobOid(new Uint8Array())).toBe('e69de29bb2d1d6434b8b29ae775ad8c2e48c5391');
  });
});
