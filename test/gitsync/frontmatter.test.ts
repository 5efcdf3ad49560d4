import { describe, expect, it } from 'vitest';
import type { ContentRef } from '../../src/content-model/model.js';
import {
  fieldsFromFrontMatter,
  parseFrontMatter,
  renderFrontMatter,
  splitFrontMatter,
  type CoverCodec,
} from '../../src/gitsync/frontmatter.js';

const codec: CoverCodec = {
  write: (ref: ContentRef) => (ref.kind === 'url' ? ref.url : ref.kind === 'file' ? `assets/${ref.file}` : undefined),
  read: (value: string) => (value.startsWith('http') ? { kind: 'url', url: value } : { kind: 'file', file: value.replace('assets/', '') }),
};

describe('front matter', () => {
  it('splits only a closed block at byte 0', () => {
    expect(splitFrontMatter('---\na: 1\n---\nbody')).toEqual({
      frontMatter: { raw: '---\na: 1\n---\n', open: '---\n', yaml: 'a: 1\n', close: '---\n' },
      body: 'body',
    });
    expect(splitFrontMatter('---\r\na: 1\r\n...\r\n').frontMatter?.close).toBe('...\r\n');
    expect(splitFrontMatter('---\na: 1\n---').frontMatter?.close).toBe('---');
    expect(splitFrontMatter('---\nnot closed\n')).toEqual({ body: '---\nnot closed\n' });
    expect(splitFrontMatter(' ---\na: 1\n---\n')).toEqual({ body: ' ---\na: 1\n---\n' });
    expect(splitFrontMatter('---\n---\n# T').frontMatter?.yaml).toBe('');
  });

  it('maps the fields GitBook reads', () => {
    const { data } = parseFrontMatter(
      [
        'description: >-',
        '  folded',
        '  text',
        'icon: rocket',
        'hidden: true',
        'noIndex: false',
        'noRobotsIndex: true',
        'cover: assets/c1',
        'coverY: 12.5',
        'layout:',
        '  width: wide',
        '  cover: {visible: true, size: full, mask: radial}',
        '  title: {visible: false}',
        '  metadata: {visible: true}',
        '  tags: {visible: true}',
        'tags: [a, b]',
        'unknown: kept',
      ].join('\n'),
    );
    expect(fieldsFromFrontMatter(data, codec.read)).toEqual({
      description: 'folded text',
      icon: 'rocket',
      hidden: true,
      noIndex: false,
      noRobotsIndex: true,
      cover: { ref: { kind: 'file', file: 'c1' }, yPos: 12.5 },
      // 0.202's RevisionPageLayoutOptions: cover.mask is coverMask, and the newer tags/actions/anchors flags are read.
      layout: { width: 'wide', cover: true, coverSize: 'full', coverMask: 'radial', title: false, metadata: true, tags: true },
    });
  });

  it("writes 0.202's layout keys back where GitBook puts them: cover.mask and the tags/actions/anchors flags", () => {
    const raw = splitFrontMatter('---\nlayout:\n  cover:\n    visible: true\n    size: hero\n---\n').frontMatter;
    const layout = { cover: true, coverSize: 'hero', coverMask: 'radial', actions: false, anchors: true } as const;
    const text = renderFrontMatter(raw, { layout }, codec, '\n').text;
    expect(text).toBe('---\nlayout:\n  cover:\n    visible: true\n    size: hero\n    mask: radial\n  actions:\n    visible: false\n  anchors:\n    visible: true\n---\n');
    const back = splitFrontMatter(text ?? '').frontMatter;
    expect(fieldsFromFrontMatter(parseFrontMatter(back?.yaml ?? '').data, codec.read)).toEqual({ layout });
    expect(renderFrontMatter(back, { layout }, codec, '\n').text).toBe(text);
  });

  it('reports invalid YAML and non-mappings', () => {
    expect(parseFrontMatter('a: b: c').error).toBeDefined();
    expect(parseFrontMatter('- a').error).toBe('front matter is not a mapping');
    expect(parseFrontMatter('')).toEqual({ data: {} });
  });

  it('keeps the raw block when the fields are unchanged, patches only changed keys otherwise', () => {
    const raw = splitFrontMatter('---\n# a comment\nname: x\ndescription: old\nlayout:\n  width: default\n  title:\n    visible: true\n---\n').frontMatter;
    expect(renderFrontMatter(raw, { description: 'old', layout: { width: 'default', title: true } }, codec, '\n').text).toBe(raw?.raw);
    expect(renderFrontMatter(raw, { description: 'new', layout: { width: 'wide' }, hidden: true }, codec, '\n').text).toBe(
      '---\n# a comment\nname: x\ndescription: new\nlayout:\n  width: wide\nhidden: true\n---\n',
    );
    // Everything removed but an unknown key.
    expect(renderFrontMatter(raw, {}, codec, '\n').text).toBe('---\n# a comment\nname: x\n---\n');
  });

  it('drops a block left empty and writes new blocks in GitBook order with CRLF when asked', () => {
    const raw = splitFrontMatter('---\r\ndescription: x\r\n---\r\n').frontMatter;
    expect(renderFrontMatter(raw, {}, codec, '\r\n').text).toBeUndefined();
    expect(renderFrontMatter(undefined, {}, codec, '\n').text).toBeUndefined();
    const long = 'A description long enough that GitBook folds it over more than one line of front matter text.';
    const text = renderFrontMatter(
      undefined,
      { noIndex: true, cover: { ref: { kind: 'url', url: 'https://x/c.png' }, yPos: 3 }, description: long, icon: 'book' },
      codec,
      '\r\n',
    ).text;
    expect(text).toBe(
      '---\r\ndescription: >-\r\n  A description long enough that GitBook folds it over more than one line of\r\n  front matter text.\r\nicon: book\r\ncover: https://x/c.png\r\ncoverY: 3\r\nnoIndex: true\r\n---\r\n',
    );
    const back = splitFrontMatter(text ?? '').frontMatter;
    expect(fieldsFromFrontMatter(parseFrontMatter(back?.yaml ?? '').data, codec.read)).toEqual({
      description: long,
      icon: 'book',
      cover: { ref: { kind: 'url', url: 'https://x/c.png' }, yPos: 3 },
      noIndex: true,
    });
  });

  it('replaces a block that is not valid YAML only when fields must be written', () => {
    const raw = splitFrontMatter('---\nthis: is: bad\n---\n').frontMatter;
    expect(renderFrontMatter(raw, {}, codec, '\n').text).toBe(raw?.raw);
    const rendered = renderFrontMatter(raw, { icon: 'x' }, codec, '\n');
    expect(rendered.text).toBe('---\nicon: x\n---\n');
    expect(rendered.warning).toMatch(/not a valid YAML mapping/);
  });
});
