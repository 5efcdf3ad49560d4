import { LOCAL_POLICY } from '../../../src/domain/policy.js';
import { describe, expect, it } from 'vitest';
import { ORIGIN, contentSetup, doc, findPage, type ContentHarness } from './helpers.js';

type CR = Record<string, unknown> & { id: string; number: number; revision: string; status: string; outdated: boolean };
type MergeResult = { revision: string; result: string; conflicts?: Array<Record<string, unknown>> };

const crp = (spaceId: string, changeRequestId: string | number) => ({ params: { spaceId, changeRequestId: String(changeRequestId) } });

/** A space whose primary content has three pages. */
async function spaceWithPages(h: ContentHarness) {
  const s = await h.createSpace();
  await h.seedSpace(s.id, {
    pages: [
      doc('p-intro', 'Intro', '# Intro\n\nline one\nline two\nline three\n'),
      doc('p-guide', 'Guide', '# Guide\n\nalpha\nbeta\ngamma\n', [doc('p-setup', 'Setup', 'setup text\n')]),
    ],
    files: [],
  });
  return s.id;
}

describe('createChangeRequest / get / list', () => {
  it('creates CR #1, #2 with a revision sharing the primary content; 201 + Location; counters', async () => {
    const h = await contentSetup();
    const spaceId = await spaceWithPages(h);
    const primary = h.space(spaceId).revision;
    const res = await h.admin.call('createChangeRequest', { params: { spaceId }, body: { subject: 'Fix typos' } });
    expect(res.status).toBe(201);
    const cr = res.body as CR;
    expect(res.headers.Location).toBe(`${ORIGIN}/v1/spaces/${spaceId}/change-requests/${cr.id}`);
    expect(cr).toMatchObject({
      object: 'change-request',
      number: 1,
      status: 'open',
      subject: 'Fix typos',
      space: spaceId,
      revisionInitial: primary,
      comments: 0,
      outdated: false,
      createdBy: { object: 'user', id: h.adminId },
    });
    expect(cr.revision).not.toBe(primary);
    const revision = h.store.read().get<Record<string, unknown>>('revisions', `${spaceId}/${cr.revision}`);
    const primaryRecord = h.store.read().get<Record<string, unknown>>('revisions', `${spaceId}/${primary}`);
    expect(revision).toMatchObject({ type: 'edits', parents: [primary], content: primaryRecord?.content });

    const second = await h.createCR(spaceId, 'Second');
    expect(second.number).toBe(2);
    expect(h.space(spaceId).counters).toEqual({ comments: 0, changeRequests: 2, changeRequestsOpen: 2, changeRequestsDraft: 0 });
    const space = await h.admin.ok<Record<string, unknown>>('getSpaceById', { params: { spaceId } });
    expect(space).toMatchObject({ changeRequests: 2, changeRequestsOpen: 2, changeRequestsDraft: 0 });
  });

  it('gets by id and by number; unknown → 404; subject defaults to empty', async () => {
    const h = await contentSetup();
    const { id: spaceId } = await h.createSpace();
    const cr = await h.admin.ok<CR>('createChangeRequest', { params: { spaceId }, body: {} }, 201);
    expect(cr.subject).toBe('');
    expect((await h.admin.ok<CR>('getChangeRequestById', crp(spaceId, cr.id))).id).toBe(cr.id);
    expect((await h.admin.ok<CR>('getChangeRequestById', crp(spaceId, 1))).id).toBe(cr.id);
    await h.admin.fails('getChangeRequestById', crp(spaceId, 2), 404);
    await h.admin.fails('getChangeRequestById', crp(spaceId, 'nope'), 404);
    const other = await h.createSpace('Other');
    await h.admin.fails('getChangeRequestById', crp(other.id, cr.id), 404);
  });

  it('lists open ones by default, newest first; filters status, creator, contributor; paginates', async () => {
    const h = await contentSetup();
    const { id: spaceId } = await h.createSpace();
    const editor = await h.member('e@acme.test', 'edit');
    const a = await h.createCR(spaceId, 'A');
    const b = await h.createCR(spaceId, 'B', editor);
    const c = await h.createCR(spaceId, 'C');
    await h.admin.ok('updateChangeRequestById', { ...crp(spaceId, c.id), body: { status: 'draft' } });
    const open = await h.admin.ok<{ items: CR[]; count: number }>('listChangeRequestsForSpace', { params: { spaceId } });
    expect(open.items.map((x) => x.id)).toEqual([b.id, a.id]);
    expect(open.count).toBe(2);
    const drafts = await h.admin.ok<{ items: CR[] }>('listChangeRequestsForSpace', { params: { spaceId }, query: { status: 'draft' } });
    expect(drafts.items.map((x) => x.id)).toEqual([c.id]);
    const byEditor = await h.admin.ok<{ items: CR[] }>('listChangeRequestsForSpace', { params: { spaceId }, query: { creator: editor } });
    expect(byEditor.items.map((x) => x.id)).toEqual([b.id]);
    await h.ok(editor, 'updateChangeRequestById', { ...crp(spaceId, a.id), body: { subject: 'A2' } });
    const contributed = await h.admin.ok<{ items: CR[] }>('listChangeRequestsForSpace', {
      params: { spaceId },
      query: { contributor: editor },
    });
    expect(contributed.items.map((x) => x.id)).toEqual([b.id, a.id]);
    const page1 = await h.admin.ok<{ items: CR[]; next?: { page: string } }>('listChangeRequestsForSpace', {
      params: { spaceId },
      query: { limit: '1' },
    });
    expect(page1.items.map((x) => x.id)).toEqual([b.id]);
    const page2 = await h.admin.ok<{ items: CR[]; next?: { page: string } }>('listChangeRequestsForSpace', {
      params: { spaceId },
      query: { limit: '1', page: page1.next?.page },
    });
    expect(page2.items.map((x) => x.id)).toEqual([a.id]);
    expect(page2.next).toBeUndefined();
  });

  it('lists the change requests of an organization across spaces', async () => {
    const h = await contentSetup();
    const s1 = await h.createSpace('One');
    const s2 = await h.createSpace('Two');
    const a = await h.createCR(s1.id, 'A');
    h.clock.advance(1000);
    const b = await h.createCR(s2.id, 'B');
    const list = await h.admin.ok<{ items: CR[] }>('listChangeRequestsForOrganization', { params: { organizationId: h.orgId } });
    expect(list.items.map((x) => x.id)).toEqual([b.id, a.id]);
    expect(list.items.map((x) => x.space)).toEqual([s2.id, s1.id]);
    await h.fails('stranger', 'listChangeRequestsForOrganization', { params: { organizationId: h.orgId } }, 404);
  });

  it('lists by last update (0.202 orderBy, the default) or by creation, one space, or those a user is asked to review', async () => {
    const h = await contentSetup();
    const s1 = await h.createSpace('One');
    const s2 = await h.createSpace('Two');
    const a = await h.createCR(s1.id, 'A');
    h.clock.advance(1000);
    const b = await h.createCR(s2.id, 'B');
    h.clock.advance(1000);
    await h.admin.ok('updateChangeRequestById', { ...crp(s1.id, a.id), body: { subject: 'A, edited' } });
    const org = { organizationId: h.orgId };
    const ids = async (query: Record<string, string>) =>
      (await h.admin.ok<{ items: CR[]; count?: number }>('listChangeRequestsForOrganization', { params: org, query })).items.map((x) => x.id);
    expect(await ids({})).toEqual([a.id, b.id]);
    expect(await ids({ orderBy: 'updatedAt' })).toEqual([a.id, b.id]);
    expect(await ids({ orderBy: 'createdAt' })).toEqual([b.id, a.id]);
    expect(await ids({ space: s2.id })).toEqual([b.id]);
    expect(await ids({ space: 'elsewhere' })).toEqual([]);

    const reviewer = await h.member('rev@acme.test', 'review');
    await h.admin.ok('requestReviewersForChangeRequest', { ...crp(s2.id, b.id), body: { users: [reviewer] } });
    expect(await ids({ requestedReviewer: reviewer })).toEqual([b.id]);
    const inSpace = await h.admin.ok<{ items: CR[]; count: number }>('listChangeRequestsForSpace', { params: { spaceId: s2.id }, query: { requestedReviewer: reviewer } });
    expect([inSpace.count, inSpace.items.map((x) => x.id)]).toEqual([1, [b.id]]);
    expect((await h.admin.ok<{ items: CR[] }>('listChangeRequestsForSpace', { params: { spaceId: s1.id }, query: { requestedReviewer: reviewer } })).items).toEqual([]);
  });

  it('permissions: read members read, edit members create; strangers get 404', async () => {
    const h = await contentSetup();
    const { id: spaceId } = await h.createSpace();
    const reader = await h.member('r@acme.test', 'read');
    const editor = await h.member('e@acme.test', 'edit');
    await h.fails(reader, 'createChangeRequest', { params: { spaceId }, body: {} }, 403, /"edit" role/);
    const cr = await h.createCR(spaceId, 'By editor', editor);
    expect((await h.ok<CR>(reader, 'getChangeRequestById', crp(spaceId, cr.id))).id).toBe(cr.id);
    await h.fails(reader, 'updateChangeRequestById', { ...crp(spaceId, cr.id), body: { subject: 'x' } }, 403);
    await h.fails(reader, 'mergeChangeRequest', crp(spaceId, cr.id), 403);
    await h.fails('stranger', 'getChangeRequestById', crp(spaceId, cr.id), 404);
    await h.fails('stranger', 'listPages', { params: { spaceId } }, 404);
  });
});

