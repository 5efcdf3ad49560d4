/**
 * What a request may make git reach, decided from its InputPolicy (policy.ts)
 * before any git runs, and handed to the git driver as data (git/access.ts
 * `RepoReach`): a local repository only where the policy allows (its real path is
 * what git gets), plain http only to loopback or where allowed, a host resolving
 * to a loopback, private, link-local or metadata address only where allowed.
 */
import { ApiError, badRequest } from '../../api/errors.js';
import { type AuthorizedRepo, type RepoReach, authorizeRepo } from '../../git/access.js';
import { type RepoUrl, RepoUrlError, parseRepoUrl } from '../../git/credentials.js';
import { type InputPolicy, LOCAL_POLICY } from '../input-policy.js';

function isRestricted(policy: InputPolicy): boolean {
  return policy.localRoots !== 'any' || !policy.privateNetwork || !policy.plainHttp;
}

/** The checked addresses of `host`; a name that does not resolve is a network failure (502), not a crash. */
async function addressesOf(policy: InputPolicy, host: string, shown: string): Promise<string[]> {
  const { resolveAllowedAddresses } = await import('../policy.js');
  try {
    return await resolveAllowedAddresses(policy, host);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError(502, `Cannot reach ${shown}: cannot resolve host ${host}`);
  }
}

/** What `policy` lets git reach of `repo`: 403 for what it may not (nothing runs git). */
export async function reachOf(policy: InputPolicy, repo: RepoUrl): Promise<RepoReach> {
  const restricted = isRestricted(policy);
  if (repo.kind === 'file' || repo.kind === 'path') {
    const { allowedLocalPath } = await import('../policy.js');
    return { restricted, localPath: await allowedLocalPath(policy, repo.gitUrl) };
  }
  const host = repo.host ?? '';
  if (repo.kind === 'http') {
    const { checkScheme } = await import('../policy.js');
    checkScheme(policy, new URL(repo.gitUrl));
    if (policy.privateNetwork) return { restricted };
    return { restricted, addresses: await addressesOf(policy, host, repo.redacted) };
  }
  if (!policy.privateNetwork) await addressesOf(policy, host, repo.redacted);
  return { restricted };
}

/** `url` parsed (400 for a URL git must never see) and checked against `policy` (403). */
export async function authorizeUrl(url: string, policy: InputPolicy = LOCAL_POLICY): Promise<AuthorizedRepo> {
  let repo: RepoUrl;
  try {
    repo = parseRepoUrl(url);
  } catch (error) {
    if (error instanceof RepoUrlError) throw badRequest(error.message);
    throw error;
  }
  return authorizeRepo(repo, await reachOf(policy, repo));
}
