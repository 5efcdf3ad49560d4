/**
 * The review flow of change requests (real API) through executeOperation, every
 * answer validated against the real OpenAPI schema: requested reviewers, reviews
 * with comments, merge rules that refuse an unapproved merge (409), contributors,
 * and the changes of a change request.
 */
import { describe, expect, it } from 'vitest';
import { ORIGIN, contentSetup, doc, type ContentHarness } from './content/helpers.js';

type Obj = Record<string, unknown> & { id: string };
type List<T = Obj> = { items: T[]; count?: number; next?: { page: string } };
type Review = Obj & { status: string; outdated: boolean; reviewer: { id: string }; comment?: Obj & { body: unknown; target: Record<string, unknown> } };

async function discussedSpace(h: ContentHarness) {
  const s = await h.createSpace();
  await h.seedSpace(s.id, {
    pages: [doc('p-intro', 'Intro', '# Intro\n\nhello\n'), doc('p-old', 'Old', 'old\n'), doc('p-guide', 'Guide', 'guide\n')],
    files: [],
  });
  const bob = await h.member('bob@acme.test', 'review');
  const carol = await h.member('carol@acme.test', 'edit');
  const cr = await h.createCR(s.id, 'Rework');
  return { spaceId: s.id, cr, bob, carol, p: { spaceId: s.id, changeRequestId: cr.id } };
}

describe('reviews', () => {
  it('requested reviewers review; a later review supersedes the earlier one; a review comment counts as an open comment', async () => {
    const h = await contentSetup();
    const { cr, bob, carol, p } = await discussedSpace(h);
    const asked = await h.admin.ok<{ users: Obj[] }>('requestReviewersForChangeRequest', { params: p, body: { users: [bob, carol] } });
    expect(asked.users.map((u) => (u.user as Obj).id)).toEqual([bob, carol]);
    const listed = await h.admin.ok<List>('getRequestedReviewersByChangeRequestId', { params: p });
    expect(listed.items.map((u) => [(u.user as Obj).id, (u.requestedBy as Obj).id, u.kind])).toEqual([
      [bob, h.adminId, 'user'],
      [carol, h.adminId, 'user'],
    ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))));

    const first = await h.ok<Review>(bob, 'submitChangeRequestReview', { params: p, body: { status: 'changes-requested', comment: { markdown: 'Please keep the old page' } } }, 201);
    expect(first).toMatchObject({ object: 'change-request-review', status: 'changes-requested', outdated: false, reviewer: { id: bob }, requestedBy: { id: h.adminId }, revision: cr.revision });
    expect(first.comment).toMatchObject({ body: { markdown: 'Please keep the old page' }, target: { changeRequest: cr.id, review: first.id } });
    expect(first.urls).toEqual({ location: `${ORIGIN}/v1/spaces/${p.spaceId}/change-requests/${p.changeRequestId}/reviews/${first.id}` });
    expect((await h.admin.ok<{ comments: number }>('getChangeRequestById', { params: p })).comments).toBe(1);
    h.clock.advance(1000);
    const second = await h.ok<Review>(bob, 'submitChangeRequestReview', { params: p, body: { status: 'approved' } }, 201);
    const reviews = await h.admin.ok<List<Review>>('getReviewsByChangeRequestId', { params: p });
    expect(reviews.items.map((r) => [r.id, r.status, r.outdated])).toEqual([
      [second.id, 'approved', false],
      [first.id, 'changes-requested', true],
    ]);
    const current = await h.admin.ok<List<Review>>('getReviewsByChangeRequestId', { params: p, query: { outdated: 'false' } });
    expect(current.items.map((r) => r.id)).toEqual([second.id]);
    expect((await h.admin.call('removeRequestedReviewerFromChangeRequest', { params: { ...p, userId: carol } })).status).toBe(205);
    expect((await h.admin.call('removeRequestedReviewerFromChangeRequest', { params: { ...p, userId: carol } })).status).toBe(204);
  });

  it('refuses reviewing with a lower role, unknown reviewers and statuses', async () => {
    const h = await contentSetup();
    const { p } = await discussedSpace(h);
    const reader = await h.member('rita@acme.test', 'comment');
    await h.fails(reader, 'submitChangeRequestReview', { params: p, body: { status: 'approved' } }, 403, /"review" role/);
    await h.admin.fails('requestReviewersForChangeRequest', { params: p, body: { users: ['nobody'] } }, 400, /nobody is not a member/);
    await h.admin.fails('submitChangeRequestReview', { params: p, body: { status: 'maybe' } }, 400);
  });
});

