/**
 * `docsctl translation glossary list|get|update` and `translation run` through the built
 * binary, on a local store and against `docsctl serve`: expected values, and bad input as one
 * line with its exit code and nothing written.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { type BinaryMode, describeInBothModes } from '../helpers/binary.js';

describeInBothModes('translation glossary and runs', (context) => {
  let cli: BinaryMode;
  let org: string;
  beforeAll(async () => {
    ({ cli } = context);
    org = (await cli.ok(['org', 'list', '--format', 'ids'])).split('\n')[0] as string;
  });

  const rows = async (...args: string[]) => (await cli.ok(['translation', 'glossary', 'list', ...args, '--format', 'tsv'])).split('\n').map((line) => line.split('\t').slice(1, 2)[0]);

  it('adds, replaces and deletes entries, lists them (by a language) and shows one', async () => {
    await cli.ok(['translation', 'glossary', 'update', '--add', 'en=Space,fr=Espace,de=Bereich', '--add', 'en=Page,de=Seite']);
    // Entries are listed in id order (two made in the same millisecond come in either order).
    expect((await rows()).sort()).toEqual(['en=Page, de=Seite', 'en=Space, fr=Espace, de=Bereich']);
    const lines = (await cli.ok(['translation', 'glossary', 'list', '--format', 'tsv'])).split('\n').map((line) => line.split('\t'));
    const space = lines.find((cells) => cells[1]?.startsWith('en=Space'))?.[0];
    const page = lines.find((cells) => cells[1]?.startsWith('en=Page'))?.[0];
    await cli.ok(['translation', 'glossary', 'update', '--set', `${page}:en=Page,fr=Page,de=Seite`]);
    expect(await rows('--order-by', 'fr')).toEqual(['en=Space, fr=Espace, de=Bereich', 'en=Page, fr=Page, de=Seite']);
    expect(JSON.parse(await cli.ok(['translation', 'glossary', 'get', page as string, '--json']))).toMatchObject({
      object: 'glossary-entry',
      id: page,
      translations: { en: 'Page', fr: 'Page', de: 'Seite' },
    });
    await cli.ok(['translation', 'glossary', 'update', '--delete', page as string]);
    expect(await cli.ok(['translation', 'glossary', 'list', '--format', 'ids'])).toBe(space);
  });

  it('refuses bad input in one line, writing nothing', async () => {
    const before = await cli.ok(['translation', 'glossary', 'list', '--format', 'ids']);
    const unknown = await cli.run(['translation', 'glossary', 'update', '--add', 'en=New', '--delete', 'nope']);
    expect(unknown.exitCode).toBe(4);
    expect(unknown.stderr).toMatch(/^error: Glossary entry nope not found in organization \S+ \(operation 2, delete\)/);
    const pair = await cli.run(['translation', 'glossary', 'update', '--add', 'Space']);
    expect(pair.exitCode).toBe(2);
    expect(pair.stderr).toMatch(/^error: --add expects LANGUAGE=TERM pairs separated by commas \(en=Space,fr=Espace\), got "Space"/);
    const language = await cli.run(['translation', 'glossary', 'update', '--add', 'xx=Space']);
    expect(language.exitCode).toBe(2);
    expect(language.stderr).toMatch(/xx/);
    const nothing = await cli.run(['translation', 'glossary', 'update']);
    expect(nothing.exitCode).toBe(2);
    expect(await cli.ok(['translation', 'glossary', 'list', '--format', 'ids'])).toBe(before);
  });

  it('runs a translation: the translated space is made, the translation completed with its result', async () => {
    const space = await cli.ok(['space', 'create', '--title', 'Handbook', '--format', 'ids']);
    const body = join(cli.home, 'translation.json');
    writeFileSync(body, JSON.stringify({ source: { space, language: 'en' }, language: 'fr' }));
    const created = JSON.parse(await cli.ok(['api', 'POST', `/v1/orgs/${org}/translations`, '--input', body])) as { id: string; status: string };
    expect(created.status).toBe('pending');
    const first = (await cli.ok(['translation', 'run', created.id, '--format', 'tsv'])).split('\t');
    expect(first.slice(0, 5)).toEqual([created.id, 'en → fr', 'fr', space, 'completed']);
    const ran = JSON.parse(await cli.ok(['translation', 'run', created.id, '--json'])) as { result: { space: string; language: string }; stats: { runs: number } };
    expect(ran).toMatchObject({ result: { language: 'fr' }, stats: { runs: 2 } });
    expect(JSON.parse(await cli.ok(['space', 'get', ran.result.space, '--json']))).toMatchObject({ title: 'Handbook (fr)', language: 'fr' });
    const settings = await cli.ok(['translation', 'create', '--title', 'EU', '--format', 'ids']);
    const refused = await cli.run(['translation', 'run', settings]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/not a translation/);
  });
});
