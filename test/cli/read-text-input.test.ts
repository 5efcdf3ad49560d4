import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/api/errors.js';
import { readTextInput } from '../../src/cli/io.js';

describe('readTextInput (--body-file, --file, --input)', () => {
  it('reads stdin for "-"', async () => {
    expect(await readTextInput(Readable.from([Buffer.from('héllo '), Buffer.from('world')]), '-', '--file')).toBe('héllo world');
  });

  it('reads a file', async () => {
    expect(await readTextInput(Readable.from([]), new URL(import.meta.url).pathname, '--file')).toContain('readTextInput');
  });

  it('names the flag, the file and the reason when the file cannot be read', async () => {
    const failure = readTextInput(Readable.from([]), '/nonexistent/members.txt', '--file');
    await expect(failure).rejects.toBeInstanceOf(UsageError);
    await expect(failure).rejects.toThrow('Cannot read --file /nonexistent/members.txt: ENOENT');
  });
});
