/**
 * The CLI: `main(argv, ctx)` builds the command tree, runs one command and
 * returns the exit code. It never exits the process and never writes outside
 * `ctx.io`; `bin/docsctl.js` sets the exit code. Errors become one line on
 * stderr (plus the stack with --debug) and the documented exit code.
 */
import { Command, CommanderError, Help, Option } from 'commander';
import { DocsctlError, ExitCode, exitCodeFor } from '../api/errors.js';
import { forStderr } from '../output/sanitize.js';
import { type CommandModule, commandGroups, groupDescriptions, inGroupOrder, loadCommandModules } from './commands/index.js';
import { loadToolCommands, toolCommands } from './commands/tools.js';
import type { CliContext } from './context.js';
import { OutputClosedError, SilentExit } from './io.js';
import { normaliseJsonFlag } from './json-flag.js';
import { parseShape } from '../output/shape.js';
import type { GlobalFlags, Session } from './session.js';

const ROOT_HELP = `
Modes:
  local (default)  every command runs against a JSON-file store on disk (--store, DOCSCTL_STORE)
  remote           with --endpoint URL (DOCSCTL_ENDPOINT) and --token (DOCSCTL_TOKEN), against any /v1 server

Get started:
  $ docsctl init --org "Acme Docs"        create a local store with an organization
  $ docsctl space create --title Handbook
  $ docsctl space list
  $ docsctl serve --port 4000             serve the same store as the /v1 API

Exit codes: 0 ok, 1 error, 2 usage/validation, 3 auth, 4 not found, 5 conflict,
            6 network, 7 rate limited, 74 store damaged, 130 cancelled
`;

/** Global options that take a value (to find the command word in argv). */
const VALUE_OPTIONS = new Set(['--store', '--endpoint', '--token', '--profile', '--format', '-o', '--query', '--columns']);

/** The first command word of argv (`space` in `docsctl --json space list`), or the one after `help`. */
export function commandWord(argv: readonly string[]): string | undefined {
  return commandWords(argv, 2)[0];
}

/** Up to `most` words of argv that are not options or their values (`help` first left out): command words, then positional arguments. */
function commandWords(argv: readonly string[], most: number): string[] {
  const words: string[] = [];
  for (let i = 0; i < argv.length && words.length < most; i++) {
    const arg = argv[i] as string;
    if (arg === '--') break;
    if (arg.startsWith('-')) {
      if (VALUE_OPTIONS.has(arg)) i++;
      continue;
    }
    words.push(arg);
  }
  return words[0] === 'help' ? words.slice(1) : words;
}

/**
 * The operation commands of the invoked group that argv names: those whose words after
 * the group start argv's (`site tree` for `docsctl site tree SITE`), or every one when
 * none does (the group's help, a misspelt command: commander lists them or suggests
 * one). Registering a command costs its options (~100 under `site`: a few ms of every
 * `site` command, for commands it does not run).
 */
export function namedSpecs<S extends { command: string; aliases?: readonly string[] }>(specs: readonly S[], argv: readonly string[]): readonly S[] {
  const words = commandWords(argv, 4).slice(1);
  const named = specs.filter((spec) => {
    const path = spec.command.split(' ').slice(1);
    if (path.length === 0 || path.length > words.length) return false;
    return path.every((word, i) => words[i] === word || (i === path.length - 1 && (spec.aliases?.includes(words[i] as string) ?? false)));
  });
  if (named.length === 0) return specs;
  // With the commands under a named one (`space fields` has `space fields set`): its help lists them.
  const prefixes = named.map((spec) => `${spec.command} `);
  return specs.filter((spec) => named.includes(spec) || prefixes.some((prefix) => spec.command.startsWith(prefix)));
}

/**
 * The command group argv names (`space` in `docsctl space list`), `everything` for
 * `completion` (it needs the whole tree), or undefined: only that group's command
 * modules are loaded and registered (the others are listed by name and description).
 */
export function invokedGroup(argv: readonly string[]): string | undefined {
  const word = commandWord(argv);
  // A script's question for names (`completion bash --names s`) needs no command tree.
  if (word === 'completion') return argv.includes('--names') ? undefined : EVERYTHING;
  return word !== undefined && commandGroups.has(word) ? word : undefined;
}

const EVERYTHING = '*';

/** The command modules `buildProgram` needs for argv (see invokedGroup). */
export async function commandModulesFor(argv: readonly string[]): Promise<CommandModule[]> {
  const group = invokedGroup(argv);
  if (group === undefined) return [];
  return loadCommandModules(group === EVERYTHING ? undefined : group);
}

