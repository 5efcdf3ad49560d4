/**
 * The block-style YAML reader (src/orgcode/yaml-block.ts): whatever it reads, it reads to the
 * value YAML 1.2's core schema gives (both yaml and js-yaml); whatever it does not know, it
 * leaves to them (undefined). Checked on export's own output, on tricky scalars one by one, and
 * on every line of a file cut, indented or joined differently.
 */
import { load as jsYamlLoad } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { formatOrgFile } from '../../src/orgcode/export.js';
import type { OrgFile } from '../../src/orgcode/schema.js';
import { readBlockYaml } from '../../src/orgcode/yaml-block.js';

/** What the YAML parsers give, or an error string when either refuses or they disagree. */
function reference(text: string): unknown {
  let a: unknown;
  let b: unknown;
  try {
    a = parse(text, { uniqueKeys: true, merge: false });
    b = jsYamlLoad(text, { maxAliases: 0 });
  } catch (error) {
    return `refused: ${(error as Error).message.split('\n')[0]}`;
  }
  return JSON.stringify(a) === JSON.stringify(b) ? a : 'parsers disagree';
}

/** readBlockYaml either leaves the text to the parsers or gives their value, key order included. */
function expectFaithful(text: string): 'read' | 'left' {
  const value = readBlockYaml(text);
  if (value === undefined) return 'left';
  const expected = reference(text);
  expect(typeof expected === 'string' ? expected : JSON.stringify(value), text).toBe(JSON.stringify(expected));
  return 'read';
}

// As `export org -o org.yaml` writes it (no line folding: a long description stays on its line).
const EXPORTED = await formatOrgFile({
  organization: { title: 'Acme Docs', emailDomains: [], inviteLinks: false },
  members: [{ email: 'ada@acme.io', role: 'admin' }, { email: 'bob@acme.io', role: 'read' }],
  customFields: [{ name: 'tier', type: 'select:single', title: 'Tier', options: ['gold', 'silver'] }],
  collections: [{ title: 'Engineering', description: `All: of it, ${'and more '.repeat(12)}`, collections: [{ title: 'Handbook', defaultLevel: null }] }],
  spaces: [
    { title: 'Onboarding', emoji: '1f680', parent: 'Engineering/Handbook', customFields: { tier: 'gold', n: 3, ok: true, none: null, tags: ['a', 'b'] }, git: { url: 'https://github.com/acme/docs.git', ref: 'main' } },
    { title: "Bob's notes #1", emoji: '', visibility: 'private' },
    { title: 'yes', parent: '2024-01-01' },
    { title: 'true' },
    { title: '123' },
    { title: ' padded ' },
    { title: 'Ünïcödé ✓ 🚀' },
    { title: 'quote " and \\ backslash' },
  ],
  teams: [{ title: 'Writers', members: ['ada@acme.io', { email: 'bob@acme.io', role: 'owner' }] }, { title: 'Empty', members: [] }],
  sites: [{ title: 'Portal', customization: { styling: { primaryColor: { light: '#112233' } } }, redirects: [{ source: '/old/*', destination: { space: 'Onboarding' }, permanent: true }] }],
  fonts: [{ fontFamily: 'Brand', fontFaces: [{ weight: 400, storageKey: 'https://cdn.acme.io/b.woff2' }] }],
} as OrgFile, 'org.yaml');

const SCALARS = [
  'plain', 'two words', 'a:b', 'http://x.io/a?b=c#d', 'a, b', 'x [y] {z}', 'ends.', 'Ünï ✓',
  '1', '0', '42', '007', '1f680', '1e3', '1.5', '.5', '1.', '+1', '-1', '-0', '0x1F', '0o17', '0b101', '1_000', '12:30', '2024-01-01', '1.2.3', '12abc',
  '.inf', '-.Inf', '.nan', '.NaN', 'null', 'Null', 'NULL', '~', 'true', 'True', 'TRUE', 'false', 'FALSE', 'yes', 'no', 'on', 'off', 'y', 'n',
  '"double"', '"with \\"escape\\" and \\\\ and \\n and \\u00e9"', '"\\x41"', '"\\e"', '"unclosed', '"a" trailing', "'single'", "'it''s'", "'bad'quote'", "''", '""',
  '[]', '{}', '[a, b]', '{a: 1}', '&anchor x', '*alias', '!tag x', '|', '>', '- x', '? x', '# comment', 'a # comment', 'a #b', 'key: value', 'x:', '%x', '@x', '`x',
  "9999999999999999", '123456789012345', '1234567890123456',
];

