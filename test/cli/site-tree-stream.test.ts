/**
 * `site tree` prints as it reads: variants come out in tree order even when their
 * page trees arrive out of order (remote mode reads several at once), and a read
 * that fails stops the tree with that error after the variants before it.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import { type ApiStructure, printSiteTree } from '../../src/cli/commands/site-tree.js';
import type { Session } from '../../src/cli/session.js';
import type { ApiResponse, Transport } from '../../src/transport/types.js';

const variant = (n: number) => ({
  object: 'site-space',
  id: `ss${n}`,
  path: `v${n}`,
  title: `Variant ${n}`,
  default: n === 1,
  space: { id: `space${n}` },
  urls: { published: `https://acme.gitbook.io/docs/v${n}/` },
});

const structure = {
  type: 'sections',
  structure: [
    { object: 'site-section', id: 'sec1', title: 'One', path: 'one', default: true, siteSpaces: [variant(1), variant(2)], urls: {} },
    {
      object: 'site-section-group',
      id: 'grp',
      title: 'More',
      children: [{ object: 'site-section', id: 'sec2', title: 'Two', path: 'two', siteSpaces: [variant(3)], urls: {} }],
    },
  ],
} as unknown as ApiStructure;

/** A remote-mode transport whose answers arrive after `delays[space]` ms; `failing` answers 404. */
function transport(delays: Record<string, number>, failing?: string): Transport & { asked: string[]; most: number } {
  const asked: string[] = [];
  let inFlight = 0;
  const t = {
    mode: 'remote',
    asked,
    most: 0,
    request: async (_route: string, input: { params?: Record<string, string> }): Promise<ApiResponse> => {
      const space = input.params?.spaceId ?? '';
      asked.push(space);
      t.most = Math.max(t.most, ++inFlight);
      await new Promise((resolve) => setTimeout(resolve, delays[space] ?? 0));
      inFlight -= 1;
      if (space === failing) throw new ApiError(404, `Space ${space} not found`);
      return { status: 200, body: { pages: [{ id: `p-${space}`, title: `Page of ${space}`, path: 'page', pages: [] }] } };
    },
  };
  return t as unknown as Transport & { asked: string[]; most: number };
}

function session(t: Transport): Session & { out: string[] } {
  const out: string[] = [];
  return {
    out,
    format: 'table',
    transport: async () => t,
    printText: async (text: string) => {
      out.push(text);
    },
    hint: async () => undefined,
  } as unknown as Session & { out: string[] };
}

describe('site tree output as it reads', () => {
  it('prints variants in tree order although later ones answer first, reading them together', async () => {
    const t = transport({ space1: 40, space2: 5, space3: 0 });
    const s = session(t);
    await printSiteTree(s, structure);
    expect(t.asked).toEqual(['space1', 'space2', 'space3']);
    expect(t.most).toBe(3);
    expect(s.out.join('\n').split('\n')).toEqual([
      '# One  section sec1  /one  default',
      '  * Variant 1  variant ss1  /v1  default  https://acme.gitbook.io/docs/v1/',
      '    Page of space1  https://acme.gitbook.io/docs/v1/page',
      '  * Variant 2  variant ss2  /v2  https://acme.gitbook.io/docs/v2/',
      '    Page of space2  https://acme.gitbook.io/docs/v2/page',
      '[More]  group grp',
      '  # Two  section sec2  /two',
      '    * Variant 3  variant ss3  /v3  https://acme.gitbook.io/docs/v3/',
      '      Page of space3  https://acme.gitbook.io/docs/v3/page',
    ]);
  });

  it('stops with the error of a failing read', async () => {
    const s = session(transport({}, 'space2'));
    await expect(printSiteTree(s, structure)).rejects.toThrow(/Space space2 not found/);
    expect(s.out.join('\n')).not.toContain('Variant 2');
  });
});
