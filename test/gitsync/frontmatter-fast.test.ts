/** The YAML-free fast path of front matter parsing agrees with the YAML parser or steps aside. */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseSimpleFrontMatter } from '../../src/gitsync/frontmatter.js';

const samples = [
  'description: How to install the CLI\n',
  'description: How to install\nhidden: true\nnoIndex: false\n',
  'icon: rocket\ndescription: Getting started (quickly)\n',
  'description: Version 1.2 of the API\n',
  'description: "quoted"\n',
  "description: 'single'\n",
  'description: yes\n',
  'description: null\n',
  'description: 12\n',
  'description: 1e3\n',
  'description: .inf\n',
  'description: Ends with comment # here\n',
  'description: a: b\n',
  'description: >-\n  folded text\n',
  'layout:\n  width: wide\n',
  'tags: [a, b]\n',
  'description: Ünïcode text\n',
  'description: -dash first\n',
  'description: ~\n',
  'description: true story\n',
  'description: text\ndescription: twice\n',
  'description:\n',
  '# comment\ndescription: x\n',
  'description: tab\there\n',
];

describe('simple front matter', () => {
  it.each(samples)('%j: fast path equals the YAML parser, or defers to it', (text) => {
    const fast = parseSimpleFrontMatter(text);
    if (fast !== undefined) expect(fast).toEqual(parse(text));
  });

  it('handles the common cases itself', () => {
    expect(parseSimpleFrontMatter('description: How to install\nhidden: true\n')).toEqual({ description: 'How to install', hidden: true });
  });
});
