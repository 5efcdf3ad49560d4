/** Help: `help GROUP VERB` is the leaf's help, and leaf help lists the global options. */
import { describe, expect, it } from 'vitest';
import { helpToFlag } from '../../src/cli/main.js';
import { runCli } from '../helpers/cli.js';

describe('help', () => {
  it('shows the leaf help for "help space list", with the global options', async () => {
    const result = await runCli(['help', 'space', 'list']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^Usage: docsctl space list\|ls \[options\]/);
    expect(result.stdout).toContain('--limit <n>');
    expect(result.stdout).toMatch(/Global Options:[\s\S]*--store <dir>[\s\S]*--query <expr>/);
  });

  it('is the same as "space list --help"', async () => {
    expect((await runCli(['help', 'space', 'list'])).stdout).toBe((await runCli(['space', 'list', '--help'])).stdout);
  });

  it('leaves one-word help and other argv alone', () => {
    expect(helpToFlag(['help', 'space'])).toEqual(['help', 'space']);
    expect(helpToFlag(['space', 'list'])).toEqual(['space', 'list']);
    expect(helpToFlag(['help', 'space', 'list'])).toEqual(['space', 'list', '--help']);
  });
});
