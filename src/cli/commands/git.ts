/**
 * `docsctl git import|export|info`: sync a space with a repository in GitBook's
 * Git Sync layout, for CI pipelines. Local paths and file:// URLs work as well as
 * remote URLs; credentials in a URL are never printed. Progress goes to stderr on a
 * terminal only; the last line is a one-line summary.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Command } from 'commander';
import { UsageError } from '../../api/errors.js';
import { checkImportRef, checkRefName } from '../../git/refs.js';
import { parseIdentity } from '../../git/settings.js';
import type { ProgressListener } from '../../domain/handler.js';
import type { ProgressStream } from '../git-progress.js';
import type { Session } from '../session.js';
import { redactUrls } from '../../util/redact.js';
import { isRefNotFound, noSuchRef } from './git-ref-errors.js';
import { syncBody } from './git-sync-body.js';

interface SyncOptions {
  ref: string;
  quiet?: boolean;
  dir?: string;
  standalone?: boolean;
  force?: boolean;
  dryRun?: boolean;
  message?: string;
  timestamp?: string;
  author?: string;
  verbose?: boolean;
}

/** A repository argument as a URL: paths become file:// URLs (CI workspaces). */
export function repositoryUrl(from: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(from) || /^[\w.-]+@[\w.-]+:/.test(from)) return from;
  return pathToFileURL(resolve(from)).href;
}

/** True when the argument names a local path (repositoryUrl turns it into a file:// URL). */
function isLocalPath(from: string): boolean {
  return !/^[a-z][a-z0-9+.-]*:\/\//i.test(from) && !/^[\w.-]+@[\w.-]+:/.test(from);
}

/**
 * The refs to try for `git import --ref`, in order: `HEAD`, a full commit id and a
 * full ref are themselves; a short name is a branch, else a tag. Without --ref: what
 * a local path has checked out (HEAD: a CI workspace at a detached HEAD or a
 * feature branch), else the main branch.
 */
function importRefs(ref: string | undefined, local: boolean): string[] {
  if (ref === undefined) return [local ? 'HEAD' : 'refs/heads/main'];
  if (ref.startsWith('-')) throw new UsageError(`Invalid --ref "${ref}": it starts with "-"`);
  if (ref === 'HEAD' || ref.startsWith('refs/') || /^[0-9a-f]{7,64}$/i.test(ref)) return [checkImportRefForCli(ref)];
  return [checkRefName(`refs/heads/${ref}`, '--ref'), checkRefName(`refs/tags/${ref}`, '--ref')];
}

/** What `--ref` named, for messages: the user's own words (a short name stays short). */
function refShown(ref: string | undefined, tried: readonly string[]): string {
  return ref ?? (tried[0] as string);
}

/** A local path that is a plain directory, not a repository (read as it is on disk, with no commit and no ref). */
async function isPlainDirectory(from: string): Promise<boolean> {
  if (!isLocalPath(from)) return false;
  const { stat } = await import('node:fs/promises');
  const info = await stat(resolve(from)).catch(() => undefined);
  if (!info?.isDirectory()) return false;
  const { isGitRepository } = await import('../../git/source.js');
  return !(await isGitRepository(resolve(from)));
}

function checkImportRefForCli(ref: string): string {
  try {
    return checkImportRef(ref);
  } catch (error) {
    throw new UsageError((error as Error).message.replace(/^Invalid ref/, 'Invalid --ref'));
  }
}

function refOf(branchOrRef: string): string {
  if (branchOrRef.startsWith('-')) throw new UsageError(`Invalid --ref "${branchOrRef}": it starts with "-"`);
  if (branchOrRef.startsWith('refs/heads/')) return checkRefName(branchOrRef, '--ref');
  if (branchOrRef.startsWith('refs/')) throw new UsageError(`--ref must be a branch (refs/heads/<branch>), got "${branchOrRef}"`);
  return checkRefName(`refs/heads/${branchOrRef}`, '--ref');
}

async function progress(session: Session, message: string): Promise<void> {
  if (session.ctx.io.isStdoutTTY || session.ctx.io.isStdinTTY) await session.hint(message);
}

/**
 * Runs `work` with a progress listener drawing on stderr when it is a terminal
 * (not with --quiet, --json or --format yaml); the line is cleared when it ends.
 */
async function withProgress<T>(session: Session, quiet: boolean | undefined, work: (listener?: ProgressListener) => Promise<T>): Promise<T> {
  const { progressRenderer } = await import('../git-progress.js');
  const quietFormat = session.format === 'json' || session.format === 'yaml';
  const renderer = progressRenderer(session.ctx.io.err as ProgressStream, { enabled: !quiet && !quietFormat });
  try {
    return await work(renderer?.listener);
  } finally {
    renderer?.done();
  }
}

async function primaryRevision(session: Session, spaceId: string): Promise<string> {
  const transport = await session.transport();
  return ((await transport.request('getSpaceById', { params: { spaceId } })).body as { revision: string }).revision;
}

type SessionOf = (command: Command) => Session;

