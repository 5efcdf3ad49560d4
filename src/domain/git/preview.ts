/**
 * `previewGitImport` and `previewGitExport` (docsctl extensions, `git import|export
 * --dry-run`): what the sync would do, computed exactly as the sync computes it
 * (plan.ts) from the server's store and the repository the server would read,
 * with the same role and the same refusals (a moved branch is 409 as for the
 * export itself). Nothing is committed, pushed or written to the store: the
 * routes are `safe` and run on a snapshot.
 *
 * docsctl extensions: the Git Sync previews
 *
 * A route whose `source` is `'docsctl'` is docsctl's own, not GitBook's (path segment `x-docsctl`,
 * see *Sites* for `getSiteTree`): only `serve` and the local mode answer it (`api --list` marks it;
 * `test/api/routes.test.ts` lists them and checks none is in the spec). The two so far are `previewGitImport` and
 * `previewGitExport` (`POST /v1/spaces/{spaceId}/x-docsctl/git/import-preview|export-preview`, `src/domain/git/preview.ts`), behind
 * `git import|export --dry-run`. They take the sync's body and run the sync's planning step
 * (`src/domain/git/plan.ts`, shared with `handlers.ts`: the target, the fetch, the moved-branch
 * 409, the conversion) without the commit, push or store write; their routes give them the
 * sync's role. A route declared `safe: true` changes nothing although it is a POST:
 * `executeOperation` runs it on a snapshot like a GET (no lock, no transaction, a write would
 * throw), the manifest carries `safe`, and the `--dry-run` observer sends it instead of stopping
 * at it. The CLI (`src/cli/commands/git-dry-run.ts`) only calls the transport; when a server
 * answers 404/405/501, it asks again with an empty body (a server with the route refuses it as
 * invalid, 400) and looks the space up, so a missing space or repository stays a 404 and only a
 * server without the route is "not supported" (export: exit 2; import: a client-side comparison
 * with the space as the API shows it).
 */
import type * as routes from '../../api/routes/git.js';
import type { Change } from '../../content-model/tree-merge.js';
import { type PrepareContext, type TwoPhaseHandler, implementer } from '../handler.js';
import { planExport, planImport } from './plan.js';

const on = implementer<typeof routes>();

export interface ImportPreview {
  /** The repository, credentials removed. */
  repository: string;
  /** The ref read; null for a plain directory. */
  ref: string | null;
  /** The commit that would be imported; null for a plain directory or a skipped import. */
  commit: string | null;
  /** Why nothing would be imported (`already synced`, `stale event`). */
  skipped?: string;
  changes: Change[];
  warnings: string[];
}

export interface ExportPreview {
  repository: string;
  ref: string;
  projectDirectory: string;
  /** The branch head the commit would build on; null for a new branch. */
  commit: string | null;
  /** Why the export would do nothing (`stale event`). */
  skipped?: string;
  /** Whether the export would commit (it has files to write or delete). */
  wouldCommit: boolean;
  /** Every file it would write or delete, by path. */
  files: Array<{ path: string; change: 'add' | 'change' | 'delete' }>;
  warnings: string[];
}

/** A preview does all its work in `prepare` (outside any lock); `run` only hands it over. */
function previewOnly<R extends typeof routes.previewGitImport | typeof routes.previewGitExport, P>(
  prepare: (ctx: PrepareContext, input: Parameters<TwoPhaseHandler<R, P>['prepare']>[1]) => Promise<P>,
): TwoPhaseHandler<R, P> {
  return { prepare, run: (_ctx, _input, prepared) => prepared };
}

const previewGitImport = previewOnly<typeof routes.previewGitImport, ImportPreview>(async (ctx, input) => {
  const plan = await planImport(ctx, input);
  const { redactUrls } = await import('../../util/redact.js');
  const repository = redactUrls(input.body.url);
  if (plan.skipped) return { repository, ref: input.body.ref, commit: null, skipped: plan.reason, changes: [], warnings: [] };
  const { diffTrees } = await import('../../content-model/tree-diff.js');
  return {
    repository: plan.target.url,
    ref: plan.oid === undefined ? null : input.body.ref,
    commit: plan.oid ?? null,
    changes: diffTrees(plan.previous, plan.tree),
    warnings: plan.warnings,
  };
});

const previewGitExport = previewOnly<typeof routes.previewGitExport, ExportPreview>(async (ctx, input) => {
  const plan = await planExport(ctx, input);
  const { redactUrls } = await import('../../util/redact.js');
  if (plan.skipped) {
    return {
      repository: redactUrls(input.body.url),
      ref: input.body.ref,
      projectDirectory: input.body.repoProjectDirectory ?? '',
      commit: null,
      skipped: plan.reason,
      wouldCommit: false,
      files: [],
      warnings: [],
    };
  }
  const { writes, deletes, warnings } = plan.result;
  const files: ExportPreview['files'] = [
    ...[...writes.keys()].map((path) => ({ path, change: plan.existing.has(path) ? ('change' as const) : ('add' as const) })),
    ...deletes.map((path) => ({ path, change: 'delete' as const })),
  ].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return {
    repository: plan.target.url,
    ref: plan.target.ref,
    projectDirectory: plan.target.projectDirectory,
    commit: plan.head ?? null,
    wouldCommit: files.length > 0,
    files,
    warnings,
  };
});

export const previewHandlers = {
  ...on('previewGitImport', previewGitImport),
  ...on('previewGitExport', previewGitExport),
};
