/**
 * Profiles and the settings a command runs with.
 *
 * A profile is either a local store (`store`) or a remote endpoint with a token
 * (`endpoint` + `token`), optionally with a default organization (`org`).
 * Precedence for every setting: flag > environment variable > profile > default.
 *
 * The config file is read directly (fast, on every command); it is written through
 * `conf` (atomic writes, mode 0600 since it can hold tokens), loaded only by
 * `docsctl config` subcommands.
 */
import { chmodSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UsageError } from '../api/errors.js';
import { configDir, defaultStoreDir } from '../util/paths.js';

export interface Profile {
  store?: string;
  endpoint?: string;
  token?: string;
  org?: string;
}

export interface ConfigFile {
  currentProfile?: string;
  profiles?: Record<string, Profile>;
}

export interface GlobalOptions {
  store?: string;
  endpoint?: string;
  token?: string;
  profile?: string;
  org?: string;
}

export interface Settings {
  mode: 'local' | 'remote';
  /** Local store directory (local mode). */
  storeDir: string;
  endpoint: string | undefined;
  token: string | undefined;
  /** Default organization id for commands inside an organization. */
  org: string | undefined;
  profileName: string | undefined;
}

export function configFilePath(env: NodeJS.ProcessEnv): string {
  return join(configDir(env), 'config.json');
}

export function readConfig(env: NodeJS.ProcessEnv): ConfigFile {
  const path = configFilePath(env);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new UsageError(`Cannot read the config file ${path}: ${(error as Error).message}`);
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
    return parsed as ConfigFile;
  } catch (error) {
    throw new UsageError(`The config file ${path} is not valid JSON (${(error as Error).message})`, {
      hint: `Fix or delete it; profiles are recreated with "docsctl config set".`,
    });
  }
}

export function resolveSettings(options: GlobalOptions, env: NodeJS.ProcessEnv, config: ConfigFile): Settings {
  const profileName = options.profile ?? env.DOCSCTL_PROFILE ?? config.currentProfile;
  const profiles = config.profiles ?? {};
  let profile: Profile = {};
  if (profileName !== undefined) {
    const found = profiles[profileName];
    if (!found && (options.profile !== undefined || env.DOCSCTL_PROFILE !== undefined)) {
      const known = Object.keys(profiles);
      throw new UsageError(`Unknown profile "${profileName}"`, {
        hint: known.length ? `Known profiles: ${known.join(', ')}` : 'Create one with "docsctl config set NAME ..."',
      });
    }
    profile = found ?? {};
  }
  const explicitStore = options.store ?? env.DOCSCTL_STORE;
  const endpoint = options.endpoint ?? env.DOCSCTL_ENDPOINT ?? (explicitStore ? undefined : profile.endpoint);
  const storeDir = explicitStore ?? profile.store ?? defaultStoreDir(env);
  // A profile's token is for its own endpoint or store (`auth login` saves a local store's token too): another has other users.
  const token = options.token ?? env.DOCSCTL_TOKEN ?? (targetsProfile(profile, endpoint, storeDir, env) ? profile.token : undefined);
  return {
    mode: endpoint ? 'remote' : 'local',
    storeDir,
    endpoint: endpoint || undefined,
    token: token || undefined,
    // A profile's organization lives in the profile's store or endpoint: another one has other ids.
    org: options.org ?? env.DOCSCTL_ORG ?? (targetsProfile(profile, endpoint, storeDir, env) ? profile.org : undefined),
    profileName,
  };
}

/** True when the command talks to the profile's own store or endpoint (a profile with neither is the default store). */
function targetsProfile(profile: Profile, endpoint: string | undefined, storeDir: string, env: NodeJS.ProcessEnv): boolean {
  if (profile.endpoint !== undefined) return endpoint === profile.endpoint;
  if (endpoint) return false;
  return resolve(storeDir) === resolve(profile.store ?? defaultStoreDir(env));
}

/**
 * The store directory a profile keeps: absolute, so the profile means the same store
 * from any working directory (`config set scratch --store ./scratch-store`).
 */
export function profileStorePath(store: string): string {
  return resolve(store);
}

/** Writes the config through conf (atomic, 0600). Loaded lazily: only `docsctl config` needs it. */
export async function updateConfig(env: NodeJS.ProcessEnv, change: (config: ConfigFile) => ConfigFile): Promise<string> {
  const dir = configDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const { default: Conf } = await import('conf');
  const conf = new Conf<ConfigFile>({
    projectName: 'docsctl',
    cwd: dir,
    configName: 'config',
    configFileMode: 0o600,
  });
  const next = change(readConfig(env));
  conf.store = next;
  chmodSync(conf.path, 0o600);
  return conf.path;
}
