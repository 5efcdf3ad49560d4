/** `docsctl store …`: maintenance of the local store (check, repair, collect garbage, break a stale lock). */
import type { Command } from 'commander';
import { UsageError } from '../../api/errors.js';
import type { Session } from '../session.js';

function localDir(session: Session): string {
  if (session.settings.mode === 'remote') throw new UsageError('store commands work on a local store; unset --endpoint');
  return session.settings.storeDir;
}

// eslint-disable-next-line max-lines-per-function -- registers the subcommands of `docsctl store`, one chained commander statement each
export function registerStoreCommands(program: Command, getSession: (command: Command) => Session): void {
  const store = program.command('store').description('Maintenance of the local store');

  store
    .command('fsck')
    .description('Verify the store (commits and every reachable object); exits 74 when damaged')
    .action(async (_options: unknown, command: Command) => {
      const session = getSession(command);
      const { fsck } = await import('../../store/index.js');
      const report = await fsck(localDir(session));
      if (session.format === 'json' || session.format === 'yaml') await session.printObject(report, []);
      for (const problem of report.problems) await session.info(`${problem.path}: ${problem.problem}`);
      if (report.problems.length > 0) {
        const { StoreError } = await import('../../store/errors.js');
        const first = report.problems[0] as { path: string; problem: string };
        throw new StoreError(`store damaged: ${report.problems.length} problem(s), first ${first.path}`, first.path, {
          hint: 'run "docsctl store recover" to return to the last good state',
        });
      }
      await session.info(`Store OK at generation ${report.gen}`);
    });

  store
    .command('recover')
    .description('Quarantine damaged files and return to the last fully verified state')
    .option('--to <gen>', 'return to this generation instead of the newest intact one')
    .option('--dry-run', 'say what recover would do (the files it would set aside, their bytes); change nothing')
    .addHelpText(
      'after',
      `
Recover asks before it changes anything (--yes to skip). With --dry-run it asks nothing, takes
no lock and changes nothing: it prints the generation it would restore and the damaged files
it would set aside in quarantine/ ("docsctl store fsck" lists every problem).

Examples:
  $ docsctl store recover --dry-run
  $ docsctl store recover --yes
  $ docsctl store recover --to 41 --dry-run --json
`,
    )
    .action(async (options: { to?: string; dryRun?: boolean }, command: Command) => {
      const session = getSession(command);
      const dir = localDir(session);
      const toGen = options.to === undefined ? undefined : Number(options.to);
      if (toGen !== undefined && (!Number.isInteger(toGen) || toGen < 0)) throw new UsageError(`--to expects a generation number, got "${options.to}"`);
      const dryRun = options.dryRun === true;
      if (!dryRun) await session.confirm(`Recover the store at ${dir} to ${toGen === undefined ? 'its last good state' : `generation ${toGen}`}?`);
      const { recover } = await import('../../store/index.js');
      const result = await recover(dir, { ...(toGen === undefined ? {} : { toGen }), dryRun });
      if (session.format === 'json' || session.format === 'yaml') await session.printObject(result, []);
      if (!dryRun) {
        await session.info(`Recovered: generation ${result.fromGen} → ${result.toGen}; quarantined ${result.quarantined.length} file(s)`);
        return;
      }
      if (session.format !== 'json' && session.format !== 'yaml') for (const file of result.quarantined) await session.printText(`quarantine ${file}`);
      await session.info(
        result.gen === result.fromGen && result.quarantined.length === 0
          ? `dry run: the store is intact at generation ${result.fromGen}; recover would change nothing`
          : `dry run: recover would restore generation ${result.toGen} as generation ${result.gen} and set aside ${result.quarantined.length} file(s) (${result.quarantinedBytes ?? 0} bytes); nothing was changed`,
      );
    });

  store
    .command('gc')
    .description('Remove old commits and unreferenced objects')
    .option('--keep <n>', 'commits to keep', '100')
    .option('--dry-run', 'count what gc would remove (files and bytes); remove nothing')
    .addHelpText(
      'after',
      `
gc removes only commits older than the newest --keep and files no kept commit reaches (objects
and temporary files untouched for an hour); the state every command sees is unchanged. With
--dry-run it takes no lock and changes nothing: it counts those files and their bytes.

Examples:
  $ docsctl store gc --dry-run
  $ docsctl store gc --keep 20 --json
`,
    )
    .action(async (options: { keep: string; dryRun?: boolean }, command: Command) => {
      const session = getSession(command);
      const keepCommits = Number(options.keep);
      if (!Number.isInteger(keepCommits) || keepCommits < 1) throw new UsageError(`--keep expects a positive integer, got "${options.keep}"`);
      const dryRun = options.dryRun === true;
      const { gc } = await import('../../store/index.js');
      const result = await gc(localDir(session), { keepCommits, dryRun });
      if (session.format === 'json' || session.format === 'yaml') await session.printObject(result, []);
      const counts = `${result.removedCommits} commit(s), ${result.removedObjects} object(s), ${result.removedTemps} temporary file(s) (${result.removedBytes} bytes)`;
      await session.info(dryRun ? `dry run: gc would remove ${counts}; nothing was removed` : `Removed ${counts}`);
    });

  store
    .command('unlock')
    .description('Remove the writer lock left by a process that is gone (a live holder is refused unless --force)')
    .option('--force', 'remove it even if its holder looks alive')
    .action(async (options: { force?: boolean }, command: Command) => {
      const session = getSession(command);
      const dir = localDir(session);
      await session.confirm(`Remove the lock of the store at ${dir}? Only do this when no docsctl process is writing`);
      const { unlock } = await import('../../store/index.js');
      const result = await unlock(dir, { force: Boolean(options.force) });
      const owner = result.owner ? ` (held by pid ${result.owner.pid}${result.owner.command ? `, ${result.owner.command}` : ''})` : '';
      await session.info(result.removed ? `Lock removed${owner}` : 'The store was not locked');
    });
}
