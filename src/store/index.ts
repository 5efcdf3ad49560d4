/**
 * The store's entry points: create / open a JsonFileStore (open.ts, all most
 * commands load) and the maintenance operations behind
 * `docsctl store fsck|recover|gc|unlock`.
 */
export * from './open.js';
export { fsck, recover, unlock, type FsckReport, type RecoverReport, type StoreProblem } from './maintenance.js';
export { gc, type GcReport } from './gc.js';
