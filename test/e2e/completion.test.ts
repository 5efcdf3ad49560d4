/**
 * `docsctl completion`: the built binary prints scripts generated from the
 * command tree; the bash one is run by bash to complete commands, flags and
 * enum values.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

const bin = new URL('../../bin/docsctl.js', import.meta.url).pathname;
let env: Record<string, string>;
let bashScript: string;

beforeAll(async () => {
  const home = tempDir('docsctl-e2e-completion-');
  env = { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: join(home, 'config'), NO_COLOR: '1' };
  const result = await execa('node', [bin, 'completion', 'bash'], { env, extendEnv: false, reject: false, timeout: 30_000 });
  expect(result.exitCode, result.stderr).toBe(0);
  bashScript = result.stdout;
});
afterAll(cleanupTempDirs);

/** What bash offers for the words typed so far (the last one being completed). */
function complete(words: string[]): string[] {
  const array = words.map((w) => `'${w}'`).join(' ');
  const out = execFileSync('bash', ['-c', `${bashScript}\nCOMP_WORDS=(${array}); COMP_CWORD=${words.length - 1}; _docsctl; printf '%s\\n' "\${COMPREPLY[@]}"`], {
    encoding: 'utf8',
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
    expect(complete(['docsctl', 'space', 'list', '--format', ''])).toEqual(['table', 'tsv', 'json', 'yaml', 'ids', 'markdown']);
    expect(complete(['docsctl', 'space', 'edit', 'S', '--edit-mode', ''])).toEqual(['live', 'locked']);
  });

  it('prints zsh and fish scripts, and refuses another shell with exit 2', async () => {
    const run = (shell: string) => execa('node', [bin, 'completion', shell], { env, extendEnv: false, reject: false, timeout: 30_000 });
    const [zsh, fish, other] = await Promise.all([run('zsh'), run('fish'), run('tcsh')]);
    expect(zsh.stdout).toMatch(/^#compdef docsctl/);
    expect(zsh.stdout).toContain('complete -F _docsctl docsctl');
    expect(fish.stdout).toContain("complete -c docsctl -f -a '(__docsctl_words)'");
    expect(fish.stdout).toContain("case 'space list|--format'");
    expect(other.exitCode).toBe(2);
    expect(other.stderr).toMatch(/^error: Unknown shell "tcsh"/);
  });
});
