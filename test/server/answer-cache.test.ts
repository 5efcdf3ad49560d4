/**
 * serve keeps costly read answers for the store's current generation (AnswerCache):
 * `getSiteTree` is computed once per generation, any commit makes the next request
 * compute it afresh, and every request still passes its own access check first.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { issueToken } from '../../src/domain/accounts.js';
import type { SiteTreeTextAnswer } from '../../src/domain/sites/tree-shape.js';
import { treeText } from '../../src/domain/sites/tree-text.js';
import { GenerationAnswers } from '../../src/server/answer-cache.js';
import { type RunningServer, startServer } from '../../src/server/server.js';
import { contentSetup, doc } from '../domain/content/helpers.js';
import { watchedReads } from '../helpers/stores.js';

describe('GenerationAnswers', () => {
  it('computes an answer once per generation, and afresh at the next', () => {
    const answers = new GenerationAnswers();
    let computed = 0;
    const compute = () => ++computed;
    expect(answers.at(3).get('a', compute)).toBe(1);
    expect(answers.at(3).get('a', compute)).toBe(1);
    expect(answers.at(3).get('b', compute)).toBe(2);
    expect(answers.at(4).get('a', compute)).toBe(3);
    expect(answers.at(4).get('a', compute)).toBe(3);
  });

  it('does not keep what a request still reading an older generation computes', () => {
    const answers = new GenerationAnswers();
    let computed = 0;
    const compute = () => ++computed;
    const older = answers.at(3);
    expect(answers.at(4).get('a', compute)).toBe(1);
    expect(older.get('a', compute)).toBe(2);
    expect(older.get('a', compute)).toBe(3);
    expect(answers.at(4).get('a', compute)).toBe(1);
  });

  it('keeps at most its limit of answers, the oldest leaving first, and never a failure', () => {
    const answers = new GenerationAnswers(2).at(1);
    let computed = 0;
    const compute = () => ++computed;
    answers.get('a', compute);
    answers.get('b', compute);
    answers.get('c', compute);
    expect(answers.get('b', compute)).toBe(2);
    expect(answers.get('c', compute)).toBe(3);
    expect(answers.get('a', compute)).toBe(4);
    expect(() =>
      answers.get('d', () => {
        throw new Error('no');
      }),
    ).toThrow('no');
    expect(answers.get('d', compute)).toBe(5);
  });
});

describe('GenerationAnswers: lasting values', () => {
  it('are kept across generations, the least recently used leaving once their sizes pass the bound', () => {
    const answers = new GenerationAnswers(16, 10);
    let computed = 0;
    const compute = (size: number) => () => ({ n: ++computed, size });
    const size = (value: { size: number }) => value.size;
    expect(answers.at(1).lasting('a', compute(4), size).n).toBe(1);
    expect(answers.at(2).lasting('b', compute(4), size).n).toBe(2);
    expect(answers.at(3).lasting('a', compute(4), size).n).toBe(1); // a is now the most recently used
    expect(answers.at(3).lasting('c', compute(4), size).n).toBe(3); // 12 > 10: b leaves
    expect(answers.at(3).lasting('a', compute(4), size).n).toBe(1);
    expect(answers.at(3).lasting('b', compute(4), size).n).toBe(4);
    expect(answers.at(3).lasting('huge', compute(11), size).n).toBe(5); // bigger than the bound: not kept
    expect(answers.at(3).lasting('huge', compute(11), size).n).toBe(6);
  });
});

describe('serve: the site tree kept for the generation', () => {
  let server: RunningServer | undefined;
  afterEach(async () => {
    await server?.close();
  });

  it('is read once while nothing changes, afresh after a commit, and each caller’s access is checked first', async () => {
    const h = await contentSetup();
    const guide = await h.createSpace('Guide');
    await h.seedSpace(guide.id, { pages: [doc('p-intro', 'Intro', '# Intro\n')], files: [] });
    const site = await h.admin.ok('createSite', { params: { organizationId: h.orgId }, body: { title: 'Docs', type: 'premium' } }, 201);
    await h.admin.ok('addSectionToSite', { params: { organizationId: h.orgId, siteId: site.id }, body: { spaceId: guide.id, title: 'Guides' } }, 201);
    // Eve belongs to another organization only; the admin belongs to both.
    const other = await h.createOrg('Other', { [h.adminId]: 'admin' });
    const eve = await h.member('eve@other.test', 'read', other);
    const eveToken = await h.store.transact((tx) => issueToken(tx, eve, 'eve', h.clock).token);

    let read = 0;
    const store = watchedReads(h.store, (method) => {
      if (method === 'getObject') read += 1; // page objects, content roots
    });
    const objects = () => read;
    server = await startServer({ store, port: 0, clock: h.clock, ids: h.ids });
    const tree = `/v1/orgs/${h.orgId}/sites/${site.id}/x-docsctl/tree?format=text`;
    const get = async (path: string, token = h.boot.token) => {
      const response = await fetch(`${server?.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
      const body = (await response.json()) as SiteTreeTextAnswer;
      return { status: response.status, text: response.ok ? treeText(body) : undefined };
    };

    const first = await get(tree);
    expect(first.status).toBe(200);
    expect(first.text).toMatch(/^ {4}Intro {2}intro$/m);
    const firstRead = objects();
    expect(firstRead).toBeGreaterThan(0);
    expect(await get(tree)).toEqual(first);
    expect(objects()).toBe(firstRead); // the kept answer: no page read again

    // The kept answer is only handed to those the site is shown to.
    expect((await get(tree, eveToken)).status).toBe(404);
    expect((await get(`/v1/orgs/${other}/sites/${site.id}/x-docsctl/tree?format=text`)).status).toBe(404);

    // Any commit is a new generation: the tree is read again, and shows the change.
    await h.seedSpace(guide.id, { pages: [doc('p-intro', 'Intro', '# Intro\n'), doc('p-next', 'Next', '# Next\n')], files: [] });
    const after = await get(tree);
    expect(after.text).toMatch(/^ {4}Next {2}next$/m);
    expect(objects()).toBeGreaterThan(firstRead);
  });

  it('after a commit, reads again only the spaces whose content changed', async () => {
    const h = await contentSetup();
    const site = await h.admin.ok('createSite', { params: { organizationId: h.orgId }, body: { title: 'Docs', type: 'premium' } }, 201);
    const spaces = [];
    for (const [title, pages] of [
      ['Big', 8],
      ['Small', 1],
    ] as const) {
      const space = await h.createSpace(title);
      await h.seedSpace(space.id, { pages: Array.from({ length: pages }, (_, i) => doc(`${title}-${i}`, `${title} ${i}`, 'x\n')), files: [] });
      await h.admin.ok('addSectionToSite', { params: { organizationId: h.orgId, siteId: site.id }, body: { spaceId: space.id, title } }, 201);
      spaces.push(space);
    }
    const read: string[] = [];
    const store = watchedReads(h.store, (method, args) => {
      if (method === 'getObject' || method === 'sharedObject') read.push(String(args[0]));
    });
    server = await startServer({ store, port: 0, clock: h.clock, ids: h.ids });
    const get = async () => {
      const before = read.length;
      const response = await fetch(`${server?.url}/v1/orgs/${h.orgId}/sites/${site.id}/x-docsctl/tree?format=text`, { headers: { authorization: `Bearer ${h.boot.token}` } });
      return { text: treeText((await response.json()) as SiteTreeTextAnswer), objects: read.slice(before) };
    };
    const contentOf = (spaceId: string) => h.store.read().get<{ content: string }>('revisions', `${spaceId}/${h.space(spaceId).revision}`)?.content;
    const first = await get();
    expect(first.objects).toContain(contentOf(spaces[0]!.id));
    await h.seedSpace(spaces[1]!.id, { pages: [doc('Small-0', 'Small 0', 'x\n'), doc('Small-1', 'Small 1', 'y\n')], files: [] });
    const after = await get();
    expect(after.text).toBe(first.text.replace('    Small 0  small-0\n', '    Small 0  small-0\n    Small 1  small-1\n'));
    expect(after.objects).toContain(contentOf(spaces[1]!.id));
    expect(after.objects).not.toContain(contentOf(spaces[0]!.id)); // Big's content is not read again
  });
});
