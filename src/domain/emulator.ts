/**
 * Snapshots of the whole store and the reset to the seed (`serve` as a CI emulator; routes in
 * src/api/routes/emulator.ts).
 *
 * The file store is content-addressed: a state is the root hash of each table, so a snapshot
 * is one row of a few dozen hashes (`emulatorSnapshots`, keyed `n/<name>`; `@seed` is the
 * state `serve --seed` started from) and a restore is one commit that makes every table but
 * this one those roots again (`StoreWriter.replaceState`), whatever the store holds: O(1) in
 * its size, not a copy. The row names the roots, so everything they reach stays reachable for
 * checkpoints and `store gc` while the snapshot exists.
 *
 * Both run in a commit of their own (`committingAlone`): a save sees exactly the newest state,
 * and a restore goes between two writes, never inside a group, under the store's lock like any
 * write, so concurrent requests and other processes see the state before or after it.
 * Caches that depend on the store follow by themselves: `serve`'s answers are kept per
 * generation, and its token cache by the `tokens`/`users` roots, which a restore changes.
 */
import { ApiError, notFound } from '../api/errors.js';
import type * as routes from '../api/routes/emulator.js';
import type { StoreReader, StoreWriter } from '../store/types.js';
import { type Handler, Reply, committingAlone, implementer } from './handler.js';
import { paginate, rowsOf } from './pagination.js';

export const SNAPSHOTS_TABLE = 'emulatorSnapshots';
/** The state `serve --seed` started from (what `serve reset` goes back to). */
export const SEED_SNAPSHOT = '@seed';
const NAMED = 'n/';
const COUNT = 'count';

interface SnapshotRow {
  name: string;
  createdAt: string;
  /** The generation it was taken at (for messages: how far back a restore goes). */
  gen: number;
  /** Table name → root hash: the whole state but this table. */
  tables: Record<string, string>;
}

export interface SnapshotView {
  object: 'snapshot';
  name: string;
  createdAt: string;
}

const view = (row: SnapshotRow): SnapshotView => ({ object: 'snapshot', name: row.name, createdAt: row.createdAt });
const keyOf = (name: string) => (name === SEED_SNAPSHOT ? name : NAMED + name);

function wholeState(tx: StoreWriter): Required<Pick<StoreWriter, 'stateRoots' | 'replaceState'>> {
  if (tx.stateRoots === undefined || tx.replaceState === undefined) {
    throw new ApiError(501, 'This store cannot take snapshots (a content-addressed file store can: docsctl serve, or --store DIR)');
  }
  return { stateRoots: tx.stateRoots.bind(tx), replaceState: tx.replaceState.bind(tx) };
}

/** Saves the state `tx` sees as `name` (replacing a snapshot of that name); true when it is new. Run it alone. */
export function saveSnapshot(tx: StoreWriter, name: string, now: string): boolean {
  const tables = wholeState(tx).stateRoots();
  delete tables[SNAPSHOTS_TABLE];
  const key = keyOf(name);
  const fresh = !tx.has(SNAPSHOTS_TABLE, key);
  const row: SnapshotRow = { name, createdAt: now, gen: tx.gen, tables };
  tx.put(SNAPSHOTS_TABLE, key, row);
  if (fresh && key !== SEED_SNAPSHOT) tx.put(SNAPSHOTS_TABLE, COUNT, snapshotCount(tx) + 1);
  return fresh;
}

/** Makes the store the state saved as `name` (the snapshots stay as they are). Run it alone. */
export function restoreSnapshot(tx: StoreWriter, name: string, missing: () => ApiError): SnapshotView {
  const row = tx.get<SnapshotRow>(SNAPSHOTS_TABLE, keyOf(name));
  if (row === undefined) throw missing();
  wholeState(tx).replaceState(row.tables, [SNAPSHOTS_TABLE]);
  return view(row);
}

const snapshotCount = (reader: StoreReader) => reader.get<number>(SNAPSHOTS_TABLE, COUNT) ?? 0;

const noSnapshot = (name: string) => () => notFound(`No snapshot named "${name}": "docsctl serve snapshot list" shows the saved ones`);

const on = implementer<typeof routes>();

export const emulatorHandlers: Record<string, Handler> = {
  ...committingAlone(
    on('saveEmulatorSnapshot', (ctx, { body }) => {
      const fresh = saveSnapshot(ctx.tx, body.name, ctx.clock().toISOString());
      const saved = view(ctx.tx.get<SnapshotRow>(SNAPSHOTS_TABLE, keyOf(body.name)) as SnapshotRow);
      return fresh ? saved : new Reply(200, saved);
    }),
  ),

  ...on('listEmulatorSnapshots', (ctx, { query }) =>
    paginate(rowsOf<SnapshotRow>(ctx.tx, SNAPSHOTS_TABLE, NAMED), query, (row) => view(row), snapshotCount(ctx.tx)),
  ),

  ...committingAlone(on('restoreEmulatorSnapshot', (ctx, { params }) => restoreSnapshot(ctx.tx, params.snapshotName, noSnapshot(params.snapshotName)))),

  ...on('deleteEmulatorSnapshot', (ctx, { params }) => {
    if (!ctx.tx.delete(SNAPSHOTS_TABLE, keyOf(params.snapshotName))) throw noSnapshot(params.snapshotName)();
    ctx.tx.put(SNAPSHOTS_TABLE, COUNT, Math.max(0, snapshotCount(ctx.tx) - 1));
    return undefined;
  }),

  ...committingAlone(
    on('resetEmulator', (ctx) =>
      restoreSnapshot(ctx.tx, SEED_SNAPSHOT, () =>
        notFound('This store has no seed to go back to: start it with "docsctl serve --seed FILE" (or restore a snapshot by name)'),
      ),
    ),
  ),
};
