/**
 * serve keeps costly read answers for the store's current generation (AnswerCache):
 * `getSiteTree` is computed once per generation, any commit makes the next request
 * compute it afresh, and every request still passes its own access check first.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { issueToken } from '../../src/domain/accounts.js';
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
      return { status: response.status, body: (await response.json()) as { text?: string } };
    };

    const first = await get(tree);
    expect(first.status).toBe(200);
    expect(first.body.text).toMatch(/^ {4}Intro {2}intro$/m);
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
    expect(after.body.text).toMatch(/^ {4}Next {2}next$/m);
    expect(objects()).toBeGreaterThan(firstRead);
  });
});
