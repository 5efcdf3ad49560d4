/**
 * The CLI's local mode in one module: the store opened (and upgraded to the current
 * layout once), and a LocalTransport on it that keeps generated files in a directory.
 * One dynamic import for the session instead of four (each a module of its own to
 * resolve and link at start-up).
 */
import { ensureLayout } from '../domain/layout.js';
import { openStore } from '../store/open.js';
import { directoryArtifacts } from './artifacts.js';
import { LocalTransport, type LocalTransportOptions } from './local.js';

export async function openLocalTransport(
  storeDir: string,
  artifactsDir: string,
  options: Omit<LocalTransportOptions, 'store' | 'artifacts'>,
): Promise<LocalTransport> {
  const store = openStore(storeDir);
  // A store written by an earlier release is upgraded once (one row read otherwise).
  await ensureLayout(store);
  return new LocalTransport({ ...options, store, artifacts: directoryArtifacts(artifactsDir) });
}
