/**
 * `site tree` through the built binary, in both modes, on a space whose pages trie splits
 * (inner nodes and several leaves) and whose titles need JSON escapes: both print exactly
 * the expected tree, drawn from the outlines in the trie's leaves. A damaged trie leaf fails
 * the local read loudly (exit 74, one line) instead of printing a wrong tree.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { bin, describeInBothModes } from '../helpers/binary.js';
import { tempDir } from '../helpers/stores.js';

const TITLES = ['Say "hi"', 'back\\slash', 'Ünïcödé — 日本語', 'emoji 🚀', 'Zebra stripes'];
const COUNT = 40;
const title = (i: number) => `${TITLES[i % TITLES.length] as string} ${i}`;

/** A Git Sync-shaped folder: a SUMMARY of COUNT pages under two groups, every page with its heading. */
function docsFolder(): string {
  const dir = tempDir('docsctl-site-tree-docs-');
  mkdirSync(join(dir, 'more'));
  const lines = ['# Table of contents', '', '## First', ''];
  for (let i = 0; i < COUNT; i += 1) {
    if (i === COUNT / 2) lines.push('', '## Second', '');
    const file = i % 2 === 0 ? `page-${i}.md` : `more/page-${i}.md`;
    writeFileSync(join(dir, file), `# ${title(i)}\n\nText ${i}.\n`);
    lines.push(`* [${title(i).replace(/[\\[\]]/g, '\\$&')}](${file})`);
  }
  writeFileSync(join(dir, 'SUMMARY.md'), `${lines.join('\n')}\n`);
  return dir;
}

/** Every file under `dir`. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = join(dir, name);
    return statSync(file).isDirectory() ? filesUnder(file) : [file];
  });
}

const docs = docsFolder();

describeInBothModes(
  'site tree through the binary',
  (context) => {
  let site = '';
  beforeAll(async () => {
    const { cli } = context;
    const space = await cli.ok(['space', 'create', '--title', 'Guide', '--format', 'ids']);
    const cr = await cli.ok(['cr', 'create', space, '--subject', 'Import', '--format', 'ids']);
    await cli.ok(['cr', 'import', space, cr, docs]);
    await cli.ok(['cr', 'merge', space, cr]);
    site = await cli.ok(['site', 'create', '--title', 'Help', '--type', 'premium', '--format', 'ids']);
    await cli.ok(['site', 'section', 'add', site, space, '--title', 'Guides']);
    await cli.ok(['site', 'publish', site]);
  });

  it('prints every page of a split trie, titles with escapes exactly', async () => {
    const { cli } = context;
    const text = await cli.ok(['site', 'tree', site]);
    // Ids and the site's host differ per run: everything else is as expected.
    const shown = text
      .replace(/ section \S+ /, ' section ID ')
      .replace(/ variant \S+ /, ' variant ID ')
      .replaceAll(/https:\/\/[a-z0-9]+\.gitbook\.io\//g, 'https://HOST/');
    const expected = [
      '# Guides  section ID  /guides  default  https://HOST/help/',
      '  * Guide  variant ID  /guide  default  https://HOST/help/',
      '    First  https://HOST/help/first',
      ...Array.from({ length: COUNT / 2 }, (_, i) => `      ${title(i)}  https://HOST/help/first/page-${i}`),
      '    Second  https://HOST/help/second',
      ...Array.from({ length: COUNT / 2 }, (_, i) => `      ${title(i + COUNT / 2)}  https://HOST/help/second/page-${i + COUNT / 2}`),
    ];
    expect(shown.split('\n')).toEqual(expected);
  });

  it('ends quietly with exit 0 when the reader closed stdout (`site tree | head -1`)', async () => {
    const { cli } = context;
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
      const child = spawn('node', [bin, 'site', 'tree', site], { env: cli.env, stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.destroy();
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stderr }));
    });
    expect(result).toEqual({ code: 0, stderr: '' });
  });

  it.runIf(context.mode === 'local')('a damaged trie leaf fails the read with one line and exit 74', async () => {
    const { cli } = context;
    // The leaf holding "Zebra stripes 4" beside its kind: a leaf of the pages trie, not the page object.
    const needle = Buffer.from(`"Zebra stripes 4",""`);
    const store = cli.env.DOCSCTL_STORE as string;
    const damaged = filesUnder(store).filter((file) => {
      const bytes = readFileSync(file);
      const at = bytes.indexOf(needle);
      if (at < 0) return false;
      bytes[at + 1] = 'z'.charCodeAt(0); // "zebra stripes 4": same length, another hash
      writeFileSync(file, bytes);
      return true;
    });
    expect(damaged.length).toBeGreaterThan(0);
    const result = await cli.run(['site', 'tree', site]);
    expect(result.stdout).toBe('');
    expect(result.exitCode).toBe(74);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/store damaged/);
    expect(result.stderr).not.toMatch(/zebra stripes/);
  });
  },
  { serveFlags: ['--allow-local', docs] },
);
