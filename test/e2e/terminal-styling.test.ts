/**
 * What a terminal shows, on a real pseudo-terminal (`script`) with colour on:
 * docsctl's own styling reaches the terminal as escape sequences, and data never
 * does — a title's or a page's escape sequences are shown as visible text, and so
 * are bidirectional and invisible format characters in tables and TSV (a title
 * must not display as another). `site inspect` renders inline code followed by a
 * link as what it is, printed directly or through the pager. Through the built
 * binary, locally and against `docsctl serve`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type BinaryMode, describeInBothModes } from '../helpers/binary.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';
import { onTerminal } from '../helpers/terminal.js';

const ESC = '\x1b';
const docs = tempDir('docsctl-styling-');
mkdirSync(docs, { recursive: true });
writeFileSync(join(docs, 'README.md'), '# Welcome\n\nHello.\n');
writeFileSync(join(docs, 'notes.md'), `# Notes\n\nRun \`apt install\` and see [the notes](https://example.com/notes).\n\nEvil: ${ESC}]0;pwned\x07 ${ESC}[31mred\n`);
writeFileSync(join(docs, 'SUMMARY.md'), '# Table of contents\n\n* [Welcome](README.md)\n* [Notes](notes.md)\n');
// Raw ESC, BEL or a C1 control outside docsctl's own SGR styling (ESC [ digits m) and cursor/prompt sequences.
const RAW_DATA_ESCAPE = /\x1b\]|\x07|\x1b\[31m|\u009b/;
const BIDI_TITLE = 'Invoice \u202Efdp.exe';
const INVISIBLE_TITLE = 'ad\u200Bmin';

afterAll(cleanupTempDirs);

describeInBothModes(
  'terminal styling',
  (context) => {
    let cli: BinaryMode;
    let space: string;
    let site: string;
    let terminalEnv: Record<string, string>;
    beforeAll(async () => {
      ({ cli } = context);
      // Colour on, as a user's terminal has it.
      const { NO_COLOR: _off, ...rest } = cli.env;
      terminalEnv = { ...rest, TERM: 'xterm-256color' };
      space = await cli.ok(['space', 'create', '--title', 'Handbook', '--format', 'ids']);
      const cr = await cli.ok(['cr', 'create', space, '--subject', 'Import', '--format', 'ids']);
      await cli.ok(['cr', 'import', space, cr, docs]);
      await cli.ok(['cr', 'merge', space, cr]);
      site = await cli.ok(['site', 'create', '--title', 'Help', '--space', space, '--format', 'ids']);
      await cli.ok(['site', 'publish', site]);
    });

    it('page list styles its own parts on a terminal and never prints its styling as text', async () => {
      const { output, exitCode } = await onTerminal(['page', 'list', space], { env: terminalEnv });
      expect(exitCode, output).toBe(0);
      expect(output).toMatch(new RegExp(`^Welcome  ${ESC}\\[2mreadme  \\w+${ESC}\\[22m\\r$`, 'm'));
      expect(output).toMatch(new RegExp(`^Notes  ${ESC}\\[2mnotes  \\w+${ESC}\\[22m\\r$`, 'm'));
      expect(output).not.toContain('^[');
    });

    it('site inspect picks the only site and variant; inline code then a link, and a page holding escape sequences, printed directly', async () => {
      const keys = [
        { when: /pick a page/, send: `${ESC}[B\r` },
        { when: /the notes[\s\S]*pick a page/, send: `${ESC}[A\r` },
      ];
      const { output, exitCode } = await onTerminal(['site', 'inspect'], { env: terminalEnv, keys, rows: 40 });
      expect(exitCode, output).toBe(0);
      // One site with one variant: both picked without asking (issue 19 §5).
      expect(output).not.toMatch(/Pick a site|pick a (section|variant)/);
      expect(output).toContain(`Run ${ESC}[36mapt install${ESC}[39m and see ${ESC}[4mthe notes${ESC}[24m (https://example.com/notes).`);
      expect(output).toContain('Evil: ^[]0;pwned^G ^[[31mred');
      expect(output).not.toMatch(RAW_DATA_ESCAPE);
    });

    it('site inspect renders the same through the pager', async () => {
      const keys = [
        { when: /pick a page/, send: `${ESC}[B\r` },
        { when: /the notes[\s\S]*pick a page/, send: `${ESC}[A\r` },
      ];
      const { output, exitCode } = await onTerminal(['site', 'inspect', site], { env: { ...terminalEnv, PAGER: 'cat' }, keys, rows: 6 });
      expect(exitCode, output).toBe(0);
      expect(output).toContain(`Run ${ESC}[36mapt install${ESC}[39m and see ${ESC}[4mthe notes${ESC}[24m (https://example.com/notes).`);
      expect(output).toContain('Evil: ^[]0;pwned^G ^[[31mred');
      expect(output).not.toMatch(RAW_DATA_ESCAPE);
    });

    it('bidirectional and invisible format characters in titles are shown escaped in a table and in TSV; --json keeps them', async () => {
      const bidi = await cli.ok(['space', 'create', '--title', BIDI_TITLE, '--format', 'ids']);
      const invisible = await cli.ok(['space', 'create', '--title', INVISIBLE_TITLE, '--format', 'ids']);
      const table = await onTerminal(['space', 'list'], { env: terminalEnv });
      expect(table.output).toMatch(new RegExp(`^${bidi}  Invoice \\\\u202efdp\\.exe `, 'm'));
      expect(table.output).toMatch(new RegExp(`^${invisible}  ad\\\\u200bmin `, 'm'));
      expect(table.output).not.toMatch(/[\u202e\u200b]/);
      const tsv = await cli.run(['space', 'list', '--format', 'tsv']);
      expect(tsv.stdout).toContain(`${bidi}\tInvoice \\u202efdp.exe\t`);
      expect(tsv.stdout).toContain(`${invisible}\tad\\u200bmin\t`);
      expect(tsv.stdout).not.toMatch(/[\u202e\u200b]/);
      const json = JSON.parse(await cli.ok(['space', 'get', bidi, '--json', 'title'])) as { title: string };
      expect(json.title).toBe(BIDI_TITLE);
    });
  },
  { serveFlags: ['--allow-local', docs] },
);
