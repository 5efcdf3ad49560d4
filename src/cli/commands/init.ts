/**
 * `docsctl init`: creates a local store with an organization, an admin user and
 * an API token. On an existing store it fails and changes nothing.
 */
import type { Command } from 'commander';
import { UsageError } from '../../api/errors.js';
import type { Session } from '../session.js';

interface InitOptions {
  org?: string;
  name?: string;
  email?: string;
  dryRun?: boolean;
}

export function registerInitCommand(program: Command, getSession: (command: Command) => Session): void {
  program
    .command('init')
    .description('Create a local store with an organization, an admin user and an API token')
    .option('--org <title>', 'organization title', 'My Organization')
    .option('--name <name>', 'display name of the admin user', 'Admin')
    .option('--email <email>', 'e-mail of the admin user', 'admin@example.com')
    .option('--dry-run', 'say what would be created (and refuse as init would); create nothing')
    .addHelpText(
      'after',
      `
The token is printed once; it authenticates clients of "docsctl serve" and the
--token option. It is stored only as a hash.

Examples:
  $ docsctl init --org "Acme Docs"
  $ docsctl init --store ./docs-store --json | jq -r .token
`,
    )
    .action(async (options: InitOptions, command: Command) => {
      const session = getSession(command);
      await runInit(session, options);
    });
}

export async function runInit(session: Session, options: InitOptions): Promise<void> {
  if (session.settings.mode === 'remote') {
    throw new UsageError('init creates a local store; it cannot run against --endpoint', {
      hint: 'unset DOCSCTL_ENDPOINT or pass --store DIR',
    });
  }
  const dir = session.settings.storeDir;
  if (options.dryRun) {
    await planInit(session, dir, options);
    return;
  }
  const [{ createStore }, { bootstrap }] = await Promise.all([import('../../store/open.js'), import('../../domain/bootstrap.js')]);
  const { existsSync } = await import('node:fs');
  const existedBefore = existsSync(dir);
  const store = createStore(dir);
  let result: Awaited<ReturnType<typeof bootstrap>>;
  try {
    result = await store.transact(
      (tx) =>
        bootstrap(tx, {
          organizationTitle: options.org ?? 'My Organization',
          userName: options.name ?? 'Admin',
          email: options.email ?? 'admin@example.com',
          clock: session.ctx.clock,
          ids: session.ctx.ids,
          origin: session.origin,
        }),
      { command: 'docsctl init' },
    );
  } catch (error) {
    // Nothing half-written: remove the store this command just created.
    await store.close();
    await removeCreatedStore(dir, existedBefore);
    throw error;
  }
  try {
    if (session.format === 'json' || session.format === 'yaml') {
      await session.printObject(result, []);
      return;
    }
    if (session.format === 'ids') {
      await session.printText(result.organization.id);
      return;
    }
    await session.printText(
      [
        `Created a store at ${dir}`,
        `organization  ${result.organization.id}  ${result.organization.title}`,
        `user          ${result.user.id}  ${result.user.displayName} <${result.user.email ?? ''}>`,
        `token         ${result.token}`,
      ].join('\n'),
    );
    await session.info('Keep the token: it is shown only once (clients of "docsctl serve" use it).');
  } finally {
    await store.close();
  }
}

/** Removes a store created by a failed init: the directory itself, or (if it existed, empty) its content. */
async function removeCreatedStore(dir: string, existedBefore: boolean): Promise<void> {
  const { readdir, rm } = await import('node:fs/promises');
  const { join } = await import('node:path');
  if (!existedBefore) {
    await rm(dir, { recursive: true, force: true });
    return;
  }
  for (const entry of await readdir(dir)) await rm(join(dir, entry), { recursive: true, force: true });
}

/**
 * `init --dry-run`: what init would create, after the same refusal an existing
 * store gets (exit 5). The token is not made up: it exists only once created.
 */
async function planInit(session: Session, dir: string, options: InitOptions): Promise<void> {
  const { existsSync, readdirSync } = await import('node:fs');
  const { join, resolve } = await import('node:path');
  const { StoreExistsError } = await import('../../store/errors.js');
  const root = resolve(dir);
  if (existsSync(join(root, 'FORMAT'))) throw new StoreExistsError(root);
  if (existsSync(root) && readdirSync(root).length > 0) {
    throw new StoreExistsError(root, `${root} is not empty and is not a docsctl store`);
  }
  const plan = {
    dryRun: true,
    store: root,
    organization: { title: options.org ?? 'My Organization' },
    user: { displayName: options.name ?? 'Admin', email: options.email ?? 'admin@example.com' },
  };
  if (session.format === 'json' || session.format === 'yaml') {
    await session.printObject(plan, []);
  } else {
    await session.printText(
      [
        `Would create a store at ${root}`,
        `organization  ${plan.organization.title}`,
        `user          ${plan.user.displayName} <${plan.user.email}>`,
        'token         (made when the store is created)',
      ].join('\n'),
    );
  }
  await session.info('dry run: nothing was created');
}