describe('updateChangeRequestById: statuses and counters', () => {
  it('moves between open, draft and archived with exact counters; merged refuses status changes (409)', async () => {
    const h = await contentSetup();
    const spaceId = await spaceWithPages(h);
    const cr = await h.createCR(spaceId);
    const counters = () => {
      const { changeRequests, changeRequestsOpen, changeRequestsDraft } = h.space(spaceId).counters;
      return [changeRequests, changeRequestsOpen, changeRequestsDraft];
    };
    expect(counters()).toEqual([1, 1, 0]);
    await h.admin.ok('updateChangeRequestById', { ...crp(spaceId, cr.id), body: { status: 'draft' } });
    expect(counters()).toEqual([1, 0, 1]);
    await h.admin.ok('updateChangeRequestById', { ...crp(spaceId, cr.id), body: { status: 'draft' } });
    expect(counters()).toEqual([1, 0, 1]);
    await h.admin.ok('updateChangeRequestById', { ...crp(spaceId, cr.id), body: { status: 'archived' } });
    expect(counters()).toEqual([1, 0, 0]);
    await h.admin.fails('mergeChangeRequest', crp(spaceId, cr.id), 409, /archived/);
    await h.admin.fails('updateChangeRequest', crp(spaceId, cr.id), 409, /archived/);
    const reopened = await h.admin.ok<CR>('updateChangeRequestById', { ...crp(spaceId, 1), body: { status: 'open', subject: 'Reopened' } });
    expect(reopened).toMatchObject({ status: 'open', subject: 'Reopened' });
    expect(counters()).toEqual([1, 1, 0]);

    const merged = await h.admin.ok<MergeResult>('mergeChangeRequest', crp(spaceId, cr.id));
    expect(merged.result).toBe('merge');
    expect(counters()).toEqual([1, 0, 0]);
    for (const status of ['open', 'draft', 'archived']) {
      await h.admin.fails('updateChangeRequestById', { ...crp(spaceId, cr.id), body: { status } }, 409, /merged/);
    }
    expect(counters()).toEqual([1, 0, 0]);
    // Subject and description of a merged CR can still change.
    const description = { object: 'document', data: {}, nodes: [] };
    const renamed = await h.admin.ok<CR>('updateChangeRequestById', { ...crp(spaceId, cr.id), body: { subject: 'Done', description } });
    expect(renamed).toMatchObject({ subject: 'Done', status: 'merged', description });
    await h.admin.fails('mergeChangeRequest', crp(spaceId, cr.id), 409, /already merged/);
    await h.admin.fails('updateChangeRequest', crp(spaceId, cr.id), 409, /already merged/);
    await h.admin.fails('updateChangeRequestById', { ...crp(spaceId, cr.id), body: {} }, 400, /Nothing to update/);
    await h.admin.fails('updateChangeRequestById', { ...crp(spaceId, cr.id), body: { status: 'merged' } }, 400);
    await h.admin.fails('updateChangeRequestById', { ...crp(spaceId, cr.id), body: { subject: 'x'.repeat(101) } }, 400);
  });
});

