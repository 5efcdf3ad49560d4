/**
 * `docsctl completion`: the built binary prints scripts generated from the
 * command tree; bash, zsh and fish run them to complete commands, flags, enum
 * values, and file names where an argument or a flag takes a local path.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

const bin = new URL('../../bin/docsctl.js', import.meta.url).pathname;
let env: Record<string, string>;
let bashScript: string;
/** A working directory holding `first.md` and `fixtures/`, where file names are completed. */
let cwd: string;
const has = (shell: string) => spawnSync(shell, ['-c', 'exit 0']).status === 0;

beforeAll(async () => {
  const home = tempDir('docsctl-e2e-completion-');
  env = { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: join(home, 'config'), NO_COLOR: '1' };
  const result = await execa('node', [bin, 'completion', 'bash'], { env, extendEnv: false, reject: false, timeout: 30_000 });
  expect(result.exitCode, result.stderr).toBe(0);
  bashScript = result.stdout;
  cwd = tempDir('docsctl-e2e-completion-cwd-');
  writeFileSync(join(cwd, 'first.md'), '# First\n');
  mkdirSync(join(cwd, 'fixtures'));
});
afterAll(cleanupTempDirs);

/** What bash offers for the words typed so far (the last one being completed). */
function complete(words: string[]): string[] {
  const array = words.map((w) => `'${w}'`).join(' ');
  const out = execFileSync('bash', ['-c', `${bashScript}\nCOMP_WORDS=(${array}); COMP_CWORD=${words.length - 1}; _docsctl; printf '%s\\n' "\${COMPREPLY[@]}"`], {
    encoding: 'utf8',
    cwd,
  });
  return out.split('\n').filter(Boolean);
}

describe('docsctl completion', () => {
  it('completes command groups, including git and completion', () => {
    expect(complete(['docsctl', ''])).toEqual(expect.arrayContaining(['space', 'collection', 'cr', 'git', 'config', 'completion', '--store', '--json']));
    expect(complete(['docsctl', 'sp'])).toEqual(['space']);
  });

  it('completes subcommands, aliases and flags of a group', () => {
    expect(complete(['docsctl', 'space', 'li'])).toEqual(['list', 'links']);
    expect(complete(['docsctl', 'space', 'l'])).toEqual(['list', 'ls', 'links']);
    expect(complete(['docsctl', 'space', 'create', '--'])).toEqual(expect.arrayContaining(['--title', '--dry-run', '--format', '--query']));
  });

  it('completes enum values of a flag', () => {
    expect(complete(['docsctl', 'space', 'list', '--format', ''])).toEqual(['table', 'wide', 'tsv', 'json', 'yaml', 'ids', 'markdown']);
    expect(complete(['docsctl', 'space', 'edit', 'S', '--edit-mode', ''])).toEqual(['live', 'locked']);
  });

  it('prints zsh and fish scripts, and refuses another shell with exit 2', async () => {
    const run = (shell: string) => execa('node', [bin, 'completion', shell], { env, extendEnv: false, reject: false, timeout: 30_000 });
    const [zsh, fish, other] = await Promise.all([run('zsh'), run('fish'), run('tcsh')]);
    expect(zsh.stdout).toMatch(/^#compdef docsctl/);
    expect(zsh.stdout).toContain('complete -o default -F _docsctl docsctl');
    expect(fish.stdout).toContain("complete -c docsctl -f -n 'not __docsctl_wants_files' -a '(__docsctl_words)'");
    expect(fish.stdout).toContain("case 'space list|--format'");
    expect(other.exitCode).toBe(2);
    expect(other.stderr).toMatch(/^error: Unknown shell "tcsh"/);
  });

  const pathCases: Array<[string, string[]]> = [
    ['an argument that takes a path (git import SPACE REPOSITORY)', ['docsctl', 'git', 'import', 'SPACE', './fi']],
    ['the same after a flag and its value', ['docsctl', 'git', 'import', '--dir', 'docs', 'SPACE', './fi']],
    ['a flag that takes a file (cr resolve --file)', ['docsctl', 'cr', 'resolve', 'S', 'CR', '--page', 'p', '--file', './fi']],
    ['a global flag that takes a directory (--store)', ['docsctl', '--store', './fi']],
    ['cr import SPACE CR PATH', ['docsctl', 'cr', 'import', 'S', 'CR', './fi']],
  ];

  it.each(pathCases)('bash completes file names for %s', (_name, words) => {
    expect(complete(words).sort()).toEqual(['./first.md', './fixtures']);
  });

  it('bash offers no file names where an argument is not a path, leaving the shell its default (complete -o default)', () => {
    expect(complete(['docsctl', 'git', 'import', './fi'])).toEqual([]);
    expect(complete(['docsctl', 'git', 'import', 'S', '--'])).toEqual(expect.arrayContaining(['--dir', '--ref']));
    expect(bashScript).toContain('complete -o default -F _docsctl docsctl');
  });

  it.skipIf(!has('zsh')).each(pathCases)('zsh (bashcompinit) completes file names for %s', async (_name, words) => {
    const script = (await execa('node', [bin, 'completion', 'zsh'], { env, extendEnv: false, timeout: 30_000 })).stdout;
    const array = words.map((w) => `'${w}'`).join(' ');
    // As zsh's compgen calls it: sh emulation (0-based arrays), PREFIX being the word typed; compadd then filters by it.
    const probe = `${script}\nemulate sh; COMP_WORDS=(${array}); COMP_CWORD=${words.length - 1}; PREFIX='${words.at(-1)}'; _docsctl; print -l -- "\${COMPREPLY[@]}"`;
    const out = execFileSync('zsh', ['-f', '-c', probe], { encoding: 'utf8', cwd, env: { ...env, HOME: cwd } });
    const offered = out.split('\n').filter((line) => line.startsWith(words.at(-1) as string));
    expect(offered.sort()).toEqual(['./first.md', './fixtures']);
  });

  it.skipIf(!has('fish'))('fish completes file names where a path is taken, and words elsewhere', async () => {
    const script = (await execa('node', [bin, 'completion', 'fish'], { env, extendEnv: false, timeout: 30_000 })).stdout;
    writeFileSync(join(cwd, 'docsctl.fish'), script);
    const completeLine = (line: string) =>
      execFileSync('fish', ['--no-config', '-c', `source docsctl.fish; complete -C ${JSON.stringify(line)}`], { encoding: 'utf8', cwd, env: { ...env, HOME: cwd } })
        .split('\n')
        .filter(Boolean)
        .map((entry) => entry.split('\t')[0]);
    for (const [, words] of pathCases) expect(completeLine(words.join(' ')).sort(), words.join(' ')).toEqual(['./first.md', './fixtures/']);
    expect(completeLine('docsctl git import ./fi')).toEqual([]);
    expect(completeLine('docsctl space li').sort()).toEqual(['links', 'list']);
    expect(completeLine('docsctl space list --format ').sort()).toEqual(['ids', 'json', 'markdown', 'table', 'tsv', 'wide', 'yaml']);
  });
});