describe('merge rules', () => {
  it('an unapproved change request is refused with 409 naming the rule; approved, it merges', async () => {
    const h = await contentSetup();
    const { spaceId, bob, carol, p } = await discussedSpace(h);
    await h.admin.ok('updateOrganizationById', {
      params: { organizationId: h.orgId },
      body: { mergeRules: { type: 'rules', rules: [{ rule: 'require_at_least_one_review' }, { rule: 'require_specific_reviewers', users: [bob] }] } },
    });
    const refused = await h.admin.fails('mergeChangeRequest', { params: p }, 409);
    expect(refused.message).toBe(
      `Change request #1 cannot be merged yet: the merge rules of space ${spaceId} require that at least one approving review is required; approval required from ${bob}`,
    );
    await h.ok(carol, 'submitChangeRequestReview', { params: p, body: { status: 'approved' } }, 201);
    await h.admin.fails('mergeChangeRequest', { params: p }, 409, new RegExp(`approval required from ${bob}$`));
    await h.ok(bob, 'submitChangeRequestReview', { params: p, body: { status: 'approved' } }, 201);
    expect((await h.admin.ok<{ result: string }>('mergeChangeRequest', { params: p })).result).toBe('merge');
  });

  it('a space can set its own rules, and bypass lets the listed users merge anyway', async () => {
    const h = await contentSetup();
    const { spaceId, carol, p } = await discussedSpace(h);
    await h.admin.ok('updateSpaceById', {
      params: { spaceId },
      body: { mergeRules: { type: 'rules', rules: [{ rule: 'require_all_reviews_approved' }, { rule: 'allow_bypass', users: [carol] }] } },
    });
    await h.admin.ok('requestReviewersForChangeRequest', { params: p, body: { users: [carol] } });
    await h.admin.fails('mergeChangeRequest', { params: p }, 409, new RegExp(`waiting for ${carol}`));
    expect((await h.ok<{ result: string }>(carol, 'mergeChangeRequest', { params: p })).result).toBe('merge');
  });
});

describe('changes and contributors', () => {
  it('lists the changes cr diff shows: created, edited, deleted pages; limit and more', async () => {
    const h = await contentSetup();
    const { cr, spaceId, p } = await discussedSpace(h);
    await h.editChangeRequest(spaceId, cr.id, (tree) => {
      tree.pages = tree.pages.filter((page) => page.id !== 'p-old');
      (tree.pages[0] as { markdown?: string }).markdown = '# Intro\n\nhello again\n';
      tree.pages.push(doc('p-new', 'New', 'new\n'));
    });
    const changes = await h.admin.ok<{ changes: Array<Record<string, unknown>>; more?: number }>('getChangeRequestChanges', { params: p });
    expect(changes.changes.map((c) => [c.type, (c.page as Obj).id])).toEqual([
      ['page_edited', 'p-intro'],
      ['page_deleted', 'p-old'],
      ['page_created', 'p-new'],
    ]);
    expect(changes.changes[0]).toMatchObject({ page: { id: 'p-intro', type: 'document', title: 'Intro', path: 'intro' }, attributes: { document: {} } });
    const limited = await h.admin.ok<{ changes: unknown[]; more?: number }>('getChangeRequestChanges', { params: p, query: { limit: '1' } });
    expect(limited.changes).toHaveLength(1);
    expect(limited.more).toBe(2);
  });

  it('contributors: who edited, and who commented how often', async () => {
    const h = await contentSetup();
    const { bob, p } = await discussedSpace(h);
    await h.ok(bob, 'postCommentInChangeRequest', { params: p, body: { body: { markdown: 'one' } } });
    await h.ok(bob, 'postCommentInChangeRequest', { params: p, body: { body: { markdown: 'two' } } });
    const contributors = await h.admin.ok<List<Record<string, unknown>>>('getContributorsByChangeRequestId', { params: p });
    expect(contributors.items.map((c) => [(c.user as Obj).id, c.actionType, c.count])).toEqual([
      [h.adminId, 'edit', 1],
      [bob, 'comment', 2],
    ]);
  });
});
