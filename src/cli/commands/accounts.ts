/**
 * Local accounts (src/domain/accounts.ts): `org create`, `user create`,
 * `token create|list|revoke`. Not /v1 operations, so they work on a local store
 * only (the one `serve` serves included: the store's lock lets them run while it
 * serves). They act as the --token user, or as the store's owner without one.
 */
import type { Command } from 'commander';
import { ApiError, UsageError } from '../../api/errors.js';
import type { AccountContext } from '../../domain/accounts.js';
import { columns } from '../../output/columns.js';
import type { Session } from '../session.js';

type GetSession = (command: Command) => Session;

/** Runs `fn` in one transaction of the local store, as the acting user. */
async function inAccountTx<T>(session: Session, what: string, fn: (ctx: AccountContext) => T): Promise<T> {
  if (session.settings.mode === 'remote') {
    throw new UsageError(`${what} works on a local store only (the /v1 API has no such operation)`, {
      hint: 'run it with --store DIR on the machine that holds the store, also while "docsctl serve" serves it',
    });
  }
  const [{ openStore }, { storeOwner, userIdForToken }] = await Promise.all([
    import('../../store/open.js'),
    import('../../domain/auth.js'),
  ]);
  const store = openStore(session.settings.storeDir);
  try {
    const reader = store.read();
    const token = session.settings.token;
    const actor = token !== undefined ? userIdForToken(reader, token) : storeOwner(reader);
    if (actor === undefined) {
      throw token !== undefined
        ? new ApiError(401, 'Invalid API token for this store', { hint: 'Check --token / DOCSCTL_TOKEN.' })
        : new ApiError(401, `The store at ${store.location} has no owner`, { hint: 'Run "docsctl init" to initialize it.' });
    }
    return await store.transact(
      (tx) => fn({ tx, actor, clock: session.ctx.clock, ids: session.ctx.ids, origin: session.origin }),
      { command: `docsctl ${what}` },
    );
  } finally {
    await store.close();
  }
}

const examples = (...lines: string[]) => `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`;

/** `org create` on the `org` group (when that group is the one invoked). */
export function registerOrgCreate(group: Command, getSession: GetSession): void {
  group
    .command('create')
    .description('Create an organization in the local store; you become its admin')
    .requiredOption('--title <title>', 'organization title (2 to 255 characters)')
    .addHelpText('after', examples('docsctl org create --title "Acme Partners"', 'docsctl org create --title Lab --format ids'))
    .action(async (options: { title: string }, command: Command) => {
      const session = getSession(command);
      const { createOrganization } = await import('../../domain/accounts.js');
      const org = await inAccountTx(session, 'org create', (ctx) => createOrganization(ctx, options));
      await session.printObject(org, columns.organization);
    });
}

/** `user create` on the `user` group. */
export function registerUserCreate(group: Command, getSession: GetSession): void {
  group
    .command('create')
    .description('Create a user in the local store, optionally as a member of an organization')
    .requiredOption('--email <email>', 'e-mail address (unique in the store)')
    .option('--name <name>', 'display name (default: the part of the e-mail before @)')
    .option('--org <organizationId>', 'make the user a member of this organization (you must be its admin); with --role, default: your only organization')
    .option('--role <role>', 'organization role: admin, create, edit, review, comment, read or guest (default read)')
    .addHelpText(
      'after',
      examples(
        'docsctl user create --email ada@acme.io --name "Ada Lovelace" --org 9fXk2hQ --role edit',
        'docsctl token create --user "$(docsctl user create --email ci@acme.io --org 9fXk2hQ --format ids)"',
      ),
    )
    .action(async (options: { email: string; name?: string; org?: string; role?: string }, command: Command) => {
      const session = getSession(command);
      const { createUser, parseRole } = await import('../../domain/accounts.js');
      const role = options.role === undefined ? undefined : parseRole(options.role);
      // A role is a role in an organization: without --org, the only one (or DOCSCTL_ORG), as other commands do.
      const organization =
        options.org ??
        (role !== undefined && session.settings.mode !== 'remote' ? await (await import('../operation.js')).resolveOrganization(session, undefined) : undefined);
      const user = await inAccountTx(session, 'user create', (ctx) =>
        createUser(ctx, { email: options.email, name: options.name, organization, role }),
      );
      await session.printObject(user, [...columns.user, { header: 'ROLE', get: (item) => (item.role === null ? 'guest' : (item.role ?? '')) }]);
    });
}

const tokenColumns = [
  { header: 'ID', get: (item: Record<string, unknown>) => item.id },
  { header: 'LABEL', get: (item: Record<string, unknown>) => item.label },
  { header: 'USER', get: (item: Record<string, unknown>) => item.user },
  { header: 'CREATED', get: (item: Record<string, unknown>) => item.createdAt },
];

export function registerTokenCommands(program: Command, getSession: GetSession): void {
  const token = program.command('token').description('API tokens of the local store (printed once, stored as a hash)');

  token
    .command('create')
    .description('Issue an API token for you (or, as the store owner, for --user); it is printed once')
    .option('--user <user>', 'user id or e-mail (default: you)')
    .option('--label <label>', 'what the token is for', 'cli')
    .addHelpText(
      'after',
      examples(
        'docsctl token create --label laptop',
        'export DOCSCTL_TOKEN="$(docsctl token create --user ci@acme.io --label ci --format ids)"',
      ),
    )
    .action(async (options: { user?: string; label: string }, command: Command) => {
      const session = getSession(command);
      const { createTokenFor } = await import('../../domain/accounts.js');
      const created = await inAccountTx(session, 'token create', (ctx) => createTokenFor(ctx, options));
      if (session.format === 'ids') {
        // The token itself is what a script needs from `--format ids`.
        await session.printText(created.token);
        return;
      }
      await session.printObject(created, [...tokenColumns, { header: 'TOKEN', get: (item) => item.token }]);
      if (session.format === 'table') await session.info('Keep the token: it is shown only once.');
    });

  token
    .command('list')
    .alias('ls')
    .description("List your tokens (or, as the store owner, --user's): ids and labels, never the tokens")
    .option('--user <user>', 'user id or e-mail (default: you)')
    .addHelpText('after', examples('docsctl token list', 'docsctl token list --user ci@acme.io --json'))
    .action(async (options: { user?: string }, command: Command) => {
      const session = getSession(command);
      const { listTokens } = await import('../../domain/accounts.js');
      const tokens = await inAccountTx(session, 'token list', (ctx) => listTokens(ctx, options));
      await session.printList(tokens, tokenColumns);
      if (tokens.length === 0) await session.hint('No tokens.');
    });

  token
    .command('revoke')
    .description('Revoke a token by its id (see "token list"); it stops working at once')
    .argument('<tokenId>', 'token id (16 hex characters)')
    .addHelpText('after', examples('docsctl token revoke 3f9a0c1d2e4b5a69'))
    .action(async (tokenId: string, _options: unknown, command: Command) => {
      const session = getSession(command);
      const { revokeToken } = await import('../../domain/accounts.js');
      const revoked = await inAccountTx(session, 'token revoke', (ctx) => revokeToken(ctx, tokenId));
      if (session.format === 'json' || session.format === 'yaml') await session.printObject(revoked, tokenColumns);
      else await session.info(`Revoked token ${revoked.id} (${revoked.label}) of ${revoked.user}`);
    });
}
