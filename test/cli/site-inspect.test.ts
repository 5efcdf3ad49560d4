/**
 * `site inspect` driven end to end through scripted prompts (the injected
 * prompter picks choices by their label), locally and against `serve`; a level
 * with one choice (the only site, a section's only variant) is entered without
 * asking; without a terminal it prints `site tree`; Ctrl-C exits 130.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CancelledError } from '../../src/api/errors.js';
import type { Prompter } from '../../src/cli/prompter.js';
import { manualClock } from '../../src/util/clock.js';
import { sequentialIds } from '../../src/util/ids.js';
import { runCli } from '../helpers/cli.js';
import { cleanupTempDirs, serveStore, tempDir } from '../helpers/stores.js';

/** Answers each select with the choice whose label starts with the next script entry; records what it saw. */
function byLabel(script: string[]): Prompter & { seen: string[] } {
  const seen: string[] = [];
  return {
    seen,
    input: async () => {
      throw new Error('unexpected input prompt');
    },
    password: async () => {
      throw new Error('unexpected password prompt');
    },
    confirm: async () => {
      throw new Error('unexpected confirm prompt');
    },
    select: async (message, choices) => {
      seen.push(`${message} [${choices.map((c) => c.name ?? c.value).join(' | ')}]`);
      const want = script.shift();
      if (want === undefined) throw new Error(`script ran out at: ${message}`);
      const choice = choices.find((c) => (c.name ?? c.value).startsWith(want));
      if (!choice) throw new Error(`no choice "${want}" in ${message}: ${choices.map((c) => c.name).join(', ')}`);
      return choice.value;
    },
  };
}

const PAGES = {
  'README.md': '# Welcome\n\nStart **here**.\n',
  'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Install](install/README.md)\n  * [Linux](install/linux.md)\n',
  'install/README.md': '# Install\n\nSteps:\n\n- Download\n- Run `setup`\n\n```sh\n./setup --fast\n```\n\n{% hint style="warning" %}\nBack up first.\n{% endhint %}\n',
  'install/linux.md': '# Linux\n\nUse the package.\n',
};

let env: Record<string, string>;
let site: string;
let store: string;
let token: string;
const clock = manualClock('2026-03-01T10:00:00.000Z');
const ids = sequentialIds('i');

beforeAll(async () => {
  const dir = tempDir('docsctl-inspect-');
  store = join(dir, 'store');
  env = { DOCSCTL_STORE: store };
  const docs = join(dir, 'docs');
  for (const [path, text] of Object.entries(PAGES)) {
    mkdirSync(join(docs, path, '..'), { recursive: true });
    writeFileSync(join(docs, path), text);
  }
  const run = async (argv: string[]) => {
    const result = await runCli(argv, { env, clock, ids });
    expect(result.exitCode, `${argv.join(' ')}: ${result.stderr}`).toBe(0);
    return result.stdout.trim();
  };
  token = (JSON.parse(await run(['init', '--org', 'Acme', '--json'])) as { token: string }).token;
  const guide = await run(['space', 'create', '--title', 'Guide', '--format', 'ids']);
  const api = await run(['space', 'create', '--title', 'API', '--format', 'ids']);
  const cr = await run(['cr', 'create', guide, '--subject', 'Import', '--format', 'ids']);
  await run(['cr', 'import', guide, cr, docs]);
  await run(['cr', 'merge', guide, cr]);
  site = await run(['site', 'create', '--title', 'Help', '--type', 'premium', '--format', 'ids']);
  await run(['site', 'section', 'add', site, guide, '--title', 'Guides']);
  await run(['site', 'section', 'add', site, api, '--title', 'Reference']);
  await run(['site', 'publish', site]);
}, 60_000);
afterAll(cleanupTempDirs);

// Each section has one variant: choosing the section opens its pages.
const walk = ['Guides', 'Install', 'Linux', '← Back', '← Back', 'Reference', '✕ Quit'];

