/**
 * `docsctl git import|export|info`: sync a space with a repository in GitBook's
 * Git Sync layout, for CI pipelines. Local paths and file:// URLs work as well as
 * remote URLs; credentials in a URL are never printed. Progress goes to stderr on a
 * terminal only; the last line is a one-line summary.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Command } from 'commander';
import { ApiError, UsageError } from '../../api/errors.js';
import { checkImportRef, checkRefName } from '../../git/refs.js';
import type { ProgressListener } from '../../domain/handler.js';
import type { ProgressStream } from '../git-progress.js';
import type { Session } from '../session.js';
import { redactUrls } from '../../util/redact.js';
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

// eslint-disable-next-line max-lines-per-function -- registers the subcommands of `docsctl git`, one chained commander statement each
export function registerGitCommands(program: Command, getSession: (command: Command) => Session): void {
  const git = program.command('git').description('Sync spaces with Git repositories (GitBook Git Sync layout)');

  git
    .command('import')
    .description('Import a repository (or a local directory) into a space')
    .argument('<spaceId>', 'space id')
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
    .action(async (spaceId: string, repository: string, options: Omit<SyncOptions, 'ref'> & { ref?: string }, command: Command) => {
      const session = getSession(command);
      const url = repositoryUrl(repository);
      const refs = importRefs(options.ref, isLocalPath(repository));
      if (options.dryRun) {
        const { dryRunImport } = await import('./git-dry-run.js');
        await dryRunImport(session, spaceId, url, refs, options);
        return;
      }
      const transport = await session.transport();
      const before = await primaryRevision(session, spaceId);
      let ref = refs[0] as string;
      for (const [i, candidate] of refs.entries()) {
        ref = candidate;
        await progress(session, `Importing ${redactUrls(url)} (${ref}) into space ${spaceId}…`);
        try {
          const body = syncBody(url, ref, options);
          await withProgress(session, options.quiet, (progress) => transport.request('importGitRepository', { params: { spaceId }, body }, { progress }));
          break;
        } catch (error) {
          // A short --ref name that is not a branch may be a tag.
          const notFound = error instanceof ApiError && error.status === 404 && /remote ref not found/.test(error.message);
          if (!notFound || i === refs.length - 1) throw error;
        }
      }
      const after = await primaryRevision(session, spaceId);
      const changed = before !== after;
      const info = await gitInfo(session, spaceId);
      const summary = {
        space: spaceId,
        repository: redactUrls(url),
        ref,
        ...(typeof info?.commit === 'string' ? { commit: info.commit } : {}),
        revision: after,
        changed,
      };
      if (session.format === 'json' || session.format === 'yaml') await session.printObject(summary, []);
      else
        await session.printText(
          options.standalone
            ? `Imported ${redactUrls(url)} ${ref} as a standalone revision (space content unchanged)`
            : changed
              ? `Imported ${redactUrls(url)} ${ref} into space ${spaceId}: new revision ${after}`
              : `Space ${spaceId} is already up to date with ${redactUrls(url)} ${ref}: nothing imported`,
        );
    });

  git
    .command('export')
    .description('Export a space to a repository branch (commit and push); nothing is committed when nothing changed')
    .argument('<spaceId>', 'space id')
    .argument('<repository>', 'URL (https://, ssh://, file://) or local path of the repository')
    .requiredOption('-m, --message <message>', 'commit message')
    .option('--ref <branch>', 'branch to push to (refs/heads/<branch> or <branch>)', 'main')
    .option('--dir <path>', 'project directory inside the repository (default: the one the space last synced with)')
    .option('--standalone', 'push a snapshot not linked to the repository')
    .option('--force', 'export even if the branch moved since the last sync (overwrites it)')
    .option('--timestamp <iso>', 'time of the triggering event: an older event than the last sync is skipped')
    .option('--dry-run', 'show the files that would be written or deleted; change nothing')
    .option('-q, --quiet', 'no progress line on the terminal')
    .addHelpText(
      'after',
      `
Examples:
  $ docsctl git export sp4c3 https://github.com/acme/docs.git --ref main -m "Docs from GitBook"
  $ docsctl git export sp4c3 ../docs-repo --dry-run -m check
`,
    )
    .action(async (spaceId: string, repository: string, options: SyncOptions, command: Command) => {
      const session = getSession(command);
      const url = repositoryUrl(repository);
      const ref = refOf(options.ref);
      if (options.dryRun) {
        const { dryRunExport } = await import('./git-dry-run.js');
        await dryRunExport(session, spaceId, url, ref, options);
        return;
      }
      const transport = await session.transport();
      await progress(session, `Exporting space ${spaceId} to ${redactUrls(url)} (${ref})…`);
      const body = { ...syncBody(url, ref, options), commitMessage: options.message };
      await withProgress(session, options.quiet, (progress) => transport.request('exportToGitRepository', { params: { spaceId }, body }, { progress }));
      const report = (await gitInfo(session, spaceId))?.lastExport as ExportReport | undefined;
      await printExportReport(session, { space: spaceId, repository: redactUrls(url), ref }, options.standalone ? undefined : report);
    });

  git
    .command('info')
    .description('Show the Git sync state of a space')
    .argument('<spaceId>', 'space id')
    .addHelpText('after', '\nExamples:\n  $ docsctl git info sp4c3\n  $ docsctl git info sp4c3 --json | jq -r .url\n')
    .action(async (spaceId: string, _options: unknown, command: Command) => {
      const session = getSession(command);
      const transport = await session.transport();
      const { body } = await transport.request('getSpaceGitInfo', { params: { spaceId } });
      const { columns } = await import('../../output/columns.js');
      await session.printObject(body, columns.gitInfo);
    });
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

async function printExportReport(session: Session, target: { space: string; repository: string; ref: string }, report: ExportReport | undefined) {
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
    const more = report.fileCount > report.files.length ? [`  … and ${report.fileCount - report.files.length} more`] : [];
    await session.printText(
      [`Committed ${report.commit?.slice(0, 12) ?? ''} to ${where}: ${report.fileCount} file(s) changed`, ...report.files.map((file) => `  ${file}`), ...more].join('\n'),
    );
  }
}
