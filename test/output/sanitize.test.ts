/** Terminal sanitising: control characters become visible text, as gh does; layout characters stay where allowed. */
import { describe, expect, it } from 'vitest';
import { renderList, renderObject } from '../../src/output/render.js';
import { forStderr, sanitizeLine, sanitizeText } from '../../src/output/sanitize.js';

describe('sanitizeLine / sanitizeText', () => {
  it.each([
    ['OSC title', 'a\x1b]0;pwned\x07b', 'a^[]0;pwned^Gb'],
    ['CSI colour', '\x1b[31mred', '^[[31mred'],
    ['NUL and DEL', 'a\x00b\x7f', 'a^@b^?'],
    ['8-bit CSI (C1)', 'x\u009b2J', 'x\\u009b2J'],
    ['carriage return (overwrites a line)', 'ok\rfake', 'ok^Mfake'],
    ['plain text and Unicode untouched', 'Café — 東京 ✓', 'Café — 東京 ✓'],
  ])('%s', (_name, input, expected) => {
    expect(sanitizeLine(input)).toBe(expected);
    expect(sanitizeText(input)).toBe(expected);
  });

  it('keeps newline and tab only in multi-line text', () => {
    expect(sanitizeLine('a\nb\tc')).toBe('a^Jb^Ic');
    expect(sanitizeText('a\nb\tc')).toBe('a\nb\tc');
  });

  it('shows bidirectional overrides and isolates escaped everywhere, invisible format characters in one-line cells', () => {
    const spoof = 'Invoice \u202efdp.exe \u2066x\u2069';
    expect(sanitizeLine(spoof)).toBe('Invoice \\u202efdp.exe \\u2066x\\u2069');
    expect(sanitizeText(spoof)).toBe('Invoice \\u202efdp.exe \\u2066x\\u2069');
    expect(sanitizeLine('ad\u200bmin \u200e\u200f \ufeff')).toBe('ad\\u200bmin \\u200e\\u200f \\ufeff');
    // Prose keeps what emoji and right-to-left scripts need: the zero-width joiner, the marks.
    expect(sanitizeText('👩\u200d💻 \u200f')).toBe('👩\u200d💻 \u200f');
  });

  it('forStderr also redacts URL credentials and bearer tokens', () => {
    expect(forStderr('cannot fetch https://bob:Pa/ss-77@host/x.git \x1b[2J (Bearer gb_api_abc)')).toBe(
      'cannot fetch https://***@host/x.git ^[[2J (Bearer ***)',
    );
  });
});

describe('render', () => {
  const columns = [
    { header: 'ID', get: (r: Record<string, unknown>) => r.id },
    { header: 'TITLE', get: (r: Record<string, unknown>) => r.title },
  ];
  const items = [{ id: 's1', title: 'evil \x1b]0;pwned\x07 \x1b[31m\u009b' }];
  const options = (format: 'table' | 'tsv' | 'json' | 'yaml' | 'ids') => ({ format, columns, color: false, width: 120 });

  it.each(['table', 'tsv', 'yaml', 'ids'] as const)('%s output has no raw control character', async (format) => {
    for (const text of [await renderList(items, options(format)), await renderObject(items[0], options(format))]) {
      expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    }
  });

  it('TSV turns tabs and newlines inside a cell into one space', async () => {
    expect(await renderList([{ id: 's1', title: 'a\t\nb\x1b' }], options('tsv'))).toBe('s1\ta b^[\n');
  });

  it('JSON keeps the exact data', async () => {
    expect(JSON.parse(await renderList(items, options('json')))).toEqual(items);
  });
});

describe('typed errors', () => {
  it('redact the userinfo of every URL in their message and hint, parsable or not', async () => {
    const { ApiError, UsageError } = await import('../../src/api/errors.js');
    const error = new ApiError(400, 'Invalid repository URL https://bob:Pa/ss-77@host/x.git');
    expect(error.message).toBe('Invalid repository URL https://***@host/x.git');
    expect(error.toBody().error.message).not.toContain('Pa/ss');
    const usage = new UsageError('bad', { hint: 'try ssh://git:tok@host/x' });
    expect(usage.hint).toBe('try ssh://***@host/x');
  });
});
