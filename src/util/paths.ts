/** Per-user directories (XDG on Linux, the platform's conventions elsewhere). */
import { homedir } from 'node:os';
import { join } from 'node:path';

export function dataDir(env: NodeJS.ProcessEnv): string {
  if (process.platform === 'win32') return join(env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'), 'docsctl');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'docsctl');
  return join(env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), 'docsctl');
}

export function configDir(env: NodeJS.ProcessEnv): string {
  if (env.DOCSCTL_CONFIG_DIR) return env.DOCSCTL_CONFIG_DIR;
  if (process.platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'docsctl');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Preferences', 'docsctl');
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'docsctl');
}

export function defaultStoreDir(env: NodeJS.ProcessEnv): string {
  return join(dataDir(env), 'store');
}

/** Per-user cache (generated files such as PDF exports). */
export function cacheDir(env: NodeJS.ProcessEnv): string {
  if (process.platform === 'win32') return join(env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'), 'docsctl', 'cache');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Caches', 'docsctl');
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'docsctl');
}
