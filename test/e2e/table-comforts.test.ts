/**
 * Small comforts on a terminal (issue 23 §4), through the built binary in both modes:
 * times in tables read "just now" / "3 hours ago" on a terminal and stay ISO 8601 in
 * pipes and JSON; `--columns a,b,c` picks table/TSV columns in order; `-o wide` shows
 * every column on a narrow terminal. A typo in --columns changes nothing.
 */
import { beforeAll, expect, it } from 'vitest';
import { describeInBothModes } from '../helpers/binary.js';
import { onTerminal } from '../helpers/terminal.js';

/** The space was created moments ago (a loaded machine may make it minutes). */
const RECENT = '(just now|\\d+ minutes? ago)';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

describeInBothModes('tables on a terminal', (context) => {
  let handbook: string;
  beforeAll(async () => {
    handbook = await context.cli.ok(['space', 'create', '--title', 'Handbook', '--format', 'ids']);
  });
  const terminal = (args: string[], columns = 80) => onTerminal(args, { env: context.cli.env, columns });
  const lines = (output: string) => output.replace(/\r/g, '').split('\n').map((line) => line.trimEnd());

  it('show times relative on a terminal, ISO 8601 in pipes and JSON', async () => {
    const table = await terminal(['space', 'list', '--columns', 'title,updated'], 120);
    expect(table.exitCode, table.output).toBe(0);
    expect(lines(table.output)).toContainEqual(expect.stringMatching(new RegExp(`^Handbook  ${RECENT}$`)));
    const details = await terminal(['space', 'get', handbook]);
    expect(details.output).toMatch(new RegExp(`UPDATED {5}${RECENT} \\(\\d{4}-\\d{2}-\\d{2}T[\\d:.]+Z\\)`));
    const tsv = await context.cli.ok(['space', 'list', '--columns', 'title,updated']);
    expect(tsv.split('\t')[0]).toBe('Handbook');
    expect(tsv.split('\t')[1]).toMatch(ISO);
    const json = JSON.parse(await context.cli.ok(['space', 'get', handbook, '--json', 'updatedAt'])) as { updatedAt: string };
    expect(json.updatedAt).toMatch(ISO);
  });

  it('--columns picks the columns, in order, in tables and TSV', async () => {
    const table = await terminal(['space', 'list', '--columns', 'title,id']);
    expect(lines(table.output).slice(0, 2)).toEqual([expect.stringMatching(/^TITLE\s+ID$/), expect.stringMatching(new RegExp(`^Handbook\\s+${handbook}$`))]);
    expect(await context.cli.ok(['space', 'list', '--columns', 'ID,Visibility,edit_mode'])).toBe(`${handbook}\tprivate\tlive`);
  });

  it('-o wide shows every column on a narrow terminal, which otherwise hides the wide ones', async () => {
    const narrow = await terminal(['space', 'list']);
    expect(lines(narrow.output)[0]).toMatch(/^ID\s+TITLE\s+VISIBILITY\s+PARENT$/);
    const wide = await terminal(['space', 'list', '-o', 'wide']);
    expect(lines(wide.output)[0]).toMatch(/^ID\s+TITLE\s+VISIBILITY\s+PARENT\s+EDIT MODE\s+UPDATED\s+DELETED$/);
    expect(lines(wide.output)[1]).toMatch(new RegExp(`^${handbook}\\s+Handbook\\s+private\\s+live\\s+${RECENT}$`));
  });

  it('refuses an unknown column (exit 2, naming the columns there are) before it changes anything', async () => {
    const typo = await context.cli.run(['space', 'create', '--title', 'Guides', '--columns', 'titel']);
    expect(typo.exitCode).toBe(2);
    expect(typo.stderr).toContain('error: Unknown column "titel" for --columns');
    expect(typo.stderr).toContain("this command's columns: id, title, visibility, parent, edit-mode, updated, deleted");
    expect((await context.cli.ok(['space', 'list', '--format', 'ids'])).split('\n')).toEqual([handbook]);
    const withJson = await context.cli.run(['space', 'list', '--json', '--columns', 'id']);
    expect(withJson.exitCode).toBe(2);
    expect(withJson.stderr).toContain('--columns chooses the columns of tables and TSV, not of --format json');
  });
});
