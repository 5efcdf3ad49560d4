/**
 * `docsctl completion bash|zsh|fish`: a completion script generated from the
 * commander tree (every group, command, alias, flag and enum value), so it
 * follows the commands as they are added. The script is a table of command
 * paths; the shell walks the words typed so far to find the path, counting the
 * positional arguments (and skipping the values of flags that take one) to know
 * which argument is being typed. Where an argument or a flag takes a local path
 * (its value is named `<file>`, `<dir>`, `<path>`, `<repository>`, or ends in
 * `-file`/`-dir`: the naming rule of flags.ts) the shell completes file names;
 * where an argument names a space, collection, site, team or member, the script asks
 * `docsctl completion SHELL --names KIND --prefix TEXT` for names and ids (one list
 * request, a short timeout, nothing on error); where docsctl has nothing to offer, the
 * shell's own default completion applies.
 */
import { type Command, Option } from 'commander';
import { UsageError } from '../../api/errors.js';
import type { Session } from '../session.js';

interface Node {
  /** Command path without the program name: '' for the root, 'space list'. */
  path: string;
  words: string[];
  /** Flag → its enum values. */
  choices: Map<string, string[]>;
  /** Flags whose value is a local path. */
  pathFlags: string[];
  /** One letter per positional argument: `p` takes a local path, a NAME_ARGS letter names an object, `-` neither; a final `*` repeats the last (variadic). */
  args: string;
}

/** A value named `<file>`, `<dir>`, `<path>`, `<repository>`, `<…-file>`, `<…-dir>` is a local path (flags.ts, rule 3). */
export function takesPath(valueName: string): boolean {
  return /^(?:file|dir|path|repository)$|-(?:file|dir)$/.test(valueName.replace(/\.\.\.$/, ''));
}

const valueNameOf = (flags: string) => /[<[]([^>\]]+)[>\]]/.exec(flags)?.[1];

function flagsOf(command: Command): { flags: string[]; choices: Map<string, string[]>; pathFlags: string[] } {
  const flags: string[] = [];
  const choices = new Map<string, string[]>();
  const pathFlags: string[] = [];
  for (const option of command.options) {
    const valueName = valueNameOf(option.flags);
    if (valueName !== undefined && takesPath(valueName)) pathFlags.push(...[option.long, option.short].filter((f): f is string => f !== undefined));
    if (option.hidden) continue; // a former spelling (naming rule, flags.ts): accepted, not offered
    for (const flag of [option.long, option.short]) if (flag) flags.push(flag);
    if (option.long && option.argChoices?.length) choices.set(option.long, option.argChoices);
  }
  return { flags, choices, pathFlags };
}

/** The flags whose value is a local path, wherever they appear (one name, one meaning: flags.ts). */
const pathFlagsOf = (nodes: Node[]): string[] => [...new Set(nodes.flatMap((n) => n.pathFlags))].sort();

/** Arguments that name an object (operation.ts resolves them): the letter the script passes to `--names`. */
const NAME_ARGS: Readonly<Record<string, string>> = { spaceId: 's', collectionId: 'c', siteId: 'S', teamId: 't', userId: 'u' };
const NAME_KINDS = { s: 'space', c: 'collection', S: 'site', t: 'team', u: 'member' } as const;
/** The letters of NAME_ARGS, for the scripts' patterns. */
const NAME_LETTERS = Object.values(NAME_ARGS).join('');

const argsOf = (command: Command): string =>
  command.registeredArguments.map((arg) => (takesPath(arg.name()) ? 'p' : (NAME_ARGS[arg.name()] ?? '-'))).join('') +
  (command.registeredArguments.at(-1)?.variadic ? '*' : '');

/** The node's arguments say something to the shell (a path or a name). */
const argsMatter = (node: Node) => /[^-*]/.test(node.args);

