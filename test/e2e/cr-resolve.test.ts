/**
 * Merge conflicts you can resolve (issue 19 §4), through the built binary, locally
 * and against `docsctl serve`: a change request and the space change the same
 * lines of three pages; `cr merge` and `cr update` stop on the conflicts and say
 * where to look; `cr conflicts` shows each page's base, change request and space
 * versions (text, JSON, and the merged Markdown with conflict markers);
 * `cr resolve` takes the change request's version of one page, the space's of
 * another and a hand-merged file for the third; then `cr merge` succeeds and the
 * space holds exactly those pages.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ResultPromise, execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

const bin = new URL('../../bin/docsctl.js', import.meta.url).pathname;

interface Mode {
  name: 'local' | 'remote';
  env: Record<string, string>;
  stop?: () => Promise<void>;
}

let home: string;
let baseEnv: Record<string, string>;
let token: string;
const modes: Mode[] = [];

const run = (mode: Mode, args: string[]) => execa('node', [bin, ...args], { env: { ...baseEnv, ...mode.env }, extendEnv: false, reject: false, timeout: 60_000 });

function writeDir(dir: string, files: Record<string, string>): string {
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const page = (title: string, line: string) => `# ${title}\n\n${line}\nThe rest stays.\n`;

beforeAll(async () => {
  home = tempDir('docsctl-e2e-resolve-');
  baseEnv = { PATH: process.env.PATH ?? '', HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config'), NO_COLOR: '1' };
  const init = await execa('node', [bin, 'init', '--org', 'Acme', '--json'], { env: baseEnv, extendEnv: false, reject: false });
  expect(init.exitCode, init.stderr).toBe(0);
  token = (JSON.parse(init.stdout) as { token: string }).token;
  modes.push({ name: 'local', env: {} });
  const server: ResultPromise = execa('node', [bin, 'serve', '--port', '0', '--allow-local', home], { env: baseEnv, extendEnv: false, reject: false });
  const url = await new Promise<string>((resolve, reject) => {
    server.stdout?.on('data', (chunk: Buffer) => {
      const match = /Listening on (http:\/\/\S+)/.exec(chunk.toString());
      if (match) resolve(match[1] as string);
    });
    server.on('exit', () => reject(new Error('serve exited early')));
  });
  modes.push({
    name: 'remote',
    env: { DOCSCTL_ENDPOINT: url, DOCSCTL_TOKEN: token },
    stop: async () => {
      server.kill('SIGTERM');
      await server;
    },
  });
});
afterAll(async () => {
  for (const mode of modes) await mode.stop?.();
  cleanupTempDirs();
});

describe.each(['local', 'remote'] as const)('cr conflicts and cr resolve (%s)', { timeout: 300_000 }, (name) => {
  const mode = () => modes.find((m) => m.name === name) as Mode;
  const ok = async (args: string[]) => {
    const result = await run(mode(), args);
    expect(result.exitCode, `${args.join(' ')}: ${result.stderr}`).toBe(0);
    return result.stdout;
  };

  let space: string;
  let ids: Record<string, string>;
  let cr: string;

  it('stops a merge and an update on the conflicts, pointing at cr conflicts and cr resolve', async () => {
    const dir = join(home, name);
    const docs = writeDir(join(dir, 'docs'), {
      'README.md': '# Welcome\n\nHello.\n',
      'install.md': page('Install', 'Step one.'),
      'faq.md': page('FAQ', 'Ask here.'),
      'setup.md': page('Setup', 'Set it up.'),
      'SUMMARY.md': '# Summary\n\n* [Welcome](README.md)\n* [Install](install.md)\n* [FAQ](faq.md)\n* [Setup](setup.md)\n',
    });
    space = (await ok(['space', 'create', '--title', `Docs ${name}`, '--format', 'ids'])).trim();
    await ok(['git', 'import', space, docs]);
    const listed = JSON.parse(await ok(['page', 'list', space, '--json'])) as Array<{ id: string; slug: string }>;
    ids = Object.fromEntries(listed.map((p) => [p.slug, p.id]));
    expect(Object.keys(ids)).toEqual(['readme', 'install', 'faq', 'setup']);

    cr = (await ok(['cr', 'create', space, '--subject', 'Ours', '--format', 'ids'])).trim();
    const ours = writeDir(join(dir, 'ours'), {
      'install.md': page('Install', 'Step one, as the change request says.'),
      'faq.md': page('FAQ', 'Ask the change request.'),
      'setup.md': page('Setup', 'Set it up, change request.'),
    });
    await ok(['cr', 'import', space, cr, ours]);
    const other = (await ok(['cr', 'create', space, '--subject', 'Theirs', '--format', 'ids'])).trim();
    const theirs = writeDir(join(dir, 'theirs'), {
      'install.md': page('Install', 'Step one, as the space says.'),
      'faq.md': page('FAQ', 'Ask the space.'),
      'setup.md': page('Setup', 'Set it up, space.'),
    });
    await ok(['cr', 'import', space, other, theirs]);
    await ok(['cr', 'merge', space, other]);

    for (const command of ['merge', 'update']) {
      const stopped = await run(mode(), ['cr', command, space, cr]);
      expect(stopped.exitCode).toBe(5);
      expect(stopped.stderr).toContain('conflict: install — body changed differently');
      expect(stopped.stderr.split('\n').at(-1)).toBe(
        `error: ${command === 'merge' ? 'Merge' : 'Update'} has conflicts in 3 page(s): nothing was changed ` +
          `(see them with "docsctl cr conflicts ${space} ${cr}", then pick a side for each page: "docsctl cr resolve ${space} ${cr} --page PAGE --ours|--theirs|--file FILE")`,
      );
    }
  });

  it('cr conflicts shows each page with the diffs of both sides from the base', async () => {
    const text = await ok(['cr', 'conflicts', space, cr]);
    expect(text).toContain(
      [
        'conflict: install — body changed differently in the change request and the space (lines 1–1)',
        '--- base/install.md',
        '+++ change-request/install.md',
        '@@ -1,2 +1,2 @@',
        '-Step one.',
        '+Step one, as the change request says.',
        ' The rest stays.',
        '--- base/install.md',
        '+++ space/install.md',
        '@@ -1,2 +1,2 @@',
        '-Step one.',
        '+Step one, as the space says.',
        ' The rest stays.',
      ].join('\n'),
    );
    const json = JSON.parse(await ok(['cr', 'conflicts', space, cr, '--json'])) as Array<Record<string, unknown>>;
    expect(json.map((c) => [c.page, c.path, c.kind])).toEqual([
      [ids.install, 'install', 'content'],
      [ids.faq, 'faq', 'content'],
      [ids.setup, 'setup', 'content'],
    ]);
    expect(json[0]).toMatchObject({
      base: { title: 'Install', path: 'install', markdown: 'Step one.\nThe rest stays.\n' },
      changeRequest: { markdown: 'Step one, as the change request says.\nThe rest stays.\n' },
      space: { markdown: 'Step one, as the space says.\nThe rest stays.\n' },
    });
    expect(await ok(['cr', 'conflicts', space, cr, '--page', 'setup', '--merged'])).toBe(
      ['<<<<<<< change request', 'Set it up, change request.', '||||||| base', 'Set it up.', '=======', 'Set it up, space.', '>>>>>>> space', 'The rest stays.'].join('\n'),
    );
  });

  it('cr resolve needs a side for every conflicting page, and leaves everything as it was without one', async () => {
    const partial = await run(mode(), ['cr', 'resolve', space, cr, '--page', 'install', '--ours']);
    expect(partial.exitCode).toBe(2);
    expect(partial.stderr).toBe(
      'error: 2 conflicting page(s) have no side: faq, setup (give each one --page PAGE --ours|--theirs|--file FILE; a side without --page applies to the pages not named)',
    );
    const unknown = await run(mode(), ['cr', 'resolve', space, cr, '--page', 'readme', '--ours']);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toBe('error: Page "readme" is not in conflict (the conflicting pages: install, faq, setup)');
    const nothing = await run(mode(), ['cr', 'resolve', space, cr]);
    expect([nothing.exitCode, nothing.stderr]).toEqual([2, 'error: Say how to resolve: --page PAGE --ours|--theirs|--file FILE (repeatable), or --ours/--theirs for every page']);
    const loose = await run(mode(), ['cr', 'resolve', space, cr, '--file', 'x.md']);
    expect([loose.exitCode, loose.stderr]).toEqual([2, 'error: --file needs a --page before it: the page the file resolves']);
    expect(JSON.parse(await ok(['cr', 'conflicts', space, cr, '--json']))).toHaveLength(3);
  });

  it('cr resolve takes ours, theirs and a merged file; then cr merge succeeds with those pages', async () => {
    const merged = join(home, name, 'setup-merged.md');
    writeFileSync(merged, 'Set it up, as both agreed.\nThe rest stays.\n');
    const answer = JSON.parse(
      await ok(['cr', 'resolve', space, cr, '--page', 'install', '--ours', '--page', ids.faq as string, '--theirs', '--page', 'setup', '--file', merged, '--json']),
    ) as { resolved: Array<Record<string, string>> };
    expect(answer.resolved).toEqual([
      { page: ids.install, path: 'install', title: 'Install', take: 'ours' },
      { page: ids.faq, path: 'faq', title: 'FAQ', take: 'theirs' },
      { page: ids.setup, path: 'setup', title: 'Setup', take: 'file' },
    ]);
    const none = await run(mode(), ['cr', 'conflicts', space, cr]);
    expect({ exit: none.exitCode, stdout: none.stdout, stderr: none.stderr }).toEqual({ exit: 0, stdout: '', stderr: 'No conflicts: the change request merges cleanly' });

    await ok(['cr', 'merge', space, cr]);
    const body = async (id: string) => (JSON.parse(await ok(['page', 'get', space, id, '--json'])) as { markdown: string }).markdown;
    expect(await body(ids.install as string)).toBe('Step one, as the change request says.\nThe rest stays.\n');
    expect(await body(ids.faq as string)).toBe('Ask the space.\nThe rest stays.\n');
    expect(await body(ids.setup as string)).toBe('Set it up, as both agreed.\nThe rest stays.\n');
    expect(await body(ids.readme as string)).toBe('Hello.\n');
  });
});

describe.each(['local', 'remote'] as const)('a page removed in the space but edited in the change request (%s)', { timeout: 300_000 }, (name) => {
  const mode = () => modes.find((m) => m.name === name) as Mode;
  const ok = async (args: string[]) => {
    const result = await run(mode(), args);
    expect(result.exitCode, `${args.join(' ')}: ${result.stderr}`).toBe(0);
    return result.stdout;
  };

  /** A space of a readme and a guide; a change request edits the guide; the space then drops it (git import mirrors). */
  async function removedAndEdited(tag: string) {
    const dir = join(home, `${name}-removed-${tag}`);
    const full = writeDir(join(dir, 'full'), { 'README.md': '# Welcome\n\nHello.\n', 'guide.md': page('Guide', 'Read this.') });
    const space = (await ok(['space', 'create', '--title', `Removed ${tag}`, '--format', 'ids'])).trim();
    await ok(['git', 'import', space, full]);
    const cr = (await ok(['cr', 'create', space, '--format', 'ids'])).trim();
    await ok(['cr', 'import', space, cr, writeDir(join(dir, 'edit'), { 'guide.md': page('Guide', 'Read this, edited.') })]);
    await ok(['git', 'import', space, writeDir(join(dir, 'without'), { 'README.md': '# Welcome\n\nHello.\n' })]);
    return { space, cr };
  }
  const paths = async (space: string) => (JSON.parse(await ok(['page', 'list', space, '--json'])) as Array<{ path: string }>).map((p) => p.path);

  it('--ours keeps the change request\'s page: the merge brings it back', async () => {
    const { space, cr } = await removedAndEdited('ours');
    const [conflict] = JSON.parse(await ok(['cr', 'conflicts', space, cr, '--json'])) as Array<Record<string, unknown>>;
    expect(conflict).toMatchObject({ kind: 'removed-and-edited', path: 'guide', space: null, changeRequest: { markdown: 'Read this, edited.\nThe rest stays.\n' } });
    await ok(['cr', 'resolve', space, cr, '--page', 'guide', '--ours']);
    await ok(['cr', 'merge', space, cr]);
    expect(await paths(space)).toEqual(['readme', 'guide']);
  });

  it('--theirs takes the removal: the merge leaves it out', async () => {
    const { space, cr } = await removedAndEdited('theirs');
    const none = await run(mode(), ['cr', 'resolve', space, cr, '--page', 'guide', '--file', join(home, 'nope.md')]);
    expect([none.exitCode, none.stderr]).toEqual([2, `error: Cannot read ${join(home, 'nope.md')}: no such file`]);
    await ok(['cr', 'resolve', space, cr, '--theirs']);
    await ok(['cr', 'merge', space, cr]);
    expect(await paths(space)).toEqual(['readme']);
  });
});