/** What runs commands (src/cli/runtime.ts): loaded only when argv names a command. */
type CommandRuntime = typeof import('./runtime.js');

/** What `buildProgram` registers in full: the invoked group's command modules and tool command (src/cli/commands/tools.ts). */
export interface LoadedCommands {
  modules: readonly CommandModule[];
  tools: ReadonlyMap<string, (program: Command, getSession: (command: Command) => Session) => void>;
  /** Present when a module or tool is loaded: nothing else can run. */
  runtime?: CommandRuntime;
}

/** The commands argv needs loaded: its group's modules, its tool command, or all of them for `completion`. */
export async function commandsFor(argv: readonly string[]): Promise<LoadedCommands> {
  const word = commandWord(argv);
  const everything = invokedGroup(argv) === EVERYTHING;
  const tool = everything || toolCommands.some((tool) => tool.name === word);
  const [modules, tools, runtime] = await Promise.all([
    commandModulesFor(argv),
    tool ? loadToolCommands(everything ? undefined : new Set([word as string])) : new Map(),
    tool || invokedGroup(argv) !== undefined ? import('./runtime.js') : undefined,
  ]);
  return { modules, tools, runtime };
}

/** Help terms of the stand-ins for tool commands that were not loaded (see registerTool). */
const stubTerms = new WeakMap<Command, string>();

export function buildProgram(ctx: CliContext, sessions: Session[], argv: readonly string[], loaded: LoadedCommands): Command {
  const { modules, tools, runtime } = loaded;
  const program = new Command('docsctl')
    .description('Administer a documentation platform (GitBook /v1 API): locally, remotely, or as an emulator.')
    .version(ctx.version, '-V, --version', 'print the version')
    .addOption(new Option('--store <dir>', 'local store directory').env('DOCSCTL_STORE'))
    .addOption(new Option('--endpoint <url>', 'remote API endpoint (selects remote mode)').env('DOCSCTL_ENDPOINT'))
    .addOption(new Option('--token <token>', 'API token').env('DOCSCTL_TOKEN'))
    .addOption(new Option('--profile <name>', 'configuration profile').env('DOCSCTL_PROFILE'))
    .option('--json [fields]', 'print JSON (same as --format json); --json id,title keeps only those fields')
    .option('--query <expr>', 'print the result of a JMESPath expression on the answer (JSON unless --format says otherwise)')
    .addOption(new Option('-o, --format <format>', 'output format (wide: a table with every column)').choices(['table', 'wide', 'tsv', 'json', 'yaml', 'ids', 'markdown']))
    .option('--columns <names>', 'the table/TSV columns to print, in order (e.g. id,title,updated)')
    .option('--no-input', 'never prompt; fail when input is missing')
    .option('-y, --yes', 'confirm destructive actions without asking')
    .option('--debug', 'log requests and show stack traces')
    .addHelpText('after', ROOT_HELP)
    // Leaf help lists the global options too (--store, --format, --json, --query…).
    .configureHelp({
      showGlobalOptions: true,
      subcommandTerm(this: Help, cmd: Command) {
        return stubTerms.get(cmd) ?? Help.prototype.subcommandTerm.call(this, cmd);
      },
    })
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => ctx.io.out.write(text),
      writeErr: (text) => ctx.io.err.write(text),
    });

  const getSession = (command: Command): Session => {
    // Only a loaded module or tool command has an action that asks for a session (commandsFor loads the runtime with it).
    if (!runtime) throw new Error('no command runtime loaded');
    const session = new runtime.Session(ctx, command.optsWithGlobals() as GlobalFlags);
    sessions.push(session);
    return session;
  };

  // Output options are checked before any command runs, so a typo never follows a write.
  program.hook('preAction', async (_program, action) => {
    const flags = action.optsWithGlobals() as GlobalFlags;
    await parseShape(flags.json, flags.query);
  });

  // A tool command that was not loaded is listed (same term and description) but has no subcommands or action.
  const registerTool = (tool: (typeof toolCommands)[number]) => {
    const register = tools.get(tool.name);
    if (register) register(program, getSession);
    else stubTerms.set(program.command(tool.name).description(tool.description), tool.term);
  };
  for (const tool of toolCommands) if (tool.first) registerTool(tool);
  // Only the invoked group gets its subcommands (loading and registering ~all commands costs
  // start-up time); the others are listed by name and description for help and suggestions.
  const invoked = invokedGroup(argv);
  runtime?.registerOperationCommands(
    program,
    invoked === EVERYTHING ? inGroupOrder(modules.flatMap((module) => module.specs)) : namedSpecs(inGroupOrder(modules.flatMap((module) => module.specs).filter((spec) => spec.command.split(' ')[0] === invoked)), argv),
    groupDescriptions,
    getSession,
  );
  for (const group of commandGroups) {
    if (group !== invoked && invoked !== EVERYTHING) program.command(group).description(groupDescriptions[group] ?? '');
  }
  for (const module of modules) module.register?.(program, getSession);
  for (const tool of toolCommands) if (!tool.first) registerTool(tool);

  // Every subcommand reports parse errors through the same exitOverride/output.
  const inherit = (command: Command) => {
    for (const sub of command.commands) {
      sub.exitOverride().configureOutput({
        writeOut: (text) => ctx.io.out.write(text),
        writeErr: (text) => ctx.io.err.write(text),
      });
      sub.showSuggestionAfterError(true);
      inherit(sub);
    }
  };
  inherit(program);
  return program;
}

