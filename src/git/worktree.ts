/**
 * An export into a local clone whose work tree has the branch checked out (a CI
 * workspace, a developer's copy). git refuses such a push ("branch is currently
 * checked out") unless the repository says `receive.denyCurrentBranch=updateInstead`;
 * docsctl does what that setting does, whatever the repository says (except
 * `ignore`/`warn`/`false`, which ask git to move the branch alone, as a plain push):
 *
 * 1. the work tree must be clean: no unstaged and no staged change (the refusal
 *    names which), else nothing is pushed (409);
 * 2. the commit is pushed to a temporary ref of docsctl's own in that repository,
 *    the work tree and index are moved to it (`read-tree -u -m`, which refuses to
 *    overwrite an untracked file), then the branch (checked against the head the
 *    export built on: a commit made meanwhile is a 409), and the temporary ref goes.
 *
 * Only a work tree inside the repository's own directory (the one the caller was
 * allowed to name) is ever updated: a linked work tree elsewhere is refused with
 * its path. The git commands run there with the same safe options as every other
 * (no hooks, no fsmonitor).
 */
import { randomBytes } from 'node:crypto';
import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import { ApiError, conflict } from '../api/errors.js';
import { type Mirror, runGit } from './repo.js';
import type { GitSettings } from './settings.js';

/** A branch checked out in a work tree docsctl may update. */
export interface CheckedOutBranch {
  /** The work tree (real path). */
  worktree: string;
  ref: string;
}

async function git(settings: GitSettings, dir: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const result = await runGit(settings, ['-C', dir, ...args]);
  return { code: result.code, stdout: result.stdout.toString('utf8'), stderr: result.stderr };
}