export function registerGitCommands(program: Command, getSession: SessionOf): void {
  const git = program.command('git').description('Sync spaces with Git repositories (GitBook Git Sync layout)');
  registerImport(git, getSession);
  registerExport(git, getSession);
  registerInfo(git, getSession);
}

function registerImport(git: Command, getSession: SessionOf): void {
  git
    .command('import')
    .description('Import a repository (or a local directory) into a space')
    .argument('<spaceId>', 'space id, title or collection path (Collection/Space)')
    .argument('<repository>', 'URL (https://, ssh://, file://) or local path of the repository')
    .option('--ref <ref>', 'branch, tag, HEAD or full commit id to import (default: HEAD for a local path, main otherwise)')
    .option('--dir <path>', 'project directory inside the repository (holds .gitbook.yaml); remembered for later imports and exports')
    .option('--standalone', 'build a revision without changing the space content (previews)')
    .option('--force', 'import even if this commit was already imported')
    .option('--timestamp <iso>', 'time of the triggering event: an older event than the last sync is skipped')
    .option('--dry-run', 'show the pages and files that would be added, changed or removed; change nothing')
    .option('-q, --quiet', 'no progress line on the terminal')
    .addHelpText(
      'after',
      `
A local path imports what is checked out (HEAD), or the directory as it is on disk
when it is not a repository. Imports of a repository mirror it: pages that are no
longer in it are removed from the space.

Examples:
  $ docsctl git import sp4c3 https://github.com/acme/docs.git --ref main
  $ docsctl git import sp4c3 . --dir docs                     # a CI workspace: its checked-out commit
  $ docsctl git import sp4c3 . --ref v2.1 --dry-run           # a tag
  $ docsctl git import sp4c3 ./handbook                       # a plain directory
  $ docsctl git import sp4c3 https://user:token@git.example.com/docs.git --force
`,
    )
    .action(async (space: string, repository: string, options: Omit<SyncOptions, 'ref'> & { ref?: string }, command: Command) => {
      const session = getSession(command);
      const spaceId = await spaceIdOf(session, space);
      const url = repositoryUrl(repository);
      const refs = importRefs(options.ref, isLocalPath(repository));
      if (options.dryRun) {
        const { dryRunImport } = await import('./git-dry-run.js');
        await dryRunImport(session, spaceId, url, refs, options);
        return;
      }
      const directory = await isPlainDirectory(repository);
      const transport = await session.transport();
      const before = await primaryRevision(session, spaceId);
      const source = directory ? `the directory ${resolve(repository)}` : redactUrls(url);
      let ref = refs[0] as string;
      for (const [i, candidate] of refs.entries()) {
        ref = candidate;
        await progress(session, `Importing ${source}${directory ? '' : ` (${ref})`} into space ${spaceId}…`);
        try {
          const body = syncBody(url, ref, options);
          await withProgress(session, options.quiet, (progress) => transport.request('importGitRepository', { params: { spaceId }, body }, { progress }));
          break;
        } catch (error) {
          // A short --ref name that is not a branch may be a tag.
          if (!isRefNotFound(error)) throw error;
          if (i === refs.length - 1) throw noSuchRef(url, refShown(options.ref, refs), refs);
        }
      }
      const after = await primaryRevision(session, spaceId);
      const changed = before !== after;
      const info = await gitInfo(session, spaceId);
      const summary = {
        space: spaceId,
        repository: redactUrls(url),
        ref: directory ? null : ref,
        ...(typeof info?.commit === 'string' && !directory ? { commit: info.commit } : {}),
        revision: after,
        changed,
      };
      const from = directory ? source : `${redactUrls(url)} ${ref}`;
      if (session.format === 'json' || session.format === 'yaml') await session.printObject(summary, []);
      else
        await session.printText(
          options.standalone
            ? `Imported ${from} as a standalone revision (space content unchanged)`
            : changed
              ? `Imported ${from} into space ${spaceId}: new revision ${after}`
              : `Space ${spaceId} is already up to date with ${from}: nothing imported`,
        );
    });
}

