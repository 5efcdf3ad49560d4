/**
 * `docsctl completion bash|zsh|fish`: a completion script generated from the
 * commander tree (every group, command, alias, flag and enum value), so it
 * follows the commands as they are added. The script is a table of command
 * paths; the shell walks the words typed so far to find the path.
 */
import type { Command } from 'commander';
import { UsageError } from '../../api/errors.js';
import type { Session } from '../session.js';

interface Node {
  /** Command path without the program name: '' for the root, 'space list'. */
  path: string;
  words: string[];
  /** Flag → its enum values. */
  choices: Map<string, string[]>;
}

function flagsOf(command: Command): { flags: string[]; choices: Map<string, string[]> } {
  const flags: string[] = [];
  const choices = new Map<string, string[]>();
  for (const option of command.options) {
    if (option.hidden) continue; // a former spelling (naming rule, flags.ts): accepted, not offered
    for (const flag of [option.long, option.short]) if (flag) flags.push(flag);
    if (option.long && option.argChoices?.length) choices.set(option.long, option.argChoices);
  }
  return { flags, choices };
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
    });
    for (const sub of subs) {
      for (const name of [sub.name(), ...sub.aliases()]) visit(sub, path ? `${path} ${name}` : name);
    }
  };
  visit(program, '');
  return nodes;
}

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

function bashScript(nodes: Node[]): string {
  const paths = nodes.map((n) => `    ${quote(n.path)}) return 0;;`).join('\n');
  const words = nodes.map((n) => `    ${quote(n.path)}) words=${quote([...new Set(n.words)].join(' '))};;`).join('\n');
  const choices = nodes
    .flatMap((n) => [...n.choices].map(([flag, values]) => `    ${quote(`${n.path}|${flag}`)}) words=${quote(values.join(' '))};;`))
    .join('\n');
  return `# docsctl completion for bash: source <(docsctl completion bash)
_docsctl_is_path() {
  case "$1" in
${paths}
  esac
  return 1
}
_docsctl() {
  local cur prev path="" next w words="" i
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    case "$w" in -*) continue;; esac
    if [ -z "$path" ]; then next="$w"; else next="$path $w"; fi
    if _docsctl_is_path "$next"; then path="$next"; fi
  done
  case "$path|$prev" in
${choices}
  esac
  if [ -z "$words" ]; then
    case "$path" in
${words}
    esac
  fi
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -F _docsctl docsctl
`;
}

function zshScript(nodes: Node[]): string {
  return `#compdef docsctl
# docsctl completion for zsh: source <(docsctl completion zsh)
autoload -U +X bashcompinit && bashcompinit
${bashScript(nodes).replace(/^# docsctl completion for bash.*\n/, '')}`;
}

function fishScript(nodes: Node[]): string {
  const lines = ['# docsctl completion for fish: docsctl completion fish | source'];
  lines.push('function __docsctl_words', '  set -l path ""', '  set -l tokens (commandline -opc)', '  set -e tokens[1]');
  lines.push('  for w in $tokens', '    string match -q -- "-*" $w; and continue', '    if test -z "$path"', '      set next $w', '    else', '      set next "$path $w"', '    end');
  lines.push('    switch $next');
  for (const node of nodes) if (node.path) lines.push(`      case ${quote(node.path)}`, '        set path $next');
  lines.push('    end', '  end', '  set -l prev (commandline -opc)[-1]', '  switch "$path|$prev"');
  for (const node of nodes) {
    for (const [flag, values] of node.choices) lines.push(`    case ${quote(`${node.path}|${flag}`)}`, `      printf '%s\\n' ${values.map(quote).join(' ')}`, '      return');
  }
  lines.push('  end', '  switch "$path"');
  for (const node of nodes) lines.push(`    case ${quote(node.path)}`, `      printf '%s\\n' ${[...new Set(node.words)].map(quote).join(' ')}`);
  lines.push('  end', 'end', "complete -c docsctl -f -a '(__docsctl_words)'");
  return `${lines.join('\n')}\n`;
}

export const SHELLS = ['bash', 'zsh', 'fish'] as const;

export function completionScript(shell: string, program: Command): string {
  const nodes = completionNodes(program);
  if (shell === 'bash') return bashScript(nodes);
  if (shell === 'zsh') return zshScript(nodes);
  if (shell === 'fish') return fishScript(nodes);
  throw new UsageError(`Unknown shell "${shell}"`, { hint: `use one of ${SHELLS.join(', ')}` });
}

export function registerCompletionCommand(program: Command, getSession: (command: Command) => Session): void {
  program
    .command('completion')
    .description('Print a shell completion script (commands, flags, enum values)')
    .argument('<shell>', `shell: ${SHELLS.join(', ')}`)
    .addHelpText('after', '\nExamples:\n  $ source <(docsctl completion bash)          # in ~/.bashrc\n  $ docsctl completion fish | source\n')
    .action(async (shell: string, _options: unknown, command: Command) => {
      const session = getSession(command);
      await session.printText(completionScript(shell, program));
    });
}
