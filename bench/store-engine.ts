/**
 * The store engine's benchmark (bundled and run by bench/run.mjs --store-engine):
 *
 *   store-engine creates <dir> <preload> <count> <lanes>
 *       A store holding one organization with <preload> spaces, then <count> space
 *       creates from <lanes> concurrent callers (as serve does: one process, grouped
 *       commits). Each create writes what a space create writes: the space row, the
 *       organization's list row (one row per item) and its count row.
 *       Prints {perSecond, bytesPerCreate, commits}.
 *   store-engine busy <dir> <ms>     keeps 16 creates in flight for <ms> (serve under load)
 *   store-engine one <dir>           one create from a separate process; prints its wait in ms
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createStore, openStore } from '../src/store/index.js';
import type { StoreWriter } from '../src/store/types.js';

const [mode, dir, a, b, c] = process.argv.slice(2);
const ORG = 'org-bench';
let counter = 0;

function space(tx: StoreWriter, label: string): void {
  counter += 1;
  const id = `${label}-${process.pid}-${counter}-${Math.random().toString(36).slice(2, 8)}`;
  tx.put('spaces', id, {
    id,
    title: `Space ${label} ${counter}`,
    organization: ORG,
    visibility: 'private',
    createdAt: new Date().toISOString(),
    urls: { app: `https://app.example.com/s/${id}`, published: null },
    emoji: null,
    parent: null,
  });
  tx.put('orgSpaces', `${ORG}/${String(Date.now()).padStart(15, '0')}-${id}`, id);
  tx.put('orgSpaceCount', ORG, (tx.get<number>('orgSpaceCount', ORG) ?? 0) + 1);
}

function bytesUnder(root: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(root, { withFileTypes: true })) {
    const file = path.join(root, entry.name);
    total += entry.isDirectory() ? bytesUnder(file) : fs.statSync(file).size;
  }
  return total;
}

async function main(): Promise<void> {
  if (!dir) throw new Error('usage: store-engine <mode> <dir> …');
  if (mode === 'creates') {
    const preload = Number(a);
    const count = Number(b);
    const lanes = Number(c);
    // Filled as a long-lived store would be: checkpointed (pack.ts), so the measured creates
    // do not pay for packing the whole preload at their first checkpoint.
    const fill = createStore(dir, { durable: false, checkpointEvery: 1 });
    for (let done = 0; done < preload; done += 500) {
      await fill.transact((tx) => {
        for (let i = done; i < Math.min(preload, done + 500); i += 1) space(tx, 'pre');
      });
    }
    await fill.close();
    const store = openStore(dir);
    // The whole store: since packs (format 3) a commit's objects are in its commit file or a pack, and objects/ may not exist.
    const bytesBefore = bytesUnder(dir);
    const gensBefore = store.read().gen;
    let started = 0;
    const t0 = process.hrtime.bigint();
    const lane = async () => {
      while (started < count) {
        started += 1;
        await store.transact((tx) => space(tx, 'new'));
      }
    };
    await Promise.all(Array.from({ length: lanes }, lane));
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    const commits = store.read().gen - gensBefore;
    await store.close();
    const written = bytesUnder(dir) - bytesBefore;
    process.stdout.write(`${JSON.stringify({ perSecond: count / seconds, bytesPerCreate: written / count, commits })}\n`);
  } else if (mode === 'busy') {
    const until = Date.now() + Number(a);
    const store = openStore(dir);
    const lane = async () => {
      while (Date.now() < until) await store.transact((tx) => space(tx, 'busy'));
    };
    process.stdout.write('busy\n');
    await Promise.all(Array.from({ length: 16 }, lane));
    await store.close();
  } else if (mode === 'one') {
    const store = openStore(dir);
    const t0 = Date.now();
    await store.transact((tx) => space(tx, 'one'));
    process.stdout.write(`${Date.now() - t0}\n`);
    await store.close();
  } else {
    throw new Error(`unknown mode ${String(mode)}`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
