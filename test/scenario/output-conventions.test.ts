/**
 * Output conventions in both modes: `--json FIELDS` (gh), `--query EXPR`
 * (JMESPath, as the AWS CLI), `--dry-run` (the request, nothing changed).
 * Each step's expected output is asserted in local mode and against `serve`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Step, type Transcript, runTranscript } from '../helpers/scenario.js';
import { cleanupTempDirs } from '../helpers/stores.js';

const steps: Step[] = [
  { argv: ['space', 'create', '--title', 'Handbook', '--format', 'ids'], capture: 'hb' },
  { argv: ['space', 'create', '--title', 'Setup', '--format', 'ids'], capture: 'setup' },
  /* 2 */ { argv: ['space', 'list', '--json', 'id,title'] },
  /* 3 */ { argv: ['--json', 'space', 'list'] },
  /* 4 */ { argv: ['space', 'get', '{hb}', '--json', 'title,visibility'] },
  /* 5 */ { argv: ['space', 'get', '--json', '{hb}'] },
  /* 6 */ { argv: ['space', 'list', '--query', "[?title=='Setup'].id"] },
  /* 7 */ { argv: ['space', 'list', '--query', '[].[title, visibility]', '--format', 'tsv'] },
  /* 8 */ { argv: ['space', 'get', '{hb}', '--json', 'title,nope'] },
  /* 9 */ { argv: ['space', 'list', '--query', '[.title'] },
  /* 10 */ { argv: ['space', 'create', '--title', 'Dry', '--dry-run'] },
  /* 11 */ { argv: ['space', 'edit', '{hb}', '--title', 'Renamed', '--dry-run', '--json'] },
  /* 12 */ { argv: ['space', 'delete', '{hb}', '--dry-run'] },
  /* 13 */ { argv: ['api', 'POST', '/v1/orgs/{org}/spaces', '-f', 'title=Raw', '--dry-run'] },
  /* 14 */ { argv: ['space', 'list', '--query', '[].title'] },
  /* 15 */ { argv: ['space', 'create', '--title', 'Made', '--json', 'id,bogus'] },
  /* 16 */ { argv: ['space', 'list', '--json=title', '--format', 'json'] },
];

let local: Transcript;
let remote: Transcript;
beforeAll(async () => {
  [local, remote] = await Promise.all([runTranscript(steps, 'local'), runTranscript(steps, 'remote')]);
});
afterAll(cleanupTempDirs);

const json = (t: Transcript, i: number) => JSON.parse((t[i] as { stdout: string }).stdout) as unknown;

describe.each([
  ['local', () => local],
  ['remote', () => remote],
] as const)('%s mode', (_mode, get) => {
  it('--json FIELDS keeps only those fields; a bare --json before or after arguments is the whole answer', () => {
    const t = get();
    const hb = t[0]?.stdout.trim();
    const setup = t[1]?.stdout.trim();
    expect(json(t, 2)).toEqual([
      { id: hb, title: 'Handbook' },
      { id: setup, title: 'Setup' },
    ]);
    expect((json(t, 3) as Array<{ object: string }>).map((s) => s.object)).toEqual(['space', 'space']);
    expect(json(t, 4)).toEqual({ title: 'Handbook', visibility: 'private' });
    expect(json(t, 5)).toMatchObject({ object: 'space', id: hb, title: 'Handbook' });
  });

  it('--query evaluates JMESPath on the answer (JSON by default, lines with --format tsv)', () => {
    const t = get();
    expect(json(t, 6)).toEqual([t[1]?.stdout.trim()]);
    expect(t[7]?.stdout).toBe('Handbook\tprivate\nSetup\tprivate\n');
  });

  it('rejects an unknown field or a bad expression with exit 2 and one line', () => {
    const t = get();
    expect(t[8]?.exitCode).toBe(2);
    expect(t[8]?.stderr).toMatch(/^error: Unknown JSON field "nope" \(available: .*\btitle\b.*\)\n$/);
    expect(t[9]?.exitCode).toBe(2);
    expect(t[9]?.stderr).toMatch(/^error: --query "\[\.title" is not a JMESPath expression/);
    expect(t[9]?.stdout).toBe('');
  });

  it('--dry-run prints method, path and body, exits 0 and changes nothing', () => {
    const t = get();
    const [org, hb] = [t[10]?.stdout.match(/\/v1\/orgs\/([^/]+)\/spaces/)?.[1], t[0]?.stdout.trim()];
    expect(t[10]).toMatchObject({ exitCode: 0, stdout: `POST /v1/orgs/${org}/spaces\n{\n  "title": "Dry"\n}\n` });
    expect(t[10]?.stderr).toContain('dry run: nothing was sent or changed');
    expect(json(t, 11)).toEqual({ dryRun: true, method: 'PATCH', path: `/v1/spaces/${hb}`, body: { title: 'Renamed' } });
    expect(t[12]).toMatchObject({ exitCode: 0, stdout: `DELETE /v1/spaces/${hb}\n` });
    expect(t[13]).toMatchObject({ exitCode: 0, stdout: `POST /v1/orgs/${org}/spaces\n{\n  "title": "Raw"\n}\n` });
    expect(json(t, 14)).toEqual(['Handbook', 'Setup']);
  });

  it('after a write, an unknown field is a warning: the write is reported, exit 0', () => {
    const t = get();
    expect(t[15]?.exitCode).toBe(0);
    expect(json(t, 15)).toEqual({ id: expect.any(String) });
    expect(t[15]?.stderr).toMatch(/^warning: Unknown JSON field "bogus"/);
    expect(json(t, 16)).toEqual([{ title: 'Handbook' }, { title: 'Setup' }, { title: 'Made' }]);
  });
});

it('prints the same in both modes', () => {
  expect(remote.map((r) => [r.exitCode, r.stdout])).toEqual(local.map((r) => [r.exitCode, r.stdout]));
});
