/**
 * Smaller things a new user tripped on (issue 19 §5), through the built binary in
 * both modes: `site published --rows` gives scripts the table's rows as JSON;
 * `cr list` with nothing open says which change requests it lists and how to see
 * the others; `--debug` stack traces name docsctl's source files, not bundle chunks.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type BinaryMode, describeInBothModes } from '../helpers/binary.js';
import { cleanupTempDirs } from '../helpers/stores.js';
import { onTerminal } from '../helpers/terminal.js';

afterAll(cleanupTempDirs);

describeInBothModes('smaller things (issue 19 §5)', (context) => {
  let cli: BinaryMode;
  let space: string;
  let site: string;
  beforeAll(async () => {
    ({ cli } = context);
    space = await cli.ok(['space', 'create', '--title', 'Handbook', '--format', 'ids']);
    site = await cli.ok(['site', 'create', '--title', 'Help', '--space', space, '--format', 'ids']);
    await cli.ok(['site', 'publish', site]);
  });

  it('site published prints the API answer with --json, and the rows of its table with --rows --json', async () => {
    const answer = JSON.parse(await cli.ok(['site', 'published', site, '--json'])) as Record<string, unknown>;
    expect(answer).toMatchObject({ object: 'published-content-site', site: { id: site }, structure: { structure: expect.any(Array) } });
    const rows = JSON.parse(await cli.ok(['site', 'published', site, '--rows', '--json'])) as Array<Record<string, unknown>>;
    expect(rows).toEqual([{ section: '', variant: 'Handbook', default: true, url: expect.stringMatching(/^https?:\/\/\S+/) }]);
    const tsv = await cli.run(['site', 'published', site, '--format', 'tsv']);
    expect(tsv.stdout).toBe(`\tHandbook\ttrue\t${rows[0]?.url as string}`);
    expect(await cli.ok(['site', 'published', '--help'])).toMatch(/--rows\s+with --json\/--yaml: print the rows of the table/);
  });

  it('cr list with no open change request says it lists open ones and how to see the others', async () => {
    const cr = await cli.ok(['cr', 'create', space, '--subject', 'Fix', '--format', 'ids']);
    await cli.ok(['cr', 'merge', space, cr]);
    const env = { ...cli.env, TERM: 'dumb' };
    const open = await onTerminal(['cr', 'list', space], { env });
    expect(open.exitCode, open.output).toBe(0);
    expect(open.output).toContain('No open change requests (cr list shows the open ones): see the others with --status merged, draft or archived.');
    const merged = await onTerminal(['cr', 'list', space, '--status', 'merged', '--format', 'tsv'], { env });
    expect(merged.output).toMatch(new RegExp(`^1\\t${cr}\\tmerged\\tFix\\t`, 'm'));
    const piped = await cli.run(['cr', 'list', space]);
    expect(piped).toMatchObject({ exitCode: 0, stdout: '', stderr: '' });
  });

  it('--debug prints a stack trace through the source maps: frames in src/*.ts, not in dist chunks', async () => {
    const result = await cli.run(['space', 'get', 'nope', '--debug']);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toMatch(/(^|\n)error: /);
    expect(result.stderr).toMatch(/\n\s+at .*\/src\/[\w/-]+\.ts:\d+:\d+\)?\n/);
    expect(result.stderr).not.toMatch(/dist\/chunks\//);
    const quiet = await cli.run(['space', 'get', 'nope']);
    expect(quiet.stderr).not.toMatch(/\n\s+at /);
  });
});