describe('site inspect', () => {
  it('walks site → section → variant → pages, renders pages with their URL, and quits', async () => {
    const prompter = byLabel([...walk]);
    const result = await runCli(['site', 'inspect', site], { env, tty: true, prompter });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(prompter.seen[0]).toMatch(/^Help: pick a section, group or variant \[Guides \(default\) \| Reference \| ← Back \| ✕ Quit\]$/);
    expect(prompter.seen[1]).toBe('Guide: pick a page [Welcome | Install ▸ | ← Back | ✕ Quit]');
    expect(prompter.seen[2]).toBe('Install: pick a page [Linux | ← Back | ✕ Quit]');
    expect(prompter.seen.join('\n')).not.toMatch(/pick a variant/);
    expect(result.stdout).toMatch(/^Install\nhttps:\/\/\S+\.gitbook\.io\/help\/install\n/);
    expect(result.stdout).toContain('  • Download\n  • Run setup\n');
    expect(result.stdout).toContain('    ./setup --fast\n');
    expect(result.stdout).toContain('┌ ⚠ Warning\n│ Back up first.\n└');
    expect(result.stdout).toMatch(/Linux\nhttps:\/\/\S+\/help\/install\/linux\n/);
    expect(prompter.seen.at(-1)).toMatch(/^API: pick a page \[← Back \| ✕ Quit\]$/);
  });

  it('without SITE enters the only site without asking (or prints its tree without a terminal); with several, starts from the list', async () => {
    const only = byLabel(['✕ Quit']);
    const result = await runCli(['site', 'inspect'], { env, tty: true, prompter: only });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(only.seen).toEqual([expect.stringMatching(/^Help: pick a section, group or variant \[/)]);
    const tree = await runCli(['site', 'tree', site], { env });
    expect((await runCli(['site', 'inspect'], { env })).stdout).toBe(tree.stdout);

    expect((await runCli(['site', 'create', '--title', 'Docs'], { env, clock, ids })).exitCode).toBe(0);
    const several = byLabel(['Help', '✕ Quit']);
    expect((await runCli(['site', 'inspect'], { env, tty: true, prompter: several })).exitCode).toBe(0);
    expect(several.seen[0]).toMatch(/^Pick a site \[(Help \| Docs \(not published\)|Docs \(not published\) \| Help) \| ✕ Quit\]$/);
  });

  it('works the same against a remote endpoint', async () => {
    const server = await serveStore(store, { clock, ids });
    try {
      const remoteEnv = { DOCSCTL_ENDPOINT: server.url, DOCSCTL_TOKEN: token };
      const local = await runCli(['site', 'inspect', site], { env, tty: true, prompter: byLabel([...walk]) });
      const remote = await runCli(['site', 'inspect', site], { env: remoteEnv, tty: true, prompter: byLabel([...walk]) });
      expect(remote.exitCode, remote.stderr).toBe(0);
      expect(remote.stdout).toBe(local.stdout);
    } finally {
      await server.close();
    }
  });

  it('prints the site tree without a terminal, or with --no-input', async () => {
    const tree = await runCli(['site', 'tree', site], { env });
    expect(tree.stdout).toMatch(/^# Guides {2}section \w+ {2}\/guides {2}default/);
    expect((await runCli(['site', 'inspect', site], { env })).stdout).toBe(tree.stdout);
    const noInput = await runCli(['site', 'inspect', site, '--no-input'], { env, tty: true, prompter: byLabel([]) });
    expect(noInput.exitCode).toBe(0);
    expect(noInput.stdout).toContain('* Guide  variant');
    // Two sites (the test above made a second one): which to print is not for docsctl to guess.
    const none = await runCli(['site', 'inspect'], { env });
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toMatch(/needs a terminal/);
  });

  it('exits 130 on Ctrl-C', async () => {
    const prompter = byLabel([]);
    prompter.select = async () => {
      throw new CancelledError('Cancelled');
    };
    const result = await runCli(['site', 'inspect', site], { env, tty: true, prompter });
    expect(result.exitCode).toBe(130);
    expect(result.stderr).toBe('Help\nerror: Cancelled\n');
  });
});
