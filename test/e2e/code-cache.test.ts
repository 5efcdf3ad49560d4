/**
 * The bundle's V8 code caches (bin/bundle-loader.js, written by scripts/code-cache.mjs) speed
 * start-up and never change what a command does: through copies of the built install whose
 * caches another Node would see (no directory for its V8), V8 refuses (damaged, of another
 * chunk, other V8 flags) or that has no bundle at all, in both modes.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BinaryMode, describeInBothModes } from '../helpers/binary.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const recordScripts = fileURLToPath(new URL('../helpers/record-scripts.cjs', import.meta.url));

afterAll(cleanupTempDirs);

/** A copy of the built install (bin/, dist/, package.json; node_modules linked): returns its root. */
function copyInstall(): string {
  const dir = tempDir('docsctl-install-');
  for (const name of ['bin', 'dist', 'package.json']) cpSync(join(root, name), join(dir, name), { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

/** The code cache directories of an install (one per V8 the build ran on). */
function cacheDirs(install: string): string[] {
  return readdirSync(join(install, 'dist/code-cache')).map((name) => join(install, 'dist/code-cache', name));
}

describeInBothModes('code caches of the bundle', (context) => {
  let cli: BinaryMode;
  let space: string;
  let site: string;
  /** What the normal install prints for each command of `commands`. */
  const expected = new Map<string, string>();
  const commands = (): string[][] => [
    ['space', 'get', space, '--json'],
    ['site', 'tree', site],
    ['--help'],
  ];

  /**
   * Runs `args` with the bin of `install` (the checkout's when omitted), in this mode; `caches`:
   * each chunk's code cache as V8 took it ('used', 'refused', 'none'), counted.
   */
  async function runWith(install: string, args: readonly string[], nodeArgs: readonly string[] = []) {
    const log = join(tempDir('docsctl-scripts-'), 'scripts.log');
    writeFileSync(log, '');
    const result = await execa('node', [...nodeArgs, '--require', recordScripts, join(install, 'bin/docsctl.js'), ...args], {
      env: { ...cli.env, DOCSCTL_LOADED_LOG: log },
      extendEnv: false,
      reject: false,
      timeout: 120_000,
    });
    const caches: Record<string, number> = {};
    for (const line of readFileSync(log, 'utf8').split('\n').filter(Boolean)) {
      const fate = { false: 'used', true: 'refused', undefined: 'none' }[line.split('\t')[1] ?? ''] ?? line;
      caches[fate] = (caches[fate] ?? 0) + 1;
    }
    return { answer: { stdout: result.stdout, stderr: result.stderr, exitCode: result.exitCode }, caches };
  }

  /** Every command prints what the normal install prints, exit 0, nothing on stderr, its chunks' caches all `fate`. */
  async function expectSameAnswers(install: string, fate: 'used' | 'refused' | 'none', nodeArgs: readonly string[] = []) {
    for (const args of commands()) {
      const { answer, caches } = await runWith(install, args, nodeArgs);
      expect(answer, args.join(' ')).toEqual({ stdout: expected.get(args.join(' ')), stderr: '', exitCode: 0 });
      expect(Object.keys(caches), args.join(' ')).toEqual([fate]);
    }
  }

  beforeAll(async () => {
    ({ cli } = context);
    space = await cli.ok(['space', 'create', '--title', 'Cached handbook', '--format', 'ids']);
    site = await cli.ok(['site', 'create', '--title', 'Cached help', '--space', space, '--format', 'ids']);
    for (const args of commands()) {
      const { answer } = await runWith(root, args);
      expect(answer.exitCode, answer.stderr).toBe(0);
      expected.set(args.join(' '), answer.stdout);
    }
    // What those answers hold (so that equal answers below are right ones).
    expect(JSON.parse(expected.get(`space get ${space} --json`) ?? '')).toMatchObject({ id: space, title: 'Cached handbook' });
    expect(expected.get(`site tree ${site}`)).toContain('Cached handbook');
    expect(expected.get('--help')).toMatch(/^Usage: docsctl /);
  });

  it('the install as built runs each chunk from its cache', async () => {
    await expectSameAnswers(root, 'used');
  });

  it("another Node's install (no cache for this V8) compiles and answers the same", async () => {
    const install = copyInstall();
    rmSync(join(install, 'dist/code-cache'), { recursive: true });
    await expectSameAnswers(install, 'none');
  });

  it('caches V8 refuses (damaged, truncated, of another chunk) are compiled over and answer the same', async () => {
    const install = copyInstall();
    for (const dir of cacheDirs(install)) {
      const files = readdirSync(dir).sort();
      const bytes = files.map((file) => readFileSync(join(dir, file)));
      files.forEach((file, i) => {
        const other = bytes[(i + 1) % bytes.length] as Buffer;
        // A third each: garbage, cut in half, another chunk's cache.
        const damaged = i % 3 === 0 ? Buffer.from('not a code cache') : i % 3 === 1 ? (bytes[i] as Buffer).subarray(0, (bytes[i] as Buffer).length >> 1) : other;
        writeFileSync(join(dir, file), damaged);
      });
    }
    await expectSameAnswers(install, 'refused');
  });

  it('other V8 flags (NODE_OPTIONS in CI) make V8 refuse every cache: same answers', async () => {
    await expectSameAnswers(root, 'refused', ['--max-old-space-size=300']);
  });

  it('an install without its bundle says so in one line, exit 1', async () => {
    const install = copyInstall();
    rmSync(join(install, 'dist/cli.cjs'));
    const { answer } = await runWith(install, ['space', 'list']);
    expect(answer).toEqual({ stdout: '', stderr: 'error: docsctl is not built (dist/cli.cjs is missing); run "npm install" or "npm run build" in its directory', exitCode: 1 });
  });
});

describe('code caches as built', () => {
  it('the build wrote a cache for this V8 beside the bundle', () => {
    const name = `v8-${process.versions.v8}-${process.arch}`;
    expect(readdirSync(join(root, 'dist/code-cache'))).toEqual([name]);
    expect(readdirSync(join(root, 'dist/code-cache', name))).toContain('cli.cjs.bin');
  });

  it('the build refuses no cache it wrote: each compiles back with its chunk (the wrapper bin/bundle-loader.js uses)', () => {
    // In a process of its own: the caches are for a process with no V8 flags, as a user's.
    const script = `
      const vm = require('node:vm');
      const { readFileSync, readdirSync } = require('node:fs');
      const { join } = require('node:path');
      const { codeCacheDir, wrapChunk } = require(${JSON.stringify(join(root, 'bin/bundle-loader.js'))});
      const dist = ${JSON.stringify(join(root, 'dist'))};
      const dir = codeCacheDir(dist);
      const files = readdirSync(dir).map((name) => name.replace(/\\.bin$/, ''));
      const refused = files.filter((name) => {
        const file = name === 'cli.cjs' ? join(dist, name) : join(dist, 'chunks', name);
        const script = new vm.Script(wrapChunk(readFileSync(file, 'utf8')), { filename: file, cachedData: readFileSync(join(dir, name + '.bin')) });
        return script.cachedDataRejected !== false;
      });
      process.stdout.write(JSON.stringify({ files: files.length, refused }));
    `;
    const { files, refused } = JSON.parse(execFileSync('node', ['-e', script], { encoding: 'utf8' })) as { files: number; refused: string[] };
    expect(refused).toEqual([]);
    expect(files).toBeGreaterThan(10);
  });
});