/** The session prints JSON (an unknown --format is not JSON). */
function wantsJson(session: Session): boolean {
  try {
    return session.format === 'json';
  } catch {
    return false;
  }
}

/** The one-line error on stderr: credentials in URLs redacted and control characters made visible (it may quote input). */
function formatError(error: unknown, debug: boolean): string {
  if (error instanceof DocsctlError) {
    const hint = error.hint ? ` (${error.hint})` : '';
    // The objects an ambiguous or unknown name could mean, one a line below the error (cli/names.ts).
    const details = (error as { detailLines?: () => string[] }).detailLines?.().map((line) => `${line}\n`).join('') ?? '';
    return forStderr(`error: ${error.message}${hint}\n${details}${debug && error.stack ? `${error.stack}\n` : ''}`);
  }
  const message = error instanceof Error ? error.message : String(error);
  const stack = debug && error instanceof Error && error.stack ? `${error.stack}\n` : '';
  return forStderr(`error: ${message} (this is a bug in docsctl; rerun with --debug for details)\n${stack}`);
}

/**
 * `docsctl help space list` → `docsctl space list --help`: commander's help command
 * goes one level deep only, and would show the help of `space`.
 */
export function helpToFlag(argv: readonly string[]): readonly string[] {
  const words = argv.slice(1);
  if (argv[0] !== 'help' || words.length < 2 || words.some((w) => w.startsWith('-'))) return argv;
  return [...words, '--help'];
}

/** `docsctl export org -o FILE`: after `export`, -o names the output file (elsewhere it is --format). */
export function exportOutputFlag(argv: readonly string[]): readonly string[] {
  if (argv[0] !== 'export') return argv;
  return argv.map((arg) => (arg === '-o' ? '--output' : /^-o[^=]/.test(arg) ? `--output=${arg.slice(2)}` : arg));
}

export async function main(rawArgv: readonly string[], ctx: CliContext): Promise<number> {
  const argv = exportOutputFlag(helpToFlag(rawArgv));
  const sessions: Session[] = [];
  const program = buildProgram(ctx, sessions, argv, await commandsFor(argv));
  const debug = argv.includes('--debug');
  try {
    if (argv.length === 0) {
      program.outputHelp();
      return ExitCode.ok;
    }
    await program.parseAsync(normaliseJsonFlag(program, argv), { from: 'user' });
    return ExitCode.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') {
        return ExitCode.ok;
      }
      // Commander already printed its message on stderr.
      return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    }
    // A closed stdout, or --dry-run stopping before its first change: nothing to report.
    if (error instanceof OutputClosedError || (error instanceof DocsctlError && error.exitCode === ExitCode.ok)) return ExitCode.ok;
    if (error instanceof SilentExit) return error.exitCode;
    ctx.io.err.write(formatError(error, debug));
    // With --json an error that carries data (a name's candidates) prints it on stdout too.
    const data = error instanceof DocsctlError ? (error as { toJSON?: () => unknown }).toJSON?.() : undefined;
    if (data !== undefined && sessions.some(wantsJson)) ctx.io.out.write(`${JSON.stringify(data)}\n`);
    return exitCodeFor(error);
  } finally {
    await Promise.all(sessions.map((session) => session.close().catch(() => undefined)));
  }
}
