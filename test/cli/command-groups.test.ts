/**
 * The CLI loads only the command modules of the group a command names
 * (src/cli/commands/index.ts): `moduleGroups` must say truly which top-level groups
 * each module's hand-written commands are added to, or a command would be missing from its group.
 */
import { Command, Help } from 'commander';
import { describe, expect, it } from 'vitest';
import { commandGroups, groupDescriptions, loadCommandModules, moduleGroups } from '../../src/cli/commands/index.js';
import { loadToolCommands, toolCommands } from '../../src/cli/commands/tools.js';
import { commandModulesFor, commandsFor, invokedGroup, namedSpecs } from '../../src/cli/main.js';
import { runCli } from '../helpers/cli.js';
import type { Session } from '../../src/cli/session.js';

describe('command modules by group', () => {
  it('declare exactly the top-level groups their hand-written commands are added to', async () => {
    const [derived, ...all] = await loadCommandModules();
    expect(derived?.name).toBe('derived');
    expect(all).toHaveLength(Object.keys(moduleGroups).length);
    const { registerOperationCommands } = await import('../../src/cli/operation.js');
    const tree = () => {
      const program = new Command('docsctl');
      registerOperationCommands(program, derived?.specs ?? [], groupDescriptions, () => ({}) as Session);
      return program;
    };
    const paths = (command: Command, prefix = ''): string[] =>
      command.commands.flatMap((sub) => [`${prefix}${sub.name()}`, ...paths(sub, `${prefix}${sub.name()} `)]);
    const before = new Set(paths(tree()));
    (Object.keys(moduleGroups) as Array<keyof typeof moduleGroups>).forEach((name, i) => {
      const program = tree();
      all[i]?.register?.(program, () => ({}) as Session);
      const added = paths(program).filter((path) => !before.has(path));
      expect(added.length, name).toBeGreaterThan(0);
      expect([...new Set(added.map((path) => path.split(' ')[0]))].sort(), name).toEqual([...moduleGroups[name]].sort());
    });
  });

  it('describe every group', () => {
    for (const group of commandGroups) expect(groupDescriptions[group], group).toBeTruthy();
  });

  it('load the modules of the invoked group only, and every one for completion', async () => {
    expect(invokedGroup(['--json', 'space', 'list'])).toBe('space');
    expect(invokedGroup(['help', 'cr', 'merge'])).toBe('cr');
    expect(invokedGroup(['serve'])).toBeUndefined();
    const space = await commandModulesFor(['space', 'list']);
    // derived (src/cli/generated/space.ts): no hand-written module adds to it
    expect(space.map((module) => module.name ?? 'hand-written')).toEqual(['derived']);
    expect(space.flatMap((m) => m.specs).some((spec) => spec.command === 'space list')).toBe(true);
    expect(await commandModulesFor(['serve'])).toEqual([]);
    expect((await commandModulesFor(['completion', 'bash'])).filter((module) => module.name !== 'derived')).toHaveLength(Object.keys(moduleGroups).length);
    const collection = await commandModulesFor(['collection', 'list']);
    expect(collection.map((module) => module.name)).toEqual(['derived']);
    expect(collection[0]?.specs.every((spec) => spec.command.startsWith('collection '))).toBe(true);
  });
});

describe('the commands of the invoked group that are registered', () => {
  it('are the command argv names, with the commands under it, for every command of every group (by name or alias)', async () => {
    const specs = (await loadCommandModules())[0]?.specs ?? [];
    expect(specs.length).toBeGreaterThan(250);
    for (const spec of specs) {
      const group = specs.filter((other) => other.command.split(' ')[0] === spec.command.split(' ')[0]);
      const words = spec.command.split(' ');
      for (const argv of [[...words, 'ARG', '--json'], ...(spec.aliases ?? []).map((alias) => ['--json', ...words.slice(0, -1), alias, 'ARG'])]) {
        const named = namedSpecs(group, argv).map((other) => other.command);
        expect(named, argv.join(' ')).toContain(spec.command);
        // Nothing beside its path: only the commands it is under (`space fields` for `space fields set`) and those under it.
        for (const other of named) {
          expect(spec.command === other || spec.command.startsWith(`${other} `) || other.startsWith(`${spec.command} `), `${argv.join(' ')}: ${other}`).toBe(true);
        }
        for (const other of group) if (other.command.startsWith(`${spec.command} `)) expect(named, argv.join(' ')).toContain(other.command);
      }
    }
  });

  it('are all of the group when argv names none of them (its help, a misspelt command)', async () => {
    const site = (await loadCommandModules('site'))[0]?.specs ?? [];
    expect(namedSpecs(site, ['site'])).toHaveLength(site.length);
    expect(namedSpecs(site, ['site', '--help'])).toHaveLength(site.length);
    expect(namedSpecs(site, ['site', 'tre', 'x'])).toHaveLength(site.length);
    expect(namedSpecs(site, ['help', 'site', 'tree']).map((spec) => spec.command)).toEqual(['site tree']);
  });

  it('leave the help of a command that has commands under it, and the suggestion for a misspelt one, as they were', async () => {
    const fields = await runCli(['space', 'fields', '--help']);
    expect(fields.stdout).toMatch(/^Usage: docsctl space fields \[options\] \[command\] <spaceId>$/m);
    expect(fields.stdout).toMatch(/^ {2}set \[options\] <spaceId> <assignments\.\.\.>/m);
    const misspelt = await runCli(['site', 'tre', 'x']);
    expect(misspelt.exitCode).toBe(2);
    expect(misspelt.stderr).toMatch(/unknown command 'tre'\n\(Did you mean tree\?\)/);
  });
});

describe('tool commands (init, token, api, serve, config, store, git, completion)', () => {
  it('are listed by their stubs exactly as their real commands list themselves', async () => {
    const registrars = await loadToolCommands();
    for (const tool of toolCommands) {
      const program = new Command('docsctl');
      registrars.get(tool.name)?.(program, () => ({}) as Session);
      const real = program.commands.find((command) => command.name() === tool.name);
      expect(real, tool.name).toBeDefined();
      expect(new Help().subcommandTerm(real as Command), tool.name).toBe(tool.term);
      expect(real?.description(), tool.name).toBe(tool.description);
    }
  });

  it('load only the one argv names, none for a data-declared group, and every one for completion', async () => {
    expect([...(await commandsFor(['--store', 'x', 'serve', '--port', '0'])).tools.keys()]).toEqual(['serve']);
    expect([...(await commandsFor(['help', 'git'])).tools.keys()]).toEqual(['git']);
    expect((await commandsFor(['space', 'list'])).tools.size).toBe(0);
    expect((await commandsFor([])).tools.size).toBe(0);
    expect([...(await commandsFor(['completion', 'zsh'])).tools.keys()]).toEqual(toolCommands.map((tool) => tool.name));
  });
});
