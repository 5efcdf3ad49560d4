/**
 * What a git process may reach for one repository URL, decided before any git
 * runs (issue 8 §1).
 *
 * `authorizeRepo` checks a parsed URL against the caller's InputPolicy: a local
 * path or file:// URL only where the policy allows (its real path is what git
 * gets), plain http only to loopback or where allowed, and a host that resolves
 * to a loopback, private, link-local or metadata address only where allowed.
 *
 * It answers the `-c` options every git command on that repository runs with:
 * - `protocol.allow=never` plus the one transport the URL uses (https, ssh, file;
 *   http only for an http URL), so nothing in the repository (a submodule, a
 *   redirect, an alternate) can make git use another one;
 * - under a restricted policy (serve), no http redirects (a hop could lead to a
 *   private address that was never checked), the host pinned to the addresses
 *   that were checked (`http.curloptResolve`: no second DNS answer), and no
 *   credential helper (the server user's stored credentials are not the caller's);
 * - hooks and fsmonitor off: a repository's config never runs code.
 * `GIT_PROTOCOL_FROM_USER=0` (repo.ts) stops git from using the user-only
 * protocols a configuration might allow.
 */
import { isIP } from 'node:net';
import { ApiError } from '../api/errors.js';
import { type InputPolicy, allowedLocalPath, checkScheme, resolveAllowedAddresses } from '../domain/policy.js';
import type { RepoUrl } from './credentials.js';

export interface AuthorizedRepo {
  repo: RepoUrl;
  /** `key=value` pairs, each given to git as `-c key=value` before the subcommand. */
  config: string[];
}

/** Options that hold for every git process docsctl runs, whatever the repository. */
export const SAFE_CONFIG: readonly string[] = ['core.hooksPath=/dev/null', 'core.fsmonitor=false', 'protocol.allow=never'];

function isRestricted(policy: InputPolicy): boolean {
  return policy.localRoots !== 'any' || !policy.privateNetwork || !policy.plainHttp;
}

function defaultPort(url: URL): string {
  if (url.port !== '') return url.port;
  return url.protocol === 'http:' ? '80' : url.protocol === 'https:' ? '443' : '22';
}

/** The checked addresses of `host`; a name that does not resolve is a network failure (502), not a crash. */
async function addressesOf(policy: InputPolicy, host: string, shown: string): Promise<string[]> {
  try {
    return await resolveAllowedAddresses(policy, host);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError(502, `Cannot reach ${shown}: cannot resolve host ${host}`);
  }
}

export async function authorizeRepo(policy: InputPolicy, repo: RepoUrl): Promise<AuthorizedRepo> {
  const restricted = isRestricted(policy);
  const config: string[] = [];
  if (restricted) config.push('credential.helper=');
  if (repo.kind === 'file' || repo.kind === 'path') {
    const real = await allowedLocalPath(policy, repo.gitUrl);
    config.push('protocol.file.allow=always');
    return { repo: { ...repo, gitUrl: real }, config };
  }
  const host = repo.host ?? '';
  if (repo.kind === 'http') {
    const url = new URL(repo.gitUrl);
    checkScheme(policy, url);
    config.push('protocol.https.allow=always');
    if (url.protocol === 'http:') config.push('protocol.http.allow=always');
    if (!policy.privateNetwork) {
      const addresses = await addressesOf(policy, host, repo.redacted);
      const bare = host.replace(/^\[|\]$/g, '');
      if (isIP(bare) === 0) {
        const pinned = addresses.map((address) => (isIP(address) === 6 ? `[${address}]` : address)).join(',');
        config.push(`http.curloptResolve=${bare}:${defaultPort(url)}:${pinned}`);
      }
      config.push('http.followRedirects=false');
    }
    return { repo, config };
  }
  // ssh:// and scp-like: ssh resolves the name itself; the check is on what it resolves to now.
  if (!policy.privateNetwork) await addressesOf(policy, host, repo.redacted);
  config.push('protocol.ssh.allow=always');
  return { repo, config };
}
