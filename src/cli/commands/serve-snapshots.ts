/**
 * `docsctl serve snapshot save|restore|list|delete NAME` and `docsctl serve reset`: test
 * isolation for a suite running against `serve` (or a local store): the emulator routes of
 * src/api/routes/emulator.ts, sent through the session's transport like any operation, so
 * they act on the local store by default and on a served one with --endpoint /
 * DOCSCTL_ENDPOINT (what `serve --exec` sets). The store's owner only.
 */
import type { Command } from 'commander';
import type { RouteId } from '../../api/route-id.js';
import { columns } from '../../output/columns.js';
import { UsageError } from '../../api/errors.js';
import type { Session } from '../session.js';

type GetSession = (command: Command) => Session;

/** `serve --exec -- reset` reaches here (commander dispatches the word): say how to run such a command. */
function notAfterExec(command: Command): void {
  const serve = command.parent?.name() === 'serve' ? command.parent : command.parent?.parent;
  if ((serve?.opts() as { exec?: boolean } | undefined)?.exec) {
    throw new UsageError(`--exec cannot run a command named "${command.name()}" (a serve subcommand)`, { hint: `give its path: --exec -- ./${command.name()}` });
  }
}

async function send(session: Session, route: RouteId, input: { params?: Record<string, string>; body?: unknown }) {
  const transport = await session.transport();
  return (await transport.request(route, input)).body;
}

export function registerServeSnapshotCommands(serve: Command, getSession: GetSession): void {
  const snapshot = serve
    .command('snapshot')
    .description("Named snapshots of the whole store (O(1): a snapshot is the store's commit, not a copy)");

  // save and restore: NAME in, the snapshot out.
  const named: Array<[string, string, RouteId, string]> = [
    ['save', 'Save the whole state under NAME (replacing a snapshot of that name)', 'saveEmulatorSnapshot', 'docsctl serve snapshot save clean'],
    ['restore', 'Make the whole store what snapshot NAME saved (the snapshots stay)', 'restoreEmulatorSnapshot', 'docsctl serve snapshot restore clean'],
  ];
  for (const [verb, description, route, example] of named) {
    snapshot
      .command(verb)
      .description(description)
      .argument('<name>', 'snapshot name (letters, digits, ".", "_", "-")')
      .addHelpText('after', `\nExamples:\n  $ ${example}\n  $ DOCSCTL_ENDPOINT=http://127.0.0.1:4000 ${example}`)
      .action(async (name: string, _options: unknown, command: Command) => {
        notAfterExec(command);
        const session = getSession(command);
        const input = route === 'saveEmulatorSnapshot' ? { body: { name } } : { params: { snapshotName: name } };
        await session.printObject(await send(session, route, input), columns.emulatorSnapshot);
      });
  }

  snapshot
    .command('list')
    .alias('ls')
    .description('List the named snapshots')
    .addHelpText('after', '\nExamples:\n  $ docsctl serve snapshot list\n  $ docsctl serve snapshot list --json name')
    .action(async (_options: unknown, command: Command) => {
      notAfterExec(command);
      const session = getSession(command);
      const transport = await session.transport({ manyRequests: true });
      const items: unknown[] = [];
      let page: string | undefined;
      do {
        const answer = (await transport.request('listEmulatorSnapshots', { query: { limit: '1000', ...(page ? { page } : {}) } })).body as { items: unknown[]; next?: { page: string } };
        items.push(...answer.items);
        page = answer.next?.page;
      } while (page !== undefined);
      await session.printList(items, columns.emulatorSnapshot);
    });

  snapshot
    .command('delete')
    .description('Delete snapshot NAME')
    .argument('<name>', 'snapshot name')
    .action(async (name: string, _options: unknown, command: Command) => {
      notAfterExec(command);
      const session = getSession(command);
      await send(session, 'deleteEmulatorSnapshot', { params: { snapshotName: name } });
      await session.info(`Deleted snapshot ${name}`);
    });

  serve
    .command('reset')
    .description('Put the whole store back to the state serve --seed started from')
    .addHelpText('after', '\nExamples:\n  $ docsctl serve reset   # between test cases, against DOCSCTL_ENDPOINT')
    .action(async (_options: unknown, command: Command) => {
      notAfterExec(command);
      const session = getSession(command);
      await send(session, 'resetEmulator', {});
      await session.info('Reset to the seed');
    });
}