describe('mergeChangeRequest / updateChangeRequest', () => {
  it('merges a CR into an unchanged primary: merge revision, primary moves, CR merged', async () => {
    const h = await contentSetup();
    const spaceId = await spaceWithPages(h);
    const before = h.space(spaceId).revision;
    const cr = await h.createCR(spaceId);
    const crRevision = await h.editChangeRequest(spaceId, cr.id, (tree) => {
      findPage(tree, 'p-intro').markdown = '# Intro\n\nline one\nline 2\nline three\n';
    });
    const res = await h.admin.ok<MergeResult>('mergeChangeRequest', crp(spaceId, 1));
    expect(res.result).toBe('merge');
    const space = h.space(spaceId);
    expect(space.revision).toBe(res.revision);
    const revision = await h.admin.ok<Record<string, unknown>>('getRevisionById', { params: { spaceId, revisionId: res.revision } });
    expect(revision).toMatchObject({ object: 'revision', type: 'merge', parents: [before, crRevision], mergedFrom: { id: cr.id, status: 'merged' } });
    const merged = await h.admin.ok<CR>('getChangeRequestById', crp(spaceId, cr.id));
    expect(merged).toMatchObject({ status: 'merged', revisionMerged: res.revision, outdated: false });
    const page = await h.admin.ok<{ markdown: string }>('getPageById', { params: { spaceId, pageId: 'p-intro' }, query: { format: 'markdown' } });
    expect(page.markdown).toContain('line 2');
  });

  it('two CRs editing the same line: the second merge reports conflicts and changes nothing', async () => {
    const h = await contentSetup();
    const spaceId = await spaceWithPages(h);
    const a = await h.createCR(spaceId, 'A');
    const b = await h.createCR(spaceId, 'B');
    await h.editChangeRequest(spaceId, a.id, (tree) => {
      findPage(tree, 'p-intro').markdown = '# Intro\n\nline one\nline TWO (a)\nline three\n';
    });
    const bRevision = await h.editChangeRequest(spaceId, b.id, (tree) => {
      findPage(tree, 'p-intro').markdown = '# Intro\n\nline one\nline deux (b)\nline three\n';
    });
    expect((await h.admin.ok<MergeResult>('mergeChangeRequest', crp(spaceId, a.id))).result).toBe('merge');
    const gen = h.store.read().gen;
    const spaceBefore = h.space(spaceId);
    const outdated = await h.admin.ok<CR>('getChangeRequestById', crp(spaceId, b.id));
    expect(outdated.outdated).toBe(true);
    const res = await h.admin.ok<MergeResult>('mergeChangeRequest', crp(spaceId, b.id));
    expect(res.result).toBe('conflicts');
    expect(res.revision).toBe(bRevision);
    expect(res.conflicts?.[0]).toMatchObject({ kind: 'content', page: 'p-intro', title: 'Intro' });
    expect(h.store.read().gen).toBe(gen);
    expect(h.space(spaceId)).toEqual(spaceBefore);
    expect(h.cr(spaceId, b.id).status).toBe('open');
    // Pulling the primary into B conflicts the same way, and changes nothing either.
    const pulled = await h.admin.ok<MergeResult>('updateChangeRequest', crp(spaceId, b.id));
    expect(pulled).toMatchObject({ revision: bRevision, result: 'conflicts' });
    expect(h.store.read().gen).toBe(gen);
  });

  it('non-overlapping edits of two CRs both merge (three-way), and the result has both', async () => {
    const h = await contentSetup();
    const spaceId = await spaceWithPages(h);
    const a = await h.createCR(spaceId, 'A');
    const b = await h.createCR(spaceId, 'B');
    await h.editChangeRequest(spaceId, a.id, (tree) => {
      findPage(tree, 'p-intro').markdown = '# Intro\n\nline ONE\nline two\nline three\n';
    });
    await h.editChangeRequest(spaceId, b.id, (tree) => {
      findPage(tree, 'p-intro').markdown = '# Intro\n\nline one\nline two\nline THREE\n';
      findPage(tree, 'p-guide').pages.push({ id: 'p-new', type: 'document', title: 'New', slug: 'new', markdown: 'new page\n', pages: [] });
    });
    expect((await h.admin.ok<MergeResult>('mergeChangeRequest', crp(spaceId, a.id))).result).toBe('merge');
    const res = await h.admin.ok<MergeResult>('mergeChangeRequest', crp(spaceId, b.id));
    expect(res.result).toBe('merge');
    const intro = await h.admin.ok<{ markdown: string }>('getPageById', { params: { spaceId, pageId: 'p-intro' }, query: { format: 'markdown' } });
    expect(intro.markdown).toBe('# Intro\n\nline ONE\nline two\nline THREE\n');
    const added = await h.admin.ok<Record<string, unknown>>('getPageByPath', { params: { spaceId, pagePath: 'guide/new' } });
    expect(added).toMatchObject({ id: 'p-new', path: 'guide/new', markdown: 'new page\n' });
  });

  it('update pulls the primary into an outdated CR (type update, revisionMergedAncestor), then merges cleanly', async () => {
    const h = await contentSetup();
    const spaceId = await spaceWithPages(h);
    const a = await h.createCR(spaceId, 'A');
    const b = await h.createCR(spaceId, 'B');
    // Nothing to pull yet: answered as is, nothing written.
    const gen0 = h.store.read().gen;
    expect(await h.admin.ok<MergeResult>('updateChangeRequest', crp(spaceId, b.id))).toEqual({ revision: b.revision, result: 'update' });
    expect(h.store.read().gen).toBe(gen0);

    await h.editChangeRequest(spaceId, a.id, (tree) => {
      findPage(tree, 'p-setup').markdown = 'setup text, edited by A\n';
    });
    const bRev = await h.editChangeRequest(spaceId, b.id, (tree) => {
      findPage(tree, 'p-guide').markdown = '# Guide\n\nalpha\nBETA\ngamma\n';
    });
    await h.admin.ok('mergeChangeRequest', crp(spaceId, a.id));
    const primary = h.space(spaceId).revision;
    expect((await h.admin.ok<CR>('getChangeRequestById', crp(spaceId, b.id))).outdated).toBe(true);

    const res = await h.admin.ok<MergeResult>('updateChangeRequest', crp(spaceId, b.id));
    expect(res.result).toBe('update');
    const updated = await h.admin.ok<CR>('getChangeRequestById', crp(spaceId, b.id));
    expect(updated).toMatchObject({ revision: res.revision, revisionMergedAncestor: primary, outdated: false });
    const revision = await h.admin.ok<Record<string, unknown>>('getRevisionOfChangeRequestById', crp(spaceId, b.id));
    expect(revision).toMatchObject({ id: res.revision, type: 'update', parents: [bRev, primary] });
    const setup = await h.admin.ok<{ markdown: string }>('getPageInChangeRequestById', {
      params: { spaceId, changeRequestId: b.id, pageId: 'p-setup' },
    });
    expect(setup.markdown).toBe('setup text, edited by A\n');

    // The merge now uses revisionMergedAncestor as its base: primary unchanged since → B's content as is.
    const merged = await h.admin.ok<MergeResult>('mergeChangeRequest', crp(spaceId, b.id));
    expect(merged.result).toBe('merge');
    const pages = await h.admin.ok<{ pages: Array<{ id: string; markdown?: string; pages: Array<{ id: string; markdown?: string }> }> }>(
      'listPages',
      { params: { spaceId } },
    );
    const guide = pages.pages.find((p) => p.id === 'p-guide');
    expect(guide?.markdown).toContain('BETA');
    expect(guide?.pages[0]?.markdown).toBe('setup text, edited by A\n');
  });

  it('a CR of an empty space merges into an empty primary (no content objects)', async () => {
    const h = await contentSetup();
    const { id: spaceId } = await h.createSpace();
    const cr = await h.createCR(spaceId);
    const res = await h.admin.ok<MergeResult>('mergeChangeRequest', crp(spaceId, cr.id));
    expect(res.result).toBe('merge');
    expect(await h.admin.ok('listPages', { params: { spaceId } })).toEqual({ pages: [] });
    const revision = await h.admin.ok<Record<string, unknown>>('getCurrentRevision', { params: { spaceId } });
    expect(revision).toMatchObject({ type: 'merge', pages: [], files: [], reusableContents: [] });
  });
});

