/**
 * Repository URLs and the credentials they may carry.
 *
 * A URL given to `git import|export` may hold `user:password@` (GitBook's API
 * accepts basic-auth credentials in it). They are never stored, printed, logged
 * or put on a git command line: `parseRepoUrl` splits them off, `authEnv` hands
 * them to git through `GIT_CONFIG_*` environment variables (an
 * `http.extraHeader`, git ≥ 2.31), and `scrubber` removes them (and any
 * `scheme://user:pass@` at all) from text that comes back from git.
 *
 * Accepted forms: `https://…`, `http://…`, `ssh://…`, scp-like `user@host:path`,
 * `file://…` and a plain local path (absolute or relative). Everything else is
 * refused before git sees it (issue 8 §1): anything starting with `-` (git would
 * read it as an option: `--upload-pack=…`), remote helpers (`ext::sh -c …`,
 * `fd::17`), `git://` and other schemes, control characters, and hosts or users
 * starting with `-` (ssh would read them as options). Whether a path, a private
 * address or plain http may be reached is the caller's InputPolicy (domain/git/reach.ts).
 */
import { resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { redactUrls } from '../util/redact.js';

export type RepoUrlKind = 'file' | 'http' | 'ssh' | 'scp' | 'path';

export interface RepoUrl {
  kind: RepoUrlKind;
  /** What git is given: no password anywhere; a local path for `file://` URLs. */
  gitUrl: string;
  /** The URL without credentials, query or fragment: what is stored and shown. */
  redacted: string;
  host?: string;
  /** Basic-auth credentials (http(s) only). Never store or print them. */
  username?: string;
  password?: string;
}

const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;
const SCP_LIKE = /^(?:([^@/:\s]+)@)?([^/:\s]+):(?!\/\/)(.+)$/;


const SCHEMES_HINT = 'use https://, ssh://, user@host:path, file:// or a local path';

/** A repository URL git must never see (`-…`, `ext::`, a control character…). */
export class RepoUrlError extends TypeError {}

function refuse(raw: string, why: string): never {
  throw new RepoUrlError(`Invalid repository URL "${redactUrls(raw)}": ${why}`);
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** Splits a repository URL into what git gets, what is stored, and the credentials. */
export function parseRepoUrl(input: string): RepoUrl {
  const raw = input.trim();
  if (raw === '') throw new RepoUrlError('Empty repository URL: ' + SCHEMES_HINT);
  // Control characters would end a config value or a line of git's protocol.
  if (/[\u0000-\u001f\u007f]/.test(raw)) refuse(raw.replace(/[\u0000-\u001f\u007f]/g, '?'), 'it contains control characters');
  if (raw.startsWith('-')) refuse(raw, `it starts with "-" (git would read it as an option); ${SCHEMES_HINT}`);
  // git runs `git-remote-<name>` for `<name>::<address>` (ext:: runs a shell command, fd:: reads a descriptor).
  if (/^[a-z0-9._~+-]+::/i.test(raw)) refuse(raw, `remote helpers ("transport::address") are not allowed; ${SCHEMES_HINT}`);
  const scheme = SCHEME.exec(raw)?.[1]?.toLowerCase();
  if (scheme !== undefined) {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      refuse(raw, `not a valid URL; ${SCHEMES_HINT}`);
    }
    if (url.hostname.startsWith('-') || url.username.startsWith('-')) refuse(raw, 'a host or user must not start with "-"');
    if (scheme === 'file') {
      let path: string;
      try {
        path = fileURLToPath(url);
      } catch (error) {
        refuse(raw, `not a local file URL (${(error as Error).message}); ${SCHEMES_HINT}`);
      }
      const clean = new URL(url.href);
      clean.username = '';
      clean.password = '';
      return { kind: 'file', gitUrl: path, redacted: clean.href };
    }
    const username = url.username !== '' ? decode(url.username) : undefined;
    const password = url.password !== '' ? decode(url.password) : undefined;
    const clean = new URL(url.href);
    clean.username = '';
    clean.password = '';
    clean.search = '';
    clean.hash = '';
    const redacted = clean.href;
    if (scheme === 'http' || scheme === 'https') {
      return {
        kind: 'http',
        gitUrl: redacted,
        redacted,
        host: url.hostname,
        ...(username !== undefined ? { username } : {}),
        ...(password !== undefined ? { password } : {}),
      };
    }
    if (scheme === 'ssh' || scheme === 'git+ssh' || scheme === 'ssh+git') {
      // The ssh user is not a secret (git@…); a password cannot be given to ssh this way.
      const withUser = new URL(clean.href);
      if (username !== undefined) withUser.username = url.username;
      return { kind: 'ssh', gitUrl: withUser.href, redacted, host: url.hostname };
    }
    throw new RepoUrlError(`Unsupported repository URL scheme "${scheme}://": ${SCHEMES_HINT}`);
  }
  const scp = SCP_LIKE.exec(raw);
  if (scp && !raw.startsWith('/') && !raw.startsWith('.')) {
    const [, user, host, repoPath] = scp as unknown as [string, string | undefined, string, string];
    if (host.startsWith('-') || user?.startsWith('-')) refuse(raw, 'a host or user must not start with "-"');
    if (repoPath.startsWith('-')) refuse(raw, 'a repository path must not start with "-"');
    return { kind: 'scp', gitUrl: raw, redacted: raw, host };
  }
  // Absolute, so git never reads it as an option or a `name::` helper, whatever the working directory.
  return { kind: 'path', gitUrl: resolvePath(raw), redacted: raw };
}

/**
 * Environment that gives git the URL's credentials without a command line
 * (visible in `ps`) or a config file: an `Authorization: Basic` header for
 * http(s). Empty when the URL carries none.
 */
export function authEnv(repo: RepoUrl): Record<string, string> {
  if (repo.kind !== 'http' || (repo.username === undefined && repo.password === undefined)) return {};
  const token = Buffer.from(`${repo.username ?? ''}:${repo.password ?? ''}`, 'utf8').toString('base64');
  return {
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: 'http.extraHeader',
    GIT_CONFIG_VALUE_0: `Authorization: Basic ${token}`,
  };
}

/** A function that removes every trace of the URL's credentials (and of any URL's userinfo) from text. */
export function scrubber(repo: RepoUrl): (text: string) => string {
  const secrets: string[] = [];
  if (repo.password !== undefined && repo.password.length >= 3) secrets.push(repo.password, encodeURIComponent(repo.password));
  if (repo.username !== undefined && repo.password !== undefined) {
    secrets.push(Buffer.from(`${repo.username}:${repo.password}`, 'utf8').toString('base64'));
  }
  return (text: string) => {
    let out = redactUrls(text);
    for (const secret of secrets) out = out.split(secret).join('***');
    return out;
  };
}

/** `owner/name` of a repository (the last two path segments, `.git` dropped; one segment for local paths). */
export function repoNameOf(repo: RepoUrl): string {
  const path =
    repo.kind === 'scp' ? (SCP_LIKE.exec(repo.redacted)?.[3] ?? '') : repo.kind === 'path' || repo.kind === 'file' ? repo.gitUrl : new URL(repo.redacted).pathname;
  const segments = path
    .replace(/\\/g, '/')
    .split('/')
    .filter((segment) => segment !== '' && segment !== '.');
  const last = segments.length > 0 ? segments[segments.length - 1] : undefined;
  if (last !== undefined) segments[segments.length - 1] = last.replace(/\.git$/i, '');
  const keep = repo.kind === 'path' || repo.kind === 'file' ? 1 : 2;
  return segments.slice(-keep).map(decode).join('/');
}

/** `github` / `gitlab` when the host says so; undefined otherwise. */
export function providerOf(repo: RepoUrl): 'github' | 'gitlab' | undefined {
  const host = repo.host?.toLowerCase();
  if (host === undefined) return undefined;
  if (host === 'github.com' || host.endsWith('.github.com') || host.startsWith('github.')) return 'github';
  if (host === 'gitlab.com' || host.endsWith('.gitlab.com') || host.startsWith('gitlab.')) return 'gitlab';
  return undefined;
}
