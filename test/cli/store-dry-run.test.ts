/**
 * `store gc --dry-run` and `store recover --dry-run`: they report what gc would
 * remove and what recover would set aside (counts and bytes) and leave every file
 * of the store byte-identical; the real command then does what the dry run said.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync, truncateSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { runCli } from '../helpers/cli.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

afterAll(cleanupTempDirs);

/** Every file of the store with the hash of its bytes and its modification time. */
function digest(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    out[file] = `${createHash('sha256').update(readFileSync(file)).digest('hex')} ${statSync(file).mtimeMs}`;
  }
  return out;
}

/**
 * A store after `edits` commits, each replacing an object (checkpointed at once, so the
 * replaced ones are loose files no commit reaches); every file made two hours old (gc
 * spares younger ones).
 */
async function editedStore(edits: number) {
  const store = join(tempDir('docsctl-store-dry-'), 'store');
  const env = { DOCSCTL_STORE: store };
  expect((await runCli(['init', '--org', 'Acme'], { env })).exitCode).toBe(0);
  const writer = openStore(store, { checkpointEvery: 1 });
  for (let i = 0; i < edits; i += 1) await writer.transact((tx) => tx.put('items', 'page', { body: tx.putObject({ text: `version ${i}` }) }));
  await writer.close();
  const old = new Date(Date.now() - 2 * 3_600_000);
  for (const entry of readdirSync(store, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) utimesSync(join(entry.parentPath, entry.name), old, old);
  }
  return { store, env };
}

describe('store gc --dry-run', () => {
  it('counts the commits, objects and bytes gc would remove, changes no file, and gc then removes exactly that', async () => {
    const { store, env } = await editedStore(6);
    const before = digest(store);
    const dry = await runCli(['store', 'gc', '--keep', '2', '--dry-run', '--json'], { env });
    expect(dry.exitCode, dry.stderr).toBe(0);
    const planned = JSON.parse(dry.stdout) as { removedCommits: number; removedObjects: number; removedTemps: number; removedBytes: number; dryRun: boolean };
    expect(planned.dryRun).toBe(true);
    expect(planned.removedCommits).toBeGreaterThan(3);
    expect(planned.removedObjects).toBeGreaterThan(0);
    expect(planned.removedBytes).toBeGreaterThan(0);
    expect(dry.stderr).toMatch(/^dry run: gc would remove \d+ commit\(s\), \d+ object\(s\), 0 temporary file\(s\) \(\d+ bytes\); nothing was removed\n$/);
    expect(digest(store)).toEqual(before);

    const real = await runCli(['store', 'gc', '--keep', '2', '--json'], { env });
    expect(real.exitCode, real.stderr).toBe(0);
    const { dryRun: _, ...counts } = planned;
    expect(JSON.parse(real.stdout)).toEqual(counts);
    expect((await runCli(['store', 'fsck'], { env })).exitCode).toBe(0);
  });
});

describe('store recover --dry-run', () => {
  it('on an intact store says recover would change nothing', async () => {
    const { store, env } = await editedStore(1);
    const before = digest(store);
    const dry = await runCli(['store', 'recover', '--dry-run'], { env });
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.stdout).toBe('');
    expect(dry.stderr).toMatch(/^dry run: the store is intact at generation \d+; recover would change nothing\n$/);
    expect(digest(store)).toEqual(before);
  });

  it('names the damaged file it would set aside and its bytes, asks nothing, changes no file; recover then does it', async () => {
    const { store, env } = await editedStore(3);
    const commits = readdirSync(join(store, 'commits')).sort();
    const newest = join(store, 'commits', commits.at(-1) as string);
    truncateSync(newest, Math.floor(statSync(newest).size / 2));
    const size = statSync(newest).size;
    const before = digest(store);
    const dry = await runCli(['store', 'recover', '--dry-run', '--json'], { env });
    expect(dry.exitCode, dry.stderr).toBe(0);
    const planned = JSON.parse(dry.stdout) as { fromGen: number; toGen: number; gen: number; quarantined: string[]; quarantinedBytes: number };
    expect(planned).toMatchObject({ toGen: planned.fromGen - 1, gen: planned.fromGen, quarantined: [newest], quarantinedBytes: size, dryRun: true });
    const text = await runCli(['store', 'recover', '--dry-run'], { env });
    expect(text.stdout).toBe(`quarantine ${newest}\n`);
    expect(text.stderr).toBe(
      `dry run: recover would restore generation ${planned.toGen} as generation ${planned.gen} and set aside 1 file(s) (${size} bytes); nothing was changed\n`,
    );
    expect(digest(store)).toEqual(before);

    const real = await runCli(['store', 'recover', '--yes', '--json'], { env });
    expect(real.exitCode, real.stderr).toBe(0);
    expect(JSON.parse(real.stdout)).toMatchObject({ fromGen: planned.fromGen, toGen: planned.toGen, gen: planned.gen, quarantined: [expect.stringContaining('quarantine')] });
  });
});
