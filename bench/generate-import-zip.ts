/**
 * Writes the archive of the serve-import benchmark: a Git Sync zip of PAGES pages of
 * about 7 KB of words, headings and lists each (deterministic), 100 to a section folder,
 * listed by SUMMARY.md. Written with the product's own zip writer (src/util/zip.ts, deflated).
 * Usage (bundled by bench/run.mjs): node generate-import-zip.mjs FILE PAGES
 * Prints JSON: {bytes (the archive), markdownBytes (the pages inflated)}.
 */
import { writeFileSync } from 'node:fs';
import { writeZip } from '../src/util/zip.js';

const [file, pagesArg] = process.argv.slice(2);
if (!file) throw new Error('usage: generate-import-zip FILE PAGES');
const pages = Number(pagesArg ?? 5000);

const WORDS = 'store pack index commit object reader writer checkpoint merge space page site import export revision change request comment review search token user team organization collection'.split(' ');

/** A page of about `bytes` bytes, deterministic for its number. */
function page(n: number, bytes: number): string {
  const lines = [`# Page ${n}`, ''];
  let size = 0;
  let seed = n * 7919 + 1;
  while (size < bytes) {
    const words: string[] = [];
    for (let i = 0; i < 12; i++) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      words.push(WORDS[seed % WORDS.length] as string);
    }
    const line = seed % 7 === 0 ? `## ${words.slice(0, 4).join(' ')}` : seed % 5 === 0 ? `- ${words.join(' ')}` : `${words.join(' ')}.`;
    lines.push(line, '');
    size += line.length + 2;
  }
  return `${lines.join('\n')}\n`;
}

const enc = new TextEncoder();
const entries = [{ path: 'README.md', data: enc.encode('# Home\n\nThe manual.\n') }];
const summary = ['# Summary', '', '* [Home](README.md)'];
let markdownBytes = 0;
for (let n = 0; n < pages; n++) {
  const section = Math.floor(n / 100);
  const path = `section-${section}/page-${n}.md`;
  summary.push(n % 100 === 0 ? `* [Section ${section}](${path})` : `  * [Page ${n}](${path})`);
  const data = enc.encode(page(n, 7000));
  markdownBytes += data.length;
  entries.push({ path, data });
}
entries.push({ path: 'SUMMARY.md', data: enc.encode(`${summary.join('\n')}\n`) });
const zip = writeZip(entries);
writeFileSync(file, zip);
console.log(JSON.stringify({ bytes: zip.length, markdownBytes }));
