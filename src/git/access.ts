/**
 * The `-c` options every git process runs with for one repository (issue 8 §1),
 * from what the caller may reach there, decided before any git runs.
 *
 * What a request may reach is the domain's decision (its InputPolicy, checked in
 * domain/git/reach.ts); it comes here as data, a `RepoReach`: whether the policy
 * restricts requests (serve), the checked real path of a local repository, the
 * checked addresses of an http(s) host. From it:
 * - `protocol.allow=never` plus the one transport the URL uses (https, ssh, file;
 *   http only for an http URL), so nothing in the repository (a submodule, a
 *   redirect, an alternate) can make git use another one;
 * - with checked addresses, no http redirects (a hop could lead to an address that
 *   was never checked) and the host pinned to them (`http.curloptResolve`: no
 *   second DNS answer);
 * - when restricted, no credential helper (the server user's stored credentials
 *   are not the caller's);
 * - hooks and fsmonitor off (SAFE_CONFIG): a repository's config never runs code.
 * `GIT_PROTOCOL_FROM_USER=0` (repo.ts) stops git from using the user-only
 * protocols a configuration might allow.
 */
import { isIP } from 'node:net';
import type { RepoUrl } from './credentials.js';

/** What the caller may reach of one repository, as the domain's policy decided it. */
export interface RepoReach {
  /** Requests are restricted (serve): git gets no credential helper. */
  restricted: boolean;
  /** A local repository (file:// or a path): its real path, checked; what git is given. */
  localPath?: string | undefined;
  /** An http(s) host whose addresses were checked: git connects to these only, and follows no redirect. */
  addresses?: readonly string[] | undefined;
}

export interface AuthorizedRepo {
  repo: RepoUrl;
  /** `key=value` pairs, each given to git as `-c key=value` before the subcommand. */
  config: string[];
}

/** Options that hold for every git process docsctl runs, whatever the repository. */
export const SAFE_CONFIG: readonly string[] = ['core.hooksPath=/dev/null', 'core.fsmonitor=false', 'protocol.allow=never'];

function defaultPort(url: URL): string {
  if (url.port !== '') return url.port;
  return url.protocol === 'http:' ? '80' : url.protocol === 'https:' ? '443' : '22';
}

/** The repository as git may use it: its `-c` options from `reach`. */
export function authorizeRepo(repo: RepoUrl, reach: RepoReach): AuthorizedRepo {
  const config: string[] = [];
  if (reach.restricted) config.push('credential.helper=');
  if (repo.kind === 'file' || repo.kind === 'path') {
    config.push('protocol.file.allow=always');
    return { repo: { ...repo, gitUrl: reach.localPath ?? repo.gitUrl }, config };
  }
  if (repo.kind === 'http') {
    const url = new URL(repo.gitUrl);
    config.push('protocol.https.allow=always');
    if (url.protocol === 'http:') config.push('protocol.http.allow=always');
    if (reach.addresses !== undefined) {
      const bare = (repo.host ?? '').replace(/^\[|\]$/g, '');
      if (isIP(bare) === 0) {
        const pinned = reach.addresses.map((address) => (isIP(address) === 6 ? `[${address}]` : address)).join(',');
        config.push(`http.curloptResolve=${bare}:${defaultPort(url)}:${pinned}`);
      }
      config.push('http.followRedirects=false');
    }
    return { repo, config };
  }
  // ssh:// and scp-like: ssh resolves the name itself (the domain checked what it resolves to now).
  config.push('protocol.ssh.allow=always');
  return { repo, config };
}
