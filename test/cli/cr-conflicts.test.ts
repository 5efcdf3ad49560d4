/**
 * The client-side conflict listing (used against servers that answer a merge
 * with `result: "conflicts"` alone, as GitBook does): it reads the base, the
 * space and the change request through the API and finds the conflicting pages.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, expect, it } from 'vitest';
import { listConflicts, renderDiff } from '../../src/cli/commands/cr-conflicts.js';
import { scriptedPrompter } from '../../src/cli/prompter.js';
import { Session } from '../../src/cli/session.js';
import { randomIds } from '../../src/util/ids.js';
import { runCli } from '../helpers/cli.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

afterAll(cleanupTempDirs);

function fixture(files: Record<string, string>): string {
  const dir = tempDir('docsctl-conflict-');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

it('lists the pages that conflict, and diffs a change request', async () => {
  const env = { DOCSCTL_STORE: join(tempDir(), 'store') };
  const cli = async (...argv: string[]) => {
    const result = await runCli(argv, { env });
    expect(result.exitCode, result.stderr).toBe(0);
    return result.stdout.trim();
  };
  await cli('init');
  const space = await cli('space', 'create', '--title', 'Docs', '--format', 'ids');
  const summary = '* [Home](README.md)\n* [Guide](guide.md)\n';
  const base = { 'README.md': '# Home\n\nHi.\n', 'SUMMARY.md': summary, 'guide.md': '# Guide\n\nStep one.\n' };
  const first = await cli('cr', 'create', space, '--format', 'ids');
  await cli('cr', 'import', space, first, fixture(base));
  await cli('cr', 'merge', space, first);
  const a = await cli('cr', 'create', space, '--format', 'ids');
  const b = await cli('cr', 'create', space, '--format', 'ids');
  await cli('cr', 'import', space, a, fixture({ ...base, 'guide.md': '# Guide\n\nStep one, fast.\n' }));
  await cli('cr', 'import', space, b, fixture({ ...base, 'guide.md': '# Guide\n\nStep one, slow.\n' }));
  await cli('cr', 'merge', space, a);

  const out = new PassThrough();
  const session = new Session(
    {
      io: { in: Readable.from([]), out, err: new PassThrough(), isStdoutTTY: false, isStdinTTY: false, colorEnabled: false, columns: undefined },
      env: { ...env, NO_COLOR: '1' },
      clock: () => new Date(),
      ids: randomIds(),
      prompter: scriptedPrompter([]),
      version: 'test',
      onStopSignal: () => () => undefined,
    },
    {},
  );
  try {
    const conflicts = await listConflicts(session, space, b, 'merge');
    expect(conflicts.map((c) => c.path)).toEqual(['guide']);
    expect(conflicts[0]?.reason).toMatch(/the space and the change request/);
    const diff = await renderDiff(session, space, b);
    expect(diff.text).toMatch(/^edited\s+guide$/m);
    expect(diff.text).toContain('-Step one, fast.');
    expect(diff.text).toContain('+Step one, slow.');
  } finally {
    await session.close();
  }
});