/** Every flag of the tree that takes a value (one name, one meaning: flags.ts), so the shell skips its value when counting arguments. */
function valueFlags(program: Command): string[] {
  const found = new Set<string>();
  const visit = (command: Command) => {
    for (const option of command.options) {
      if (option.required || option.optional) for (const flag of [option.long, option.short]) if (flag) found.add(flag);
    }
    command.commands.forEach(visit);
  };
  visit(program);
  return [...found].sort();
}

/** Every command path of the tree with what may follow it. */
export function completionNodes(program: Command): Node[] {
  const globals = flagsOf(program);
  const nodes: Node[] = [];
  const visit = (command: Command, path: string) => {
    const own = flagsOf(command);
    const subs = command.commands.filter((sub) => sub.name() !== 'help');
    const names = subs.flatMap((sub) => [sub.name(), ...sub.aliases()]);
    nodes.push({
      path,
      words: [...names, ...own.flags, ...(path === '' ? [] : globals.flags)],
      choices: new Map([...globals.choices, ...own.choices]),
      pathFlags: [...new Set([...globals.pathFlags, ...own.pathFlags])],
      args: subs.length > 0 ? '' : argsOf(command),
    });
    for (const sub of subs) {
      for (const name of [sub.name(), ...sub.aliases()]) visit(sub, path ? `${path} ${name}` : name);
    }
  };
  visit(program, '');
  return nodes;
}

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

function bashScript(nodes: Node[], valueFlagList: string[]): string {
  const paths = nodes.map((n) => `    ${quote(n.path)}) return 0;;`).join('\n');
  // The flags every command has (the global ones) are written once, not in each command's line.
  const commands = nodes.filter((n) => n.path !== '');
  const everywhere = [...new Set(commands[0]?.words ?? [])].filter((w) => w.startsWith('-') && commands.every((n) => n.words.includes(w)));
  const own = (n: Node) => [...new Set(n.words)].filter((w) => n.path === '' || !everywhere.includes(w));
  const words = nodes.map((n) => `    ${quote(n.path)}) words=${quote(own(n).join(' '))};;`).join('\n');
  const choices = nodes
    .flatMap((n) => [...n.choices].map(([flag, values]) => `    ${quote(`${n.path}|${flag}`)}) words=${quote(values.join(' '))};;`))
    .join('\n');
  // One case per argument shape (`s`, `sp`…), its command paths joined: the script stays small.
  const byArgs = new Map<string, string[]>();
  for (const node of nodes.filter(argsMatter)) byArgs.set(node.args, [...(byArgs.get(node.args) ?? []), quote(node.path)]);
  const args = [...byArgs].map(([shape, paths]) => `    ${paths.join('|')}) args=${quote(shape)};;`).join('\n');
  const pathFlags = pathFlagsOf(nodes).map(quote).join('|');
  return `# docsctl completion for bash: source <(docsctl completion bash)
_docsctl_is_path() {
  case "$1" in
${paths}
  esac
  return 1
}
_docsctl_files() {
  type compopt >/dev/null 2>&1 && compopt -o filenames
  COMPREPLY=($(compgen -f -- "$1"))
}
_docsctl_names() {
  local line
  COMPREPLY=()
  while IFS= read -r line; do
    [ -n "$line" ] && COMPREPLY+=("$(printf '%q' "$line")")
  done < <("\${COMP_WORDS[0]}" completion bash --names "$1" --prefix "\${2//\\/}" 2>/dev/null)
}
_docsctl() {
  local cur prev path="" next w words="" args="" kind i n=0 skip=""
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    if [ -n "$skip" ]; then skip=""; continue; fi
    case "$w" in
      ${valueFlagList.map(quote).join('|') || "''"}) skip=1; continue;;
      -*) continue;;
    esac
    if [ -z "$path" ]; then next="$w"; else next="$path $w"; fi
    if [ "$n" -eq 0 ] && _docsctl_is_path "$next"; then path="$next"; else n=$((n + 1)); fi
  done
  case "$path|$prev" in
${choices}
  esac
  if [ -z "$words" ]; then
    case "$prev" in
      ${pathFlags || "''"}) _docsctl_files "$cur"; return 0;;
    esac
    case "$path" in
${words}
    esac
    [ -n "$path" ] && words="$words ${everywhere.join(' ')}"
    case "$cur" in
      -*) ;;
      *)
        case "$path" in
${args}
        esac
        kind="\${args:$n:1}"
        [ "$kind" = "*" ] && kind="\${args: -2:1}"
        if [ -z "$kind" ] && [ "\${args: -1}" = "*" ]; then kind="\${args: -2:1}"; fi
        if [ "$kind" = p ]; then _docsctl_files "$cur"; return 0; fi
        case "$kind" in
          [${NAME_LETTERS}]) _docsctl_names "$kind" "$cur"; return 0;;
        esac;;
    esac
  fi
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _docsctl docsctl
`;
}

