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
 *
 * Git: what a repository URL may make git do
 *
 * `src/git/credentials.ts` parses a repository URL and refuses what git must never see (a leading
 * `-`, `name::` remote helpers, other schemes, control characters, hosts or users starting with
 * `-`); `src/git/refs.ts` does the same for refs. `src/domain/git/reach.ts` then checks the URL
 * against the caller's `InputPolicy` (local paths, plain http, private addresses; the host is
 * resolved) and hands the git driver a `RepoReach` (data: restricted or not, the checked real path,
 * the checked addresses); this module turns it into the `-c` options every git command on
 * that repository runs with: `protocol.allow=never` plus the URL's one transport, no hooks, no
 * fsmonitor, and under `serve` no redirects, the host pinned with `http.curloptResolve`, no
 * credential helper. `repo.ts` adds `GIT_PROTOCOL_FROM_USER=0`, `--end-of-options` before every URL
 * or refspec, and a timeout on every process. How git runs comes in a `GitSettings`
 * (`src/git/settings.ts`: cache directory, timeout, environment, author and committer, a `trace` of
 * each command line that `--debug` prints in local mode), built by the entry from its environment and
 * passed down as `ExecuteEnv.git`. The mirror cache and temporary index files live in a private
 * cache directory (`src/util/private-dir.ts`).
 *
 * **Git Sync in CI workspaces.** The mirror fetches with `--update-shallow`, so a `--depth N` clone
 * imports on the first run. A space remembers the layout it was last synced with
 * (`src/gitsync/layout.ts`: project directory, `.gitbook.yaml`, SUMMARY.md, an object named by the
 * `gitSync` record): an export into an empty project directory writes that layout, and pages synced
 * with another layout move to the same place under the target's. SUMMARY.md is written as an edit of
 * the file it replaces (`src/gitsync/summary-update.ts`: unchanged items keep their lines). An export
 * into a local clone with the branch checked out (`src/git/worktree.ts`) commits on it and moves a
 * clean work tree, as `receive.denyCurrentBranch=updateInstead` does; changes are refused by the
 * plan, so `--dry-run` refuses alike. `exportRepository` runs in phases, one module each: target and
 * deletes (`export.ts`), paths (`export-paths.ts`), contents (`export-pages.ts`, `export-links.ts`),
 * SUMMARY.md (`export-summary.ts`).
 *
 * **Two ways git runs.** The network side (`fetch`, `push`: `src/git/network.ts`) goes through
 * simple-git: its `timeout` plugin kills a git that stays silent, its `abort` plugin enforces the
 * overall deadline (`DOCSCTL_GIT_TIMEOUT`); every line of git's stderr is parsed for progress
 * (`progressOfLine`: stage, objects, bytes; simple-git's own progress plugin reads one match per
 * stderr chunk, and a fast fetch sends all its progress in one or two chunks) into `ProgressEvent`s
 * on `ctx.progress`, which the CLI draws as one line on a
 * terminal (`src/cli/git-progress.ts`; local mode only, nothing when piped, `--json` or `--quiet`).
 * simple-git's own guards stay on: only the checks our fixed options trip are lifted, one by one
 * (`core.hooksPath=/dev/null`, `core.fsmonitor=false`, `protocol.allow=never`, an empty
 * `credential.helper`, `GIT_SSH_COMMAND`, the credential `GIT_CONFIG_COUNT`), and its environment
 * guard drops ambient `GIT_*` variables other than transport settings. Local plumbing stays on plain
 * child processes (`runGit` in `repo.ts`): `cat-file --batch` streams binary blobs and
 * `hash-object --stdin-paths`/`update-index -z --index-info` take binary or NUL-separated input,
 * which simple-git's text results cannot carry. The mirror is `init --bare` plus a fetch of the one
 * ref asked for (no clone, no ls-remote: a fetch of a missing ref answers "not found" itself). `test/git/hostile.test.ts` puts a recording `git` first on PATH and
 * checks that no argument from user input reaches git where it could be read as an option.
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
