/**
 * `docsctl config …`: profiles. A profile is a local store (`--store DIR`) or a
 * remote endpoint with a token (`--endpoint URL --token TOKEN`), with an
 * optional default organization. The file is written with mode 0600.
 */
import type { Command } from 'commander';
import { UsageError } from '../../api/errors.js';
import { type ConfigFile, type Profile, configFilePath, profileStorePath, readConfig, updateConfig } from '../config.js';
import type { Session } from '../session.js';

const redact = (token: string | undefined) => (token ? `${token.slice(0, 7)}…${token.slice(-4)}` : undefined);

interface SetOptions {
  store?: string;
  endpoint?: string;
  token?: string;
  tokenStdin?: boolean;
  org?: string;
  use?: boolean;
  dryRun?: boolean;
}

/** The value of an option typed on the command line, by this command or a parent. */
function fromCommandLine(command: Command, name: string): string | undefined {
  for (let current: Command | null = command; current; current = current.parent) {
    if (current.getOptionValueSource(name) === 'cli') return current.getOptionValue(name) as string | undefined;
  }
  return undefined;
}

async function readStdin(session: Session): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of session.ctx.io.in) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8').trim();
}

// eslint-disable-next-line max-lines-per-function -- registers the subcommands of `docsctl config`, one chained commander statement each
export function registerConfigCommands(program: Command, getSession: (command: Command) => Session): void {
  const config = program.command('config').description('Profiles: local stores and remote endpoints');

  config
    .command('list')
    .alias('ls')
    .description('List profiles (the current one is marked)')
    .action(async (_options: unknown, command: Command) => {
      const session = getSession(command);
      const file = readConfig(session.ctx.env);
      const rows = Object.entries(file.profiles ?? {}).map(([name, profile]) => ({
        name,
        current: name === file.currentProfile ? '*' : '',
        mode: profile.endpoint ? 'remote' : 'local',
        target: profile.endpoint ?? profile.store ?? '',
        org: profile.org ?? '',
      }));
      await session.printList(rows, [
        { header: '', get: (r) => r.current },
        { header: 'NAME', get: (r) => r.name },
        { header: 'MODE', get: (r) => r.mode },
        { header: 'TARGET', get: (r) => r.target },
        { header: 'ORG', get: (r) => r.org },
      ]);
      if (rows.length === 0) await session.hint('No profiles yet: docsctl config set NAME --store DIR | --endpoint URL --token TOKEN');
    });

  config
    .command('set')
    .description('Create or change a profile')
    .argument('<name>', 'profile name')
    .option('--store <dir>', 'local store directory')
    .option('--endpoint <url>', 'remote API endpoint')
    .option('--token <token>', 'API token for the endpoint')
    .option('--token-stdin', 'read the token from stdin (keeps it out of shell history)')
    .option('--org <organizationId>', 'default organization')
    .option('--use', 'make it the current profile')
    .option('--dry-run', 'print the profile as it would be saved (token redacted); write nothing')
    .addHelpText(
      'after',
      `
Examples:
  $ docsctl config set work --endpoint https://api.gitbook.com --token-stdin --use < token.txt
  $ docsctl config set scratch --store ./scratch-store
`,
    )
    .action(async (name: string, ownOptions: SetOptions, command: Command) => {
      const session = getSession(command);
      // --store/--endpoint/--token are also global options, which commander gives to the
      // program: take them from the command line (not from DOCSCTL_* variables).
      const options: SetOptions = {
        ...ownOptions,
        store: ownOptions.store ?? fromCommandLine(command, 'store'),
        endpoint: ownOptions.endpoint ?? fromCommandLine(command, 'endpoint'),
        token: ownOptions.token ?? fromCommandLine(command, 'token'),
      };
      if (options.store && options.endpoint) throw new UsageError('A profile is either --store or --endpoint, not both');
      const token = options.tokenStdin ? await readStdin(session) : options.token;
      if (options.endpoint) {
        try {
          new URL(options.endpoint);
        } catch {
          throw new UsageError(`--endpoint expects a URL, got "${options.endpoint}"`);
        }
      }
      const change = (file: ConfigFile): ConfigFile => {
        const profiles = { ...(file.profiles ?? {}) };
        const previous: Profile = profiles[name] ?? {};
        const next: Profile = { ...previous };
        if (options.store) {
          next.store = profileStorePath(options.store);
          delete next.endpoint;
          delete next.token;
        }
        if (options.endpoint) {
          next.endpoint = options.endpoint;
          delete next.store;
        }
        if (token) next.token = token;
        if (options.org) next.org = options.org;
        profiles[name] = next;
        return { ...file, profiles, currentProfile: options.use || !file.currentProfile ? name : file.currentProfile };
      };
      if (options.dryRun) {
        const next = change(readConfig(session.ctx.env));
        const profile = next.profiles?.[name] ?? {};
        await session.printObject(
          {
            dryRun: true,
            profile: name,
            store: profile.store ?? null,
            endpoint: profile.endpoint ?? null,
            token: redact(profile.token) ?? null,
            org: profile.org ?? null,
            current: next.currentProfile === name,
            configFile: configFilePath(session.ctx.env),
          },
          ['profile', 'store', 'endpoint', 'token', 'org', 'current', 'configFile'].map((key) => ({
            header: key.toUpperCase(),
            get: (item: Record<string, unknown>) => item[key],
          })),
        );
        await session.info('dry run: the config file was not changed');
        return;
      }
      const path = await updateConfig(session.ctx.env, change);
      await session.info(`Saved profile "${name}" in ${path}`);
    });

  config
    .command('use')
    .description('Make a profile the current one')
    .argument('<name>', 'profile name')
    .action(async (name: string, _options: unknown, command: Command) => {
      const session = getSession(command);
      const file = readConfig(session.ctx.env);
      if (!file.profiles?.[name]) throw new UsageError(`Unknown profile "${name}"`, { hint: 'docsctl config list shows them' });
      await updateConfig(session.ctx.env, (current) => ({ ...current, currentProfile: name }));
      await session.info(`Now using profile "${name}"`);
    });

  config
    .command('show')
    .description('Show the settings in effect (tokens redacted)')
    .action(async (_options: unknown, command: Command) => {
      const session = getSession(command);
      const s = session.settings;
      await session.printObject(
        {
          profile: s.profileName ?? null,
          mode: s.mode,
          store: s.mode === 'local' ? s.storeDir : null,
          endpoint: s.endpoint ?? null,
          token: redact(s.token) ?? null,
          org: s.org ?? null,
          configFile: configFilePath(session.ctx.env),
        },
        ['profile', 'mode', 'store', 'endpoint', 'token', 'org', 'configFile'].map((key) => ({
          header: key.toUpperCase(),
          get: (item: Record<string, unknown>) => item[key],
        })),
      );
    });

  config
    .command('delete')
    .alias('rm')
    .description('Delete a profile (asks first; --yes without a terminal)')
    .argument('<name>', 'profile name')
    .addHelpText('after', '\nExamples:\n  $ docsctl config delete staging --yes\n')
    .action(async (name: string, _options: unknown, command: Command) => {
      const session = getSession(command);
      const file = readConfig(session.ctx.env);
      if (!file.profiles?.[name]) {
        await session.info(`Profile "${name}" did not exist: nothing to delete`);
        return;
      }
      const current = file.currentProfile === name ? ', the profile in use' : '';
      await session.confirm(`Delete profile "${name}"${current}?`);
      await updateConfig(session.ctx.env, (current) => {
        const profiles = { ...(current.profiles ?? {}) };
        delete profiles[name];
        const next = { ...current, profiles };
        if (next.currentProfile === name) delete next.currentProfile;
        return next;
      });
      await session.info(`Deleted profile "${name}"`);
    });
}