describe('readBlockYaml', () => {
  it("reads export's YAML to the parsers' value", () => {
    expect(expectFaithful(EXPORTED)).toBe('read');
  });

  it('reads each kind of scalar as the core schema does, or leaves it to the parsers', () => {
    const outcomes = new Map<string, string>();
    for (const scalar of SCALARS) {
      for (const text of [`k: ${scalar}\n`, `k:\n  - ${scalar}\n`, `k:\n- ${scalar}\n`, `k:\n  - a: ${scalar}\n    b: 1\n`]) outcomes.set(text, expectFaithful(text));
    }
    // Numbers other than small integers, flow collections with items, anchors, tags and block scalars go to the parsers.
    for (const left of ['1e3', '1.5', '0x1F', '.inf', '[a, b]', '&anchor x', '!tag x', '|', 'a # comment', '"\\x41"']) expect(outcomes.get(`k: ${left}\n`), left).toBe('left');
    for (const read of ['plain', '42', '1f680', '2024-01-01', 'yes', 'null', 'True', '"double"', "'it''s'", '[]', '{}', 'http://x.io/a?b=c#d']) expect(outcomes.get(`k: ${read}\n`), read).toBe('read');
  });

  it('reads nesting, comments, blank lines and same-indent sequences; leaves the rest to the parsers', () => {
    const read = [
      '# head\na:\n  b:\n    - c\n    -   d\n\n  e: f  \n',
      'a:\n- x: 1\n  y:\n  - z\n- w\n',
      'a:\n  -\n    x: 1\n  - null\nb: {}\n',
      'a:\n  - x: 1\n    # inside\n    y: 2\n',
      'a:\n',
      'a: 1\nb:\n',
      'a: \u00a0x\nb:   \u2003\nc:\n  - \u00a0y\n', // no-break and em spaces are content, not separation
    ];
    for (const text of read) expect(expectFaithful(text), text).toBe('read');
    const left = [
      'a: 1\na: 2\n', // duplicate key: the parsers' error
      'a: x\n  y\n', // a multi-line plain scalar
      'a:\n  - x\n  y\n',
      '---\na: 1\n',
      'a: |\n  text\n',
      '"q": 1\n',
      'a :\n',
      'a:\tb\n',
      'a: b\r\n',
      '- a\n',
      '  a: 1\n',
      'true: 1\n',
      '__proto__: 1\n',
      'a:\n  - - x\n',
      'a: [x, y]\n',
      'a:\n  b: 1\n   c: 2\n',
      'a: \u0085x\n',
    ];
    for (const text of left) expect(readBlockYaml(text), JSON.stringify(text)).toBeUndefined();
  });

  it("stays faithful on every line of export's file re-indented, joined, cut or commented", () => {
    const lines = EXPORTED.split('\n');
    let read = 0;
    for (let i = 0; i < lines.length; i += 1) {
      const variants = [
        [...lines.slice(0, i), ` ${lines[i]}`, ...lines.slice(i + 1)],
        [...lines.slice(0, i), (lines[i] as string).replace(/^ {2}/, ''), ...lines.slice(i + 1)],
        [...lines.slice(0, i), `${lines[i]} ${lines[i + 1]?.trim() ?? ''}`, ...lines.slice(i + 2)],
        [...lines.slice(0, i), ...lines.slice(i + 1)],
        [...lines.slice(0, i), `${lines[i]} # note`, ...lines.slice(i + 1)],
        [...lines.slice(0, i), (lines[i] as string).replace(': ', ':  '), ...lines.slice(i + 1)],
      ];
      for (const variant of variants) if (expectFaithful(variant.join('\n')) === 'read') read += 1;
    }
    expect(read).toBeGreaterThan(lines.length);
  });
});
