/**
 * The store's entry points: create / open a JsonFileStore (open.ts, all most
 * commands load) and the maintenance operations behind
 * `docsctl store fsck|recover|gc|unlock`.
 *
 * The store
 *
 * See `../shared/notes/store.md` for the research; each module's comment says more. On disk
 * (`commit-file.ts` has the layout):
 *
 * ```
 * <store>/FORMAT  HEAD  CHECKPOINT  LOCK  waiters/  commits/<gen>.json  packs/<name>.pack|.idx  tmp/  quarantine/
 * ```
 *
 * - Tables are persistent B+trees (`btree.ts`) of immutable, content-addressed JSON nodes in
 *   key order, cut by size (split above 4 KiB, merged below 1 KiB): a write copies one leaf and
 *   the inner nodes above it, `scan({prefix, after, limit, reverse})` reads O(log n + k). Keep
 *   anything that grows as one row per item under a common prefix and page with `after`.
 *   Tables of the first release are hash tries (`hamt.ts`), read as they are, rebuilt at their first write.
 * - **Commits** (`commit.ts`). A transaction buffers its writes (`snapshot.ts`); a group of
 *   queued transactions (up to 256) runs in order on the newest state and commits together: one
 *   lock hold, one commit file created by `link()` (compare-and-swap: a writer that loses runs
 *   again), fsynced with `commits/` before anyone is answered. Its new objects travel inline
 *   after the record (one file, one fsync), or past 1 MiB in a pack file of its own. While one
 *   commit is fsynced the next group runs on top of it (two in flight). Transaction ids go into
 *   the root's log, so retries are idempotent. Writers take `LOCK` in ticket order (`waiters/`),
 *   hold it 250 ms slices at most while others wait; dead or silent holders are taken over (`lock.ts`).
 * - **Packs** (`pack-file.ts`), as git's: a file of JSON objects (one per line) and an index
 *   of fixed-width text lines sorted by hash, with a fan-out, so a lookup is one `pread` of a
 *   bucket (into reused memory; the index is read whole after 2,048 lookups) and one of the
 *   object, verified against its hash. Each entry says whether the object may name others:
 *   walks skip page bodies and file data unread. A checkpoint writes each trie in the order a
 *   walk reads it, so a reader first tries the object just after the last one it read (found
 *   when its line hashes to the wanted hash): a whole-site walk makes ~1 lookup in 10.
 * - **Staging** (`stage.ts`, `Store.stage`, `PrepareContext.stage`). An import writes its pages
 *   and files into a pack in its `prepare`, outside the lock, in slices (`stageTree`: the event
 *   loop keeps running, a few MiB on their way to disk); `run` `adopt`s the sealed pack and the
 *   commit names it, so the lock is held for a small commit and a link. A pack nothing adopted is
 *   removed when the operation ends (or by `store gc` after a crash).
 * - **Checkpoints** (`checkpoint.ts`), every 32 commits or 2 MiB inline, beside the next commits:
 *   the objects the newest state reaches out of the commit files into a new pack, staged packs
 *   adopted as they are; base packs merged as `git repack --geometric=2` does (a store keeps
 *   about log2 of its size in packs; a merge of every pack drops what no kept generation reaches,
 *   a mark that never reads bodies); commit files older than the newest 100 dropped; then
 *   `CHECKPOINT` (JSON: the base packs) replaced. Files and fsyncs per commit or checkpoint do
 *   not grow with the objects. A crash anywhere lands on the old or the new state; what it left
 *   half-written is named by nothing and goes with the next checkpoint or `store gc`.
 * - **Reads** (`pack-set.ts`, `json-file-store.ts`). Readers take no lock. An object is looked up
 *   in the base packs `CHECKPOINT` names, then the commits after it (newest first), then loose files
 *   (stores written before packs; their first checkpoint folds them into a pack); when a repack
 *   moved things under a reader it reads `CHECKPOINT` again. Parsed objects stay in an LRU
 *   (20,000 / 64 MiB). `serve` watches `commits/` (`watch: true`): while no event came and
 *   the last check is under 5 ms old, a read costs no system call; others `stat` once per read.
 *   HEAD is a hint rewritten every 16 commits; readers probe past it.
 * - **Damage** is a `StoreError` naming the file (exit 74), never a reset. `docsctl store
 *   fsck|recover|gc|unlock` (`maintenance.ts`, `gc.ts`): fsck verifies recent commits, the packs
 *   they and `CHECKPOINT` name (a torn pack is named) and every object of the newest state;
 *   recover writes the newest intact state into one pack, commits it, and sets damaged files
 *   aside; gc keeps the newest K commits and what they reach in one pack. Both take `dryRun`
 *   (`test/cli/store-dry-run.test.ts`). Stores of earlier versions (1 to 4) are read as they are and
 *   upgraded (FORMAT 5, commit-file.ts) by their first write.
 * - Plain API tokens never reach the disk: the `tokens` table is keyed by their SHA-256.
 */
export * from './open.js';
export { fsck, recover, unlock, type FsckReport, type RecoverReport, type StoreProblem } from './maintenance.js';
export { gc, type GcReport } from './gc.js';
