/**
 * Who commented (listCommentersInSpace, listCommentersInChangeRequest: `comment commenters SPACE
 * [--cr CR]`), one review by its id (getChangeRequestReviewById: `cr review-show`) and `cr list
 * --requested-reviewer`, real API operations and parameters of 0.202. Through the built binary, locally and against `docsctl serve`; the rules
 * (members only, those who left skipped, replies count, reviews stored before the id index) through
 * executeOperation, each answer checked against the 0.202 schema.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type BinaryMode, describeInBothModes } from '../helpers/binary.js';
import { ReviewTables } from '../../src/domain/review/review-records.js';
import { threadOf } from '../../src/domain/comments/comment-records.js';
import { contentSetup } from '../domain/content/helpers.js';

describeInBothModes('comment commenters, cr review-show', (context) => {
  let cli: BinaryMode;
  let space: string;
  let me: { id: string; email: string };
  beforeAll(async () => {
    ({ cli } = context);
    me = JSON.parse(await cli.ok(['user', 'me', '--json', 'id,email']));
    space = await cli.ok(['space', 'create', '--title', 'Handbook', '--format', 'ids']);
  });

  it('lists nobody before the first comment, then the commenter once however many comments they post', async () => {
    expect(JSON.parse(await cli.ok(['comment', 'commenters', space, '--json']))).toEqual([]);
    await cli.ok(['comment', 'add', space, '--text', 'First']);
    await cli.ok(['comment', 'add', space, '--text', 'Second']);
    const listed = JSON.parse(await cli.ok(['comment', 'commenters', space, '--json']));
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ object: 'member', id: me.id, role: 'admin', user: { id: me.id, email: me.email } });
    expect((await cli.ok(['comment', 'commenters', space, '--format', 'tsv'])).split('\t').slice(0, 4)).toEqual([me.id, expect.any(String), me.email, 'admin']);
  });

  it("lists a change request's commenters apart from the space's, and the space's include them", async () => {
    const other = await cli.ok(['space', 'create', '--title', 'Runbooks', '--format', 'ids']);
    await cli.ok(['cr', 'create', other, '--subject', 'Draft']);
    expect(JSON.parse(await cli.ok(['comment', 'commenters', other, '--cr', '1', '--json']))).toEqual([]);
    await cli.ok(['comment', 'add', other, '--cr', '1', '--text', 'On the change request']);
    expect(JSON.parse(await cli.ok(['comment', 'commenters', other, '--cr', '1', '--json', 'id']))).toEqual([{ id: me.id }]);
    expect(JSON.parse(await cli.ok(['comment', 'commenters', other, '--json', 'id']))).toEqual([{ id: me.id }]);
  });

  it('shows one review by its id, as a table and as JSON, and exit 4 naming a missing one', async () => {
    await cli.ok(['cr', 'create', space, '--subject', 'Typo']);
    const submitted = JSON.parse(await cli.ok(['cr', 'review', space, '1', '--approve', '--json']));
    const shown = JSON.parse(await cli.ok(['cr', 'review-show', space, '1', submitted.id, '--json']));
    expect(shown).toMatchObject({ object: 'change-request-review', id: submitted.id, status: 'approved', outdated: false, reviewer: { id: me.id } });
    expect(shown.urls.location).toMatch(new RegExp(`/v1/spaces/${space}/change-requests/[^/]+/reviews/${submitted.id}$`));
    await cli.ok(['cr', 'review', space, '1', '--request-changes', '--text', 'One more thing']);
    expect(JSON.parse(await cli.ok(['cr', 'review-show', space, '1', submitted.id, '--json', 'outdated']))).toEqual({ outdated: true });
    // cr list --requested-reviewer (0.202's requestedReviewer): the change requests a user is asked to review.
    expect(await cli.ok(['cr', 'list', space, '--requested-reviewer', me.id, '--format', 'ids'])).toBe('');
    await cli.ok(['cr', 'reviewers', space, '1', '--add', me.id]);
    const asked = JSON.parse(await cli.ok(['cr', 'list', space, '--requested-reviewer', me.id, '--json', 'number']));
    expect(asked).toEqual([{ number: 1 }]);
    const missing = await cli.run(['cr', 'review-show', space, '1', 'noreview']);
    expect(missing.exitCode).toBe(4);
    expect(missing.stderr).toMatch(/^error: Review noreview not found in change request #1/);
  });
});

describe('listCommentersInSpace, listCommentersInChangeRequest, getChangeRequestReviewById', () => {
  it('count replies, list members only (one who left is skipped), and hide the space from another organization', async () => {
    const h = await contentSetup();
    const s = await h.createSpace();
    const writer = await h.member('wendy@acme.test', 'comment');
    const leaver = await h.member('lou@acme.test', 'comment');
    const posted = await h.ok<{ id: string }>(writer, 'postCommentInSpace', { params: { spaceId: s.id }, body: { body: { markdown: 'Hello' } } }, 200);
    await h.ok(h.adminId, 'postCommentReplyInSpace', { params: { spaceId: s.id, commentId: posted.id }, body: { body: { markdown: 'Hi' } } }, 200);
    await h.ok(leaver, 'postCommentInSpace', { params: { spaceId: s.id }, body: { body: { markdown: 'Bye' } } }, 200);
    await h.admin.ok('removeMemberFromOrganizationById', { params: { organizationId: h.orgId, userId: leaver } }, 205);
    const listed = await h.ok<{ items: Array<{ id: string; role: string }> }>(h.adminId, 'listCommentersInSpace', { params: { spaceId: s.id } });
    expect(listed.items.map((m) => [m.id, m.role]).sort()).toEqual([[h.adminId, 'admin'], [writer, 'comment']].sort());
    const page = await h.ok<{ items: unknown[]; next?: { page: string } }>(h.adminId, 'listCommentersInSpace', { params: { spaceId: s.id }, query: { limit: '1' } });
    expect(page.items).toHaveLength(1);
    expect(page.next).toBeDefined();
    const stranger = await h.member('eve@other.test', 'admin', await h.createOrg('Other', { [h.adminId]: 'admin' }));
    await h.fails(stranger, 'listCommentersInSpace', { params: { spaceId: s.id } }, 404);
  });

  it('finds a review stored before the id index existed', async () => {
    const h = await contentSetup();
    const s = await h.createSpace();
    const cr = await h.createCR(s.id);
    const review = await h.ok<{ id: string }>(h.adminId, 'submitChangeRequestReview', { params: { spaceId: s.id, changeRequestId: cr.id as string }, body: { status: 'approved' } }, 201);
    await h.store.transact((tx) => tx.delete(ReviewTables.byId, `${threadOf(s.id, cr.id as string)}/${review.id}`));
    const params = { spaceId: s.id, changeRequestId: cr.id as string, reviewId: review.id };
    expect(await h.ok(h.adminId, 'getChangeRequestReviewById', { params })).toMatchObject({ id: review.id, status: 'approved' });
    await h.fails(h.adminId, 'getChangeRequestReviewById', { params: { ...params, reviewId: 'nope' } }, 404, /Review nope not found/);
  });
});