function registerExport(git: Command, getSession: SessionOf): void {
  git
    .command('export')
    .description('Export a space to a repository branch (commit and push); nothing is committed when nothing changed')
    .argument('<spaceId>', 'space id, title or collection path (Collection/Space)')
    .argument('<repository>', 'URL (https://, ssh://, file://) or local path of the repository')
    .option('-m, --message <message>', 'commit message (required, except with --dry-run)')
    .option('--ref <branch>', 'branch to push to (refs/heads/<branch> or <branch>)', 'main')
    .option('--dir <path>', 'project directory inside the repository (default: the one the space last synced with)')
    .option('--author <identity>', 'author of the commit, "Name <email>" (default: GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL where the export runs, else docsctl)')
    .option('--standalone', 'push a snapshot not linked to the repository')
    .option('--force', 'export even if the branch moved since the last sync (overwrites it)')
    .option('--timestamp <iso>', 'time of the triggering event: an older event than the last sync is skipped')
    .option('--dry-run', 'show the files that would be written or deleted; change nothing')
    .option('--verbose', 'list every file the commit changed (a terminal always shows them; --json always has them)')
    .option('-q, --quiet', 'no progress line on the terminal')
    .addHelpText(
      'after',
      `
The repository may be a local clone with the branch checked out (a CI workspace):
the commit goes on that branch and its work tree is updated, as git's
receive.denyCurrentBranch=updateInstead does; a work tree with changes is refused.
An empty repository gets the layout the space was imported from (.gitbook.yaml,
project directory, README and SUMMARY.md).

Examples:
  $ docsctl git export sp4c3 https://github.com/acme/docs.git --ref main -m "Docs from GitBook"
  $ docsctl git export sp4c3 . -m "Docs from GitBook" --author "Docs Bot <docs@acme.io>"
  $ docsctl git export sp4c3 ../docs-repo --dry-run
`,
    )
    .action(async (space: string, repository: string, options: SyncOptions, command: Command) => {
      const session = getSession(command);
      const spaceId = await spaceIdOf(session, space);
      const url = repositoryUrl(repository);
      const ref = refOf(options.ref);
      const author = authorOption(options.author);
      if (options.dryRun) {
        const { dryRunExport } = await import('./git-dry-run.js');
        await dryRunExport(session, spaceId, url, ref, { ...options, author });
        return;
      }
      if (options.message === undefined) throw new UsageError("required option '-m, --message <message>' not specified", { hint: 'give the commit message: -m "…" (--dry-run needs none)' });
      const transport = await session.transport();
      await progress(session, `Exporting space ${spaceId} to ${redactUrls(url)} (${ref})…`);
      const body = { ...syncBody(url, ref, { ...options, author }), commitMessage: options.message };
      await withProgress(session, options.quiet, (progress) => transport.request('exportToGitRepository', { params: { spaceId }, body }, { progress }));
      const report = (await gitInfo(session, spaceId))?.lastExport as ExportReport | undefined;
      const list = options.verbose === true || session.ctx.io.isStdoutTTY;
      await printExportReport(session, { space: spaceId, repository: redactUrls(url), ref }, options.standalone ? undefined : report, list);
    });
}

function registerInfo(git: Command, getSession: SessionOf): void {
  git
    .command('info')
    .description('Show the Git sync state of a space')
    .argument('<spaceId>', 'space id, title or collection path (Collection/Space)')
    .addHelpText('after', '\nExamples:\n  $ docsctl git info sp4c3\n  $ docsctl git info sp4c3 --json | jq -r .url\n')
    .action(async (space: string, _options: unknown, command: Command) => {
      const session = getSession(command);
      const transport = await session.transport();
      const { body } = await transport.request('getSpaceGitInfo', { params: { spaceId: await spaceIdOf(session, space) } });
      const { columns } = await import('../../output/columns.js');
      await session.printObject(body, columns.gitInfo);
    });
}

/** The id of the space SPACE names (an id, a title or a collection path). */
async function spaceIdOf(session: Session, space: string): Promise<string> {
  return (await import('../operation.js')).idOf(session, 'spaceId', space);
}

async function gitInfo(session: Session, spaceId: string): Promise<Record<string, unknown> | undefined> {
  const transport = await session.transport();
  try {
    return (await transport.request('getSpaceGitInfo', { params: { spaceId } })).body as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** What `getSpaceGitInfo` tells of the last export (docsctl servers; the real API does not say). */
interface ExportReport {
  committed: boolean;
  commit?: string;
  fileCount: number;
  files: string[];
}

/** `--author "Name <email>"`, checked here (exit 2) and sent as the request's `author`. */
function authorOption(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!parseIdentity(value)) throw new UsageError(`Invalid --author "${value}": give it as "Name <email>"`);
  return value.trim();
}

/**
 * What the export did: one line, and the files it changed when `list` (a terminal, or
 * --verbose: a CI log gets one line however many files changed); JSON has everything.
 */
async function printExportReport(session: Session, target: { space: string; repository: string; ref: string }, report: ExportReport | undefined, list: boolean) {
  const where = `${target.repository} ${target.ref}`;
  if (session.format === 'json' || session.format === 'yaml') {
    const fields = report
      ? { committed: report.committed, commit: report.commit ?? null, fileCount: report.fileCount, files: report.files }
      : { committed: null, commit: null, fileCount: null, files: null };
    await session.printObject({ ...target, ...fields }, []);
    return;
  }
  if (report === undefined) {
    await session.printText(`Exported space ${target.space} to ${where}`);
  } else if (!report.committed) {
    await session.printText(`Nothing to commit: ${where} already has the content of space ${target.space}`);
  } else {
    const line = `Committed ${report.commit?.slice(0, 12) ?? ''} to ${where}: ${report.fileCount} file(s) changed`;
    if (!list) {
      await session.printText(`${line} (--verbose lists them)`);
      return;
    }
    const more = report.fileCount > report.files.length ? [`  … and ${report.fileCount - report.files.length} more`] : [];
    await session.printText([line, ...report.files.map((file) => `  ${file}`), ...more].join('\n'));
  }
}