describe('merge under concurrency and purge', () => {
  it('a merge prepared against an older primary merges again under the lock (two-phase)', async () => {
    const h = await contentSetup();
    const spaceId = await spaceWithPages(h);
    const a = await h.createCR(spaceId, 'A');
    const b = await h.createCR(spaceId, 'B');
    await h.editChangeRequest(spaceId, a.id, (tree) => {
      findPage(tree, 'p-intro').markdown = '# Intro\n\nline ONE\nline two\nline three\n';
    });
    await h.editChangeRequest(spaceId, b.id, (tree) => {
      findPage(tree, 'p-setup').markdown = 'setup by B\n';
    });
    const { findHandler } = await import('../../../src/domain/handler-registry.js');
    const handler = (await findHandler('mergeChangeRequest')) as import('../../../src/domain/handler.js').TwoPhaseHandler;
    const input = { ...crp(spaceId, b.id), query: {}, body: undefined };
    const base = { actor: { userId: h.adminId }, access: { userId: h.adminId, organizationId: h.orgId, role: 'admin' as const }, clock: h.clock, ids: h.ids, origin: ORIGIN, artifacts: { save: async () => '' }, policy: LOCAL_POLICY };
    const prepared = await handler.prepare({ ...base, reader: h.store.read() }, input as never);
    // Meanwhile A is merged: B's prepared merge (against the old primary) is stale.
    await h.admin.ok('mergeChangeRequest', crp(spaceId, a.id));
    const result = (await h.store.transact((tx) => handler.run({ ...base, tx }, input as never, prepared))) as MergeResult;
    expect(result.result).toBe('merge');
    const intro = await h.admin.ok<{ markdown: string }>('getPageById', { params: { spaceId, pageId: 'p-intro' } });
    const setup = await h.admin.ok<{ markdown: string }>('getPageById', { params: { spaceId, pageId: 'p-setup' } });
    expect([intro.markdown, setup.markdown]).toEqual(['# Intro\n\nline ONE\nline two\nline three\n', 'setup by B\n']);
  });

  it('purging a deleted space removes its change requests and every revision record', async () => {
    const h = await contentSetup();
    const spaceId = await spaceWithPages(h);
    const cr = await h.createCR(spaceId);
    await h.editChangeRequest(spaceId, cr.id, (tree) => {
      findPage(tree, 'p-intro').title = 'Intro!';
    });
    await h.admin.ok('mergeChangeRequest', crp(spaceId, cr.id));
    await h.createCR(spaceId, 'Left open');
    const ownRows = (table: string) => h.store.read().entries(table).filter(([key]) => key.startsWith(`${spaceId}/`) || key === spaceId);
    expect(ownRows('revisions').length).toBeGreaterThanOrEqual(5);
    await h.admin.call('deleteSpaceById', { params: { spaceId } });
    h.clock.advance(8 * 24 * 60 * 60 * 1000);
    await h.createSpace('Another'); // a write in the organization sweeps its trash
    expect(ownRows('revisions')).toEqual([]);
    expect(ownRows('changeRequests')).toEqual([]);
    expect(ownRows('spaceChangeRequests')).toEqual([]);
  });
});
