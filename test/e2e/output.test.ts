/**
 * The built binary's output paths: every --format on a read and on a write, and
 * a reader that closes stdout before the command writes (`| head -1`).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

const bin = new URL('../../bin/docsctl.js', import.meta.url).pathname;
let env: Record<string, string>;
let spaceId: string;

const docsctl = (args: string[]) => execa('node', [bin, ...args], { env, extendEnv: false, reject: false, timeout: 30_000 });

/** Runs the binary with its stdout closed by the reader before anything is written. */
function runWithClosedStdout(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('node', [bin, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

beforeAll(async () => {
  const home = tempDir('docsctl-e2e-output-');
  env = { PATH: process.env.PATH ?? '', HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config'), NO_COLOR: '1' };
  expect((await docsctl(['init', '--org', 'Acme'])).exitCode).toBe(0);
  spaceId = (await docsctl(['space', 'create', '--title', 'Handbook', '--format', 'ids'])).stdout.trim();
  const cr = (await docsctl(['cr', 'create', spaceId, '--subject', 'Pages', '--format', 'ids'])).stdout.trim();
  const dir = join(home, 'docs');
  mkdirSync(dir);
  writeFileSync(join(dir, 'SUMMARY.md'), '# Summary\n\n* [Install](install.md)\n* [Usage](usage.md)\n');
  writeFileSync(join(dir, 'install.md'), '# Install\n\nRun it.\n');
  writeFileSync(join(dir, 'usage.md'), '# Usage\n\nUse it.\n');
  expect((await docsctl(['cr', 'import', spaceId, cr, dir])).exitCode).toBe(0);
  expect((await docsctl(['cr', 'merge', spaceId, cr])).exitCode).toBe(0);
});
afterAll(cleanupTempDirs);

describe('every --format through the built binary', () => {
  const readChecks: Record<string, (stdout: string) => void> = {
    table: (out) => expect(out).toMatch(/^ID\s+TITLE/m),
    tsv: (out) => expect(out).toMatch(new RegExp(`^${spaceId}\tHandbook\t`, 'm')),
    json: (out) => expect((JSON.parse(out) as Array<{ title: string }>).map((s) => s.title)).toEqual(['Handbook']),
    yaml: (out) => expect((parseYaml(out) as Array<{ id: string; title: string }>)[0]).toMatchObject({ id: spaceId, title: 'Handbook' }),
    ids: (out) => expect(out).toBe(spaceId),
  };
  for (const [format, check] of Object.entries(readChecks)) {
    it(`prints a list as ${format}`, async () => {
      const result = await docsctl(['space', 'list', '--format', format]);
      expect(result.stderr).toBe('');
      expect(result.exitCode).toBe(0);
      check(result.stdout);
    });
  }

  it('prints what a write made in each format, and makes it once', async () => {
    for (const format of ['table', 'tsv', 'json', 'yaml', 'ids']) {
      const title = `Made as ${format}`;
      const result = await docsctl(['space', 'create', '--title', title, '--format', format]);
      expect({ format, stderr: result.stderr, exitCode: result.exitCode }).toEqual({ format, stderr: '', exitCode: 0 });
      if (format === 'yaml') expect(parseYaml(result.stdout)).toMatchObject({ object: 'space', title });
      else if (format === 'json') expect(JSON.parse(result.stdout)).toMatchObject({ object: 'space', title });
      else if (format === 'ids') expect(result.stdout).toMatch(/^\w+$/);
      else expect(result.stdout).toContain(title);
    }
    const spaces = JSON.parse((await docsctl(['space', 'list', '--json'])).stdout) as Array<{ title: string }>;
    expect(spaces.map((s) => s.title).sort()).toEqual(['Handbook', 'Made as ids', 'Made as json', 'Made as table', 'Made as tsv', 'Made as yaml']);
  });

  it('prints a page body with --format markdown', async () => {
    const pages = (await docsctl(['page', 'list', spaceId, '--format', 'ids'])).stdout.trim().split('\n');
    const result = await docsctl(['page', 'get', spaceId, pages[0] as string, '--format', 'markdown']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('Run it.');
  });
});

describe('a closed stdout', () => {
  it('ends "page list --format tsv | head -1" quietly with exit 0', async () => {
    const result = await runWithClosedStdout(['page', 'list', spaceId, '--format', 'tsv']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it('ends a list in every format quietly with exit 0', async () => {
    for (const format of ['tsv', 'json', 'yaml', 'ids', 'table']) {
      const result = await runWithClosedStdout(['space', 'list', '--format', format]);
      expect({ format, stderr: result.stderr, code: result.code }).toEqual({ format, stderr: '', code: 0 });
    }
  });
});