function zshScript(nodes: Node[], flags: string[]): string {
  return `#compdef docsctl
# docsctl completion for zsh: source <(docsctl completion zsh)
autoload -U +X bashcompinit && bashcompinit
${bashScript(nodes, flags).replace(/^# docsctl completion for bash.*\n/, '')}`;
}

function fishScript(nodes: Node[], valueFlagList: string[]): string {
  const lines = ['# docsctl completion for fish: docsctl completion fish | source'];
  // Where the words typed so far lead: the command path and how many arguments follow it.
  lines.push('function __docsctl_is_path', '  switch $argv[1]');
  for (const node of nodes) if (node.path) lines.push(`    case ${quote(node.path)}`, '      return 0');
  lines.push('  end', '  return 1', 'end');
  lines.push('function __docsctl_walk', '  set -g __docsctl_path ""', '  set -g __docsctl_n 0', '  set -l skip 0', '  set -l tokens (commandline -opc)', '  set -e tokens[1]');
  lines.push('  for w in $tokens', '    if test $skip = 1', '      set skip 0', '      continue', '    end', '    switch $w');
  if (valueFlagList.length > 0) lines.push(`      case ${valueFlagList.map(quote).join(' ')}`, '        set skip 1', '        continue');
  lines.push("      case '-*'", '        continue', '    end');
  lines.push('    set -l next $w', '    test -n "$__docsctl_path"; and set next "$__docsctl_path $w"');
  lines.push('    if test $__docsctl_n = 0; and __docsctl_is_path $next', '      set -g __docsctl_path $next', '    else', '      set -g __docsctl_n (math $__docsctl_n + 1)', '    end', '  end', 'end');
  // True where a flag's value or an argument is a local path: fish completes file names there.
  // The kind of the argument being typed (p: a path, a NAME_ARGS letter: a name; empty: a flag or nothing).
  lines.push('function __docsctl_arg_kind', '  __docsctl_walk', "  string match -q -- '-*' (commandline -ct); and return", '  set -l args ""', '  switch "$__docsctl_path"');
  for (const node of nodes) if (argsMatter(node)) lines.push(`    case ${quote(node.path)}`, `      set args ${quote(node.args)}`);
  lines.push('  end', '  set -l kind (string sub -s (math $__docsctl_n + 1) -l 1 -- "$args")', '  set -l last (string sub -s -1 -- "$args")');
  lines.push("  if test \"$kind\" = '*'; or begin; test -z \"$kind\"; and test \"$last\" = '*'; end", '    set kind (string sub -s -2 -l 1 -- "$args")', '  end', '  echo $kind', 'end');
  lines.push('function __docsctl_wants_files', '  set -l prev (commandline -opc)[-1]', '  switch "$prev"');
  const pathFlags = pathFlagsOf(nodes);
  if (pathFlags.length > 0) lines.push(`    case ${pathFlags.map(quote).join(' ')}`, '      return 0');
  lines.push('  end', '  set -l kind (__docsctl_arg_kind)', '  test "$kind" = p', 'end');
  lines.push('function __docsctl_words', '  set -l kind (__docsctl_arg_kind)', `  if string match -q -r -- '^[${NAME_LETTERS}]$' "$kind"`);
  lines.push('    set -l program (commandline -opc)[1]', '    command $program completion fish --names $kind --prefix (commandline -ct) 2>/dev/null', '    return', '  end');
  lines.push('  set -l path $__docsctl_path', '  set -l prev (commandline -opc)[-1]', '  switch "$path|$prev"');
  for (const node of nodes) {
    for (const [flag, values] of node.choices) lines.push(`    case ${quote(`${node.path}|${flag}`)}`, `      printf '%s\\n' ${values.map(quote).join(' ')}`, '      return');
  }
  lines.push('  end', '  switch "$path"');
  for (const node of nodes) lines.push(`    case ${quote(node.path)}`, `      printf '%s\\n' ${[...new Set(node.words)].map(quote).join(' ')}`);
  lines.push('  end', 'end');
  lines.push("complete -c docsctl -f -n 'not __docsctl_wants_files' -a '(__docsctl_words)'", "complete -c docsctl -F -n '__docsctl_wants_files'");
  return `${lines.join('\n')}\n`;
}

