/**
 * `--json` is both a switch (`space get S --json`: the whole object) and, as in
 * gh, a field list (`space list --json id,title`). Commander would read the word
 * after a bare `--json` as its value even when it is the command's argument
 * (`docsctl --json space list`, `space get --json S`), so before parsing, the
 * word after `--json` is kept as fields only when the invoked command has no
 * room left for it as an argument; otherwise `--json` moves to the end of the
 * options, where it takes no value. `--json=FIELDS` is always a field list.
 *
 * A command with a variadic argument always has room (`member invite a@b --json id`:
 * is `id` an email or a field?), so there a word that reads as a field list after
 * `--json` is refused with a usage error saying how to write either meaning.
 */
import type { Command, Option } from 'commander';
import { UsageError } from '../api/errors.js';
import { isFieldList } from '../output/shape.js';

function findOption(chain: readonly Command[], flag: string): Option | undefined {
  const name = flag.includes('=') ? flag.slice(0, flag.indexOf('=')) : flag;
  for (const command of chain) {
    const found = command.options.find((option) => option.long === name || option.short === name);
    if (found) return found;
  }
  return undefined;
}

function subcommand(command: Command, word: string): Command | undefined {
  return command.commands.find((sub) => sub.name() === word || sub.aliases().includes(word));
}

export function normaliseJsonFlag(program: Command, argv: readonly string[]): string[] {
  const at = argv.indexOf('--json');
  const next = argv[at + 1];
  if (at < 0 || next === undefined || next.startsWith('-')) return [...argv];

  // Walk argv like commander: command words select subcommands, options skip their values.
  const chain: Command[] = [program];
  const positionals: number[] = [];
  let end = argv.length;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      end = i;
      for (let j = i + 1; j < argv.length; j++) positionals.push(j);
      break;
    }
    if (arg.startsWith('-') && arg !== '-') {
      if (arg === '--json') continue;
      const option = findOption(chain, arg);
      if (option && (option.required || option.optional) && !arg.includes('=')) i++;
      continue;
    }
    const leaf = chain[chain.length - 1] as Command;
    const sub = positionals.length === 0 ? subcommand(leaf, arg) : undefined;
    if (sub) chain.push(sub);
    else positionals.push(i);
  }
  const leaf = chain[chain.length - 1] as Command;
  const declared = leaf.registeredArguments;
  const variadic = declared.some((argument) => argument.variadic);
  const room = variadic ? Number.POSITIVE_INFINITY : declared.length;
  const fieldsIndex = at + 1;
  const isPositional = positionals.includes(fieldsIndex);
  if (isPositional && variadic && isFieldList(next)) {
    const name = chain
      .slice(1)
      .map((command) => command.name())
      .join(' ');
    throw new UsageError(`"--json ${next}" is ambiguous: "${next}" could be fields to print or an argument of "${name}"`, {
      hint: `Write --json=${next} for fields, or put --json after the arguments to print whole objects.`,
    });
  }
  if (isPositional && positionals.length > room) {
    // One word too many for the command: it is the field list.
    return [...argv.slice(0, at), `--json=${next}`, ...argv.slice(at + 2)];
  }
  const rest = [...argv.slice(0, at), ...argv.slice(at + 1)];
  const insertAt = end === argv.length ? rest.length : end - 1;
  return [...rest.slice(0, insertAt), '--json', ...rest.slice(insertAt)];
}
