/**
 * The hand-written top-level commands (init, auth, api, serve, config, store, git,
 * apply, diff, export, completion), loaded like the data-declared groups (index.ts): a command loads and
 * registers only the one it names. The others are registered as stubs that carry the
 * real command's help term and description, so `docsctl --help` and "did you mean"
 * suggestions are unchanged (test/cli/command-groups.test.ts compares each stub with
 * its real command). Loading and registering all of them cost every command ~10 ms.
 */
import type { Command } from 'commander';
import type { Session } from '../session.js';

type Register = (program: Command, getSession: (command: Command) => Session) => void;

export interface ToolCommand {
  readonly name: string;
  /** How the root help lists it (commander's subcommand term: name, `[options]`, arguments). */
  readonly term: string;
  readonly description: string;
  /** Registered before the data-declared groups (init) or after them (the rest). */
  readonly first?: true;
  readonly load: () => Promise<Register>;
}

/** In the order the root help lists them. */
export const toolCommands: readonly ToolCommand[] = [
  {
    name: 'init',
    term: 'init [options]',
    description: 'Create a local store with an organization, an admin user and an API token',
    first: true,
    load: async () => (await import('./init.js')).registerInitCommand,
  },
  {
    name: 'auth',
    term: 'auth',
    description: 'Log in to an endpoint (or a local store) and see who commands act as',
    load: async () => (await import('./auth.js')).registerAuthCommands,
  },
  {
    name: 'api',
    term: 'api [options] [method] [url-path]',
    description: 'Send any API operation and print its JSON answer',
    load: async () => (await import('./api.js')).registerApiCommand,
  },
  {
    name: 'serve',
    term: 'serve [options] [command...]',
    description: 'Serve the local store as the /v1 API (a stateful emulator for CI and API clients)',
    load: async () => (await import('./serve.js')).registerServeCommand,
  },
  {
    name: 'config',
    term: 'config',
    description: 'Profiles: local stores and remote endpoints',
    load: async () => (await import('./config.js')).registerConfigCommands,
  },
  {
    name: 'store',
    term: 'store',
    description: 'Maintenance of the local store',
    load: async () => (await import('./store.js')).registerStoreCommands,
  },
  {
    name: 'git',
    term: 'git',
    description: 'Sync spaces with Git repositories (GitBook Git Sync layout)',
    load: async () => (await import('./git.js')).registerGitCommands,
  },
  {
    name: 'apply',
    term: 'apply [options]',
    description: 'Make an organization what a file says: its settings, members, collections, spaces, teams, custom fields, sites, permissions',
    load: async () => (await import('./apply.js')).registerApplyCommand,
  },
  {
    name: 'diff',
    term: 'diff [options]',
    description: 'Print what apply -f would change (exit 0: nothing, 1: something)',
    load: async () => (await import('./apply.js')).registerDiffCommand,
  },
  {
    name: 'export',
    term: 'export',
    description: 'Write an organization as a file for apply -f',
    load: async () => (await import('./apply.js')).registerExportCommand,
  },
  {
    name: 'completion',
    term: 'completion [options] <shell>',
    description: 'Print a shell completion script (commands, flags, enum values)',
    load: async () => (await import('./completion.js')).registerCompletionCommand,
  },
];

/** The registrars of the tool commands `names` (every one for undefined), loaded. */
export async function loadToolCommands(names?: ReadonlySet<string>): Promise<Map<string, Register>> {
  const wanted = toolCommands.filter((tool) => names === undefined || names.has(tool.name));
  const loaded = await Promise.all(wanted.map(async (tool) => [tool.name, await tool.load()] as const));
  return new Map(loaded);
}