export const SHELLS = ['bash', 'zsh', 'fish'] as const;

export function completionScript(shell: string, program: Command): string {
  const nodes = completionNodes(program);
  const flags = valueFlags(program);
  if (shell === 'bash') return bashScript(nodes, flags);
  if (shell === 'zsh') return zshScript(nodes, flags);
  if (shell === 'fish') return fishScript(nodes, flags);
  throw new UsageError(`Unknown shell "${shell}"`, { hint: `use one of ${SHELLS.join(', ')}` });
}

export function registerCompletionCommand(program: Command, getSession: (command: Command) => Session): void {
  program
    .command('completion')
    .description('Print a shell completion script (commands, flags, enum values)')
    .argument('<shell>', `shell: ${SHELLS.join(', ')}`)
    .addHelpText('after', '\nExamples:\n  $ source <(docsctl completion bash)          # in ~/.bashrc\n  $ docsctl completion fish | source\n')
    .addOption(new Option('--names <kind>', 'print the names and ids of objects of this kind (the scripts ask it)').hideHelp())
    .addOption(new Option('--prefix <text>', 'only those starting with TEXT').hideHelp())
    .action(async (shell: string, options: { names?: string; prefix?: string }, command: Command) => {
      const session = getSession(command);
      if (options.names !== undefined) {
        const words = await completeNames(session, options.names, options.prefix ?? '');
        if (words.length > 0) await session.printText(`${words.join('\n')}\n`);
        return;
      }
      await session.printText(completionScript(shell, program));
    });
}

/** How long a completion waits for names before offering none. */
const NAMES_TIMEOUT_MS = 1500;

/**
 * The names and ids of objects of `letter`'s kind starting with `prefix`: one list request
 * (with the organization configured; its discovery costs one more otherwise), bounded by
 * NAMES_TIMEOUT_MS; nothing on any error.
 */
async function completeNames(session: Session, letter: string, prefix: string): Promise<string[]> {
  const kind = NAME_KINDS[letter as keyof typeof NAME_KINDS];
  if (kind === undefined) return [];
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string[]>((resolve) => {
    timer = setTimeout(() => resolve([]), NAMES_TIMEOUT_MS);
  });
  const work = (async () => {
    const [{ nameCompletions }, { resolveOrganization }] = await Promise.all([import('../names.js'), import('../operation.js')]);
    const transport = await session.transport({ quick: true });
    return nameCompletions(kind, prefix, { transport, organization: () => resolveOrganization(session, undefined), params: {} });
  })().catch(() => []);
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
