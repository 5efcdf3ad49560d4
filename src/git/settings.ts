/**
 * What the git driver takes from the machine it runs on, as data: where mirrors
 * go, how long one git process may run, the environment git processes start from,
 * who commits, and who wants to see each command line (`--debug`). The driver
 * (repo.ts, network.ts) reads nothing else: the entry (the CLI's local mode, or
 * `serve`) builds these once from its environment with `gitSettingsFrom`, and
 * they travel down with the request (`ExecuteEnv.git` → `ctx.git`).
 *
 * | variable | setting | default |
 * |---|---|---|
 * | `DOCSCTL_GIT_CACHE` | `cacheDir` | `$XDG_CACHE_HOME/docsctl/git` (`~/.cache/docsctl/git`) |
 * | `DOCSCTL_GIT_TIMEOUT` | `timeoutMs` (seconds) | 600 |
 * | `GIT_AUTHOR_NAME`/`_EMAIL`, `GIT_COMMITTER_NAME`/`_EMAIL` | `author`, `committer` | `docsctl <docsctl@localhost>` |
 */
import { cacheDir } from '../util/private-dir.js';

export interface GitIdentity {
  name: string;
  email: string;
}

export interface GitSettings {
  /** The mirror cache (private, 0700: repo.ts checks it before use). */
  cacheDir: string;
  /** Longest one git process may run (and stay silent, for fetch and push). */
  timeoutMs: number;
  /** The environment git processes start from; repo.ts drops ambient git configuration from it. */
  env: Readonly<Record<string, string>>;
  /** Author of the commits an export writes, unless the request names one. */
  author: GitIdentity;
  /** Committer of those commits. */
  committer: GitIdentity;
  /** Told each git command line before it runs (credentials never are on one). */
  trace?: ((argv: readonly string[]) => void) | undefined;
}

const DEFAULT_TIMEOUT_MS = 10 * 60 * 1000;
const DEFAULT_IDENTITY: GitIdentity = { name: 'docsctl', email: 'docsctl@localhost' };

/** The settings an environment gives (see the table above). */
export function gitSettingsFrom(env: Readonly<Record<string, string | undefined>>): GitSettings {
  const defined: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) defined[key] = value;
  const seconds = Number(env.DOCSCTL_GIT_TIMEOUT);
  const name = env.GIT_AUTHOR_NAME ?? env.GIT_COMMITTER_NAME ?? DEFAULT_IDENTITY.name;
  const email = env.GIT_AUTHOR_EMAIL ?? env.GIT_COMMITTER_EMAIL ?? DEFAULT_IDENTITY.email;
  return {
    cacheDir: env.DOCSCTL_GIT_CACHE || cacheDir('git', env),
    timeoutMs: Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : DEFAULT_TIMEOUT_MS,
    env: defined,
    author: { name: env.GIT_AUTHOR_NAME ?? name, email: env.GIT_AUTHOR_EMAIL ?? email },
    committer: { name: env.GIT_COMMITTER_NAME ?? name, email: env.GIT_COMMITTER_EMAIL ?? email },
  };
}

/**
 * The settings of this process's environment: what an entry uses when its caller
 * gives none (tests calling handlers directly, `serve` started from code). The
 * one place the git code reads `process.env`.
 */
export function processGitSettings(): GitSettings {
  return gitSettingsFrom(process.env);
}

/** `Name <email>` (the form of `git commit --author`). */
export function formatIdentity(identity: GitIdentity): string {
  return `${identity.name} <${identity.email}>`;
}

/**
 * Parses `Name <email>`; undefined when it is not of that form. Neither part may
 * hold `<`, `>` or a control character (git would cut or refuse them), and the
 * address has no spaces.
 */
export function parseIdentity(text: string): GitIdentity | undefined {
  const match = /^([^<>\u0000-\u001f\u007f]*?)\s*<([^<>\s\u0000-\u001f\u007f]+)>$/.exec(text.trim());
  const name = match?.[1]?.trim();
  if (!match || name === undefined || name === '') return undefined;
  return { name, email: match[2] as string };
}

/** A command line as a shell would take it back: words with spaces or quotes single-quoted (for --debug lines). */
export function shellWords(argv: readonly string[]): string {
  return argv.map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`)).join(' ');
}