function isInsideDir(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * The work tree of the local repository at `repoDir` that has `ref` checked out, when
 * a push to it would be refused (or be `updateInstead`); undefined for a bare
 * repository, a branch nobody has checked out, or a repository that lets such a push
 * move the branch alone. A work tree outside `repoDir` is a 409 naming it.
 */
export async function checkedOutBranch(settings: GitSettings, repoDir: string, ref: string, shown: string): Promise<CheckedOutBranch | undefined> {
  const list = await git(settings, repoDir, ['worktree', 'list', '--porcelain', '-z']);
  if (list.code !== 0) return undefined;
  let worktree: string | undefined;
  let found: string | undefined;
  for (const field of list.stdout.split('\0')) {
    if (field.startsWith('worktree ')) worktree = field.slice('worktree '.length);
    else if (field === `branch ${ref}` && worktree !== undefined) found = worktree;
  }
  if (found === undefined) return undefined;
  const deny = (await git(settings, repoDir, ['config', '--get', 'receive.denyCurrentBranch'])).stdout.trim().toLowerCase();
  if (['ignore', 'warn', 'false', 'no', 'off', '0'].includes(deny)) return undefined;
  const real = await realpath(found).catch(() => found as string);
  if (!isInsideDir(real, await realpath(repoDir).catch(() => repoDir))) {
    throw conflict(`Cannot export to ${shown} at ${ref}: the branch is checked out in another work tree (${real}); export to another branch, or check out another branch there`);
  }
  return { worktree: real, ref };
}

/** Why the work tree cannot be moved (unstaged or staged changes), or undefined when it is clean. */
export async function worktreeChanges(settings: GitSettings, worktree: string): Promise<string | undefined> {
  await git(settings, worktree, ['update-index', '-q', '--ignore-submodules', '--refresh']);
  const unstaged = await git(settings, worktree, ['diff-files', '--quiet', '--ignore-submodules', '--']);
  if (unstaged.code === 1) return 'its work tree has unstaged changes';
  const head = await git(settings, worktree, ['rev-parse', '--verify', '--quiet', 'HEAD']);
  const base = head.code === 0 ? head.stdout.trim() : await emptyTree(settings, worktree);
  const staged = await git(settings, worktree, ['diff-index', '--quiet', '--cached', '--ignore-submodules', base, '--']);
  if (staged.code === 1) return 'its work tree has staged changes';
  if (unstaged.code !== 0 || staged.code !== 0) return `git cannot read its work tree (${(unstaged.stderr || staged.stderr).trim().split('\n')[0] ?? ''})`;
  return undefined;
}

async function emptyTree(settings: GitSettings, worktree: string): Promise<string> {
  const result = await runGit(settings, ['-C', worktree, 'hash-object', '-t', 'tree', '--stdin'], { input: '' });
  return result.stdout.toString('utf8').trim();
}

/**
 * The first of `added` (paths the export creates, from the repository root) that is
 * already in the work tree, untracked: moving the work tree would overwrite it.
 */
export async function untrackedInTheWay(worktree: string, added: Iterable<string>): Promise<string | undefined> {
  for (const file of added) {
    try {
      await lstat(path.join(worktree, ...file.split('/')));
      return file;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return file;
    }
  }
  return undefined;
}

/** Why an export that adds `added` cannot move the work tree (changes, or an untracked file in the way), or undefined. */
export async function worktreeRefusal(settings: GitSettings, target: CheckedOutBranch, added: Iterable<string>): Promise<string | undefined> {
  const changes = await worktreeChanges(settings, target.worktree);
  if (changes !== undefined) return changes;
  const inTheWay = await untrackedInTheWay(target.worktree, added);
  return inTheWay === undefined ? undefined : `the untracked file ${inTheWay} is where the export writes`;
}

/** The refusal of an export into a work tree that has changes (or an untracked file where it writes). */
export function dirtyWorktree(shown: string, target: CheckedOutBranch, why: string): ApiError {
  const fix = why.startsWith('the untracked file') ? 'move it away first' : 'commit or stash them first';
  return conflict(`Cannot export to ${shown} at ${target.ref}: the branch is checked out in ${target.worktree} and ${why}; ${fix}, or export to another branch`);
}

/**
 * Puts `commit` on the checked-out branch and moves the work tree to it, as
 * `receive.denyCurrentBranch=updateInstead` would; `head` is the branch's commit the
 * export built on (undefined: the branch is unborn).
 */
export async function updateCheckedOutBranch(
  mirror: Mirror,
  target: CheckedOutBranch,
  commit: string,
  head: string | undefined,
  added: Iterable<string>,
): Promise<void> {
  const { settings } = mirror;
  const shown = mirror.url;
  const why = await worktreeRefusal(settings, target, added);
  if (why !== undefined) throw dirtyWorktree(shown, target, why);
  const current = await git(settings, target.worktree, ['rev-parse', '--verify', '--quiet', '--end-of-options', target.ref]);
  if ((current.code === 0 ? current.stdout.trim() : undefined) !== head) {
    throw conflict(`Cannot export to ${shown} at ${target.ref}: the branch moved since the export read it; import first`);
  }
  const temporary = `refs/docsctl/export/${randomBytes(8).toString('hex')}`;
  await mirror.pushRef(commit, temporary);
  try {
    const from = head ?? (await emptyTree(settings, target.worktree));
    const moved = await git(settings, target.worktree, ['read-tree', '-u', '-m', from, commit]);
    if (moved.code !== 0) {
      throw conflict(`Cannot export to ${shown} at ${target.ref}: cannot update the work tree ${target.worktree} (${moved.stderr.trim().split('\n')[0] ?? ''})`);
    }
    const update = await git(settings, target.worktree, ['update-ref', '-m', 'docsctl git export', '--end-of-options', target.ref, commit, head ?? '']);
    if (update.code !== 0) {
      throw conflict(`Cannot export to ${shown} at ${target.ref}: the branch moved meanwhile (${update.stderr.trim().split('\n')[0] ?? ''}); import first`);
    }
  } finally {
    await git(settings, target.worktree, ['update-ref', '-d', '--end-of-options', temporary]);
  }
}
