/**
 * Comments and replies (API doc §4.10–4.11) through executeOperation, every answer
 * validated against the real OpenAPI schema: the thread of a change request
 * discussed, resolved and merged, with its `comments` counter at each step; page
 * anchoring across a merge that deletes the page; permissions; bad input.
 */
import { describe, expect, it } from 'vitest';
import { ORIGIN, contentSetup, doc, type ContentHarness } from './content/helpers.js';

type Comment = Record<string, unknown> & {
  id: string;
  status: string;
  replies: number;
  body: Record<string, unknown>;
  target: Record<string, unknown> & { page?: Record<string, unknown> };
  reactions: Array<{ emoji: string; count: number; users: Array<{ user: { id: string } }> }>;
  permissions: Record<string, boolean>;
};
type List<T = Comment> = { items: T[]; count?: number; next?: { page: string } };

async function spaceWithPages(h: ContentHarness) {
  const s = await h.createSpace();
  await h.seedSpace(s.id, {
    pages: [doc('p-intro', 'Intro', '# Intro\n\nhello\n'), doc('p-guide', 'Guide', '# Guide\n\nalpha\n', [doc('p-setup', 'Setup', 'setup\n')])],
    files: [],
  });
  return s.id;
}

const md = (markdown: string) => ({ body: { markdown } });

describe('change request comments', () => {
  it('a change request discussed, resolved and merged: the comments counter at each step', async () => {
    const h = await contentSetup();
    const spaceId = await spaceWithPages(h);
    const cr = await h.createCR(spaceId, 'Rewrite the guide');
    const p = { spaceId, changeRequestId: cr.id };
    const counter = async () => (await h.admin.ok<{ comments: number }>('getChangeRequestById', { params: p })).comments;
    expect(await counter()).toBe(0);

    const first = await h.admin.ok<Comment>('postCommentInChangeRequest', { params: p, body: { ...md('Is **setup** still right?'), page: 'p-setup' } }, 200);
    expect(first).toMatchObject({
      object: 'comment',
      status: 'open',
      replies: 0,
      body: { markdown: 'Is **setup** still right?' },
      postedBy: { id: h.adminId },
      target: { space: spaceId, changeRequest: cr.id, revision: cr.revision, page: { id: 'p-setup', title: 'Setup', path: 'guide/setup', outdated: false } },
      urls: { location: `${ORIGIN}/v1/spaces/${spaceId}/change-requests/${cr.id}/comments/${first.id}` },
      permissions: { view: true, edit: true, reply: true, delete: true },
    });
    expect(await counter()).toBe(1);
    h.clock.advance(1000);
    const second = await h.admin.ok<Comment>('postCommentInChangeRequest', { params: p, body: md('Typo in the intro') });
    expect(await counter()).toBe(2);

    // Newest first by default; oldest first with order=asc.
    const list = await h.admin.ok<List>('listCommentsInChangeRequest', { params: p });
    expect(list.items.map((c) => c.id)).toEqual([second.id, first.id]);
    expect(list.count).toBe(2);
    const asc = await h.admin.ok<List>('listCommentsInChangeRequest', { params: p, query: { order: 'asc' } });
    expect(asc.items.map((c) => c.id)).toEqual([first.id, second.id]);

    // A reply, then resolving the first comment: counter 1; reopening: 2; resolving both: 0.
    const reply = await h.admin.ok<Comment>('postCommentReplyInChangeRequest', { params: { ...p, commentId: first.id }, body: md('Yes, checked.') });
    expect(reply).toMatchObject({ object: 'comment-reply', body: { markdown: 'Yes, checked.' } });
    expect((await h.admin.ok<Comment>('getCommentInChangeRequest', { params: { ...p, commentId: first.id } })).replies).toBe(1);
    h.clock.advance(1000);
    const resolved = await h.admin.ok<Comment>('updateCommentInChangeRequest', { params: { ...p, commentId: first.id }, body: { resolved: true } });
    expect(resolved).toMatchObject({ status: 'resolved', resolvedBy: { id: h.adminId }, resolvedAt: '2026-01-01T00:00:02.000Z' });
    expect(await counter()).toBe(1);
    const open = await h.admin.ok<List>('listCommentsInChangeRequest', { params: p, query: { status: 'open' } });
    expect(open.items.map((c) => c.id)).toEqual([second.id]);
    expect(open.count).toBe(1);
    const done = await h.admin.ok<List>('listCommentsInChangeRequest', { params: p, query: { status: 'resolved' } });
    expect(done.items.map((c) => c.id)).toEqual([first.id]);
    const reopened = await h.admin.ok<Comment>('updateCommentInChangeRequest', { params: { ...p, commentId: first.id }, body: { resolved: false } });
    expect(reopened.status).toBe('open');
    expect(reopened).not.toHaveProperty('resolvedAt');
    expect(await counter()).toBe(2);
    // Deleting an open comment decrements the counter; its replies go with it.
    expect((await h.admin.call('deleteCommentInChangeRequest', { params: { ...p, commentId: first.id } })).status).toBe(205);
    expect(await counter()).toBe(1);
    await h.admin.fails('getCommentReplyInChangeRequest', { params: { ...p, commentId: first.id, commentReplyId: reply.id } }, 404);
    expect(h.store.read().scan('commentReplies', { prefix: `${first.id}/` })).toEqual([]);
    expect((await h.admin.call('deleteCommentInChangeRequest', { params: { ...p, commentId: first.id } })).status).toBe(204);
    await h.admin.ok('updateCommentInChangeRequest', { params: { ...p, commentId: second.id }, body: { resolved: true } });
    expect(await counter()).toBe(0);

    // Merged: the comments stay, with the counter.
    await h.admin.ok('mergeChangeRequest', { params: p });
    expect((await h.admin.ok<List>('listCommentsInChangeRequest', { params: p })).items.map((c) => c.id)).toEqual([second.id]);
    expect(await counter()).toBe(0);
  });

  it('the change request number works as its id; space and change-request threads are separate', async () => {
    const h = await contentSetup();
    const spaceId = await spaceWithPages(h);
    const cr = await h.createCR(spaceId);
    const inCr = await h.admin.ok<Comment>('postCommentInChangeRequest', { params: { spaceId, changeRequestId: String(cr.number) }, body: md('in the CR') });
    expect(inCr.target.changeRequest).toBe(cr.id);
    const inSpace = await h.admin.ok<Comment>('postCommentInSpace', { params: { spaceId }, body: md('on the space') });
    expect(inSpace.target).not.toHaveProperty('changeRequest');
    expect((await h.admin.ok<List>('listCommentsInSpace', { params: { spaceId } })).items.map((c) => c.id)).toEqual([inSpace.id]);
    await h.admin.fails('getCommentInSpace', { params: { spaceId, commentId: inCr.id } }, 404, /not found in space/);
    await h.admin.fails('getCommentInChangeRequest', { params: { spaceId, changeRequestId: cr.id, commentId: inSpace.id } }, 404, /change request #1/);
    expect((await h.admin.ok<{ comments: number }>('getSpaceById', { params: { spaceId } })).comments).toBe(1);
  });
});

describe('space comments', () => {
  it('a comment whose page a merge deletes stays, with target.page.outdated', async () => {
    const h = await contentSetup();
    const spaceId = await spaceWithPages(h);
    const comment = await h.admin.ok<Comment>('postCommentInSpace', { params: { spaceId }, body: { ...md('Clarify this'), page: 'p-intro' } });
    expect(comment.target.page).toEqual({ id: 'p-intro', title: 'Intro', path: 'intro', outdated: false });

    const cr = await h.createCR(spaceId, 'Remove the intro');
    await h.editChangeRequest(spaceId, cr.id, (tree) => {
      tree.pages = tree.pages.filter((page) => page.id !== 'p-intro');
    });
    // Before the merge the page is still in the primary content.
    expect((await h.admin.ok<Comment>('getCommentInSpace', { params: { spaceId, commentId: comment.id } })).target.page?.outdated).toBe(false);
    await h.admin.ok('mergeChangeRequest', { params: { spaceId, changeRequestId: cr.id } });
    const after = await h.admin.ok<Comment>('getCommentInSpace', { params: { spaceId, commentId: comment.id } });
    expect(after.target.page).toEqual({ id: 'p-intro', title: 'Intro', path: 'intro', outdated: true });
    const byPage = await h.admin.ok<List>('listCommentsInSpace', { params: { spaceId }, query: { targetPage: 'p-intro' } });
    expect(byPage.items.map((c) => c.id)).toEqual([comment.id]);
    expect(byPage.count).toBe(1);
  });

  it('reactions: one per user and emoji, counted; removed again', async () => {
    const h = await contentSetup();
    const spaceId = await spaceWithPages(h);
    const bob = await h.member('bob@acme.test', 'comment');
    const c = await h.admin.ok<Comment>('postCommentInSpace', { params: { spaceId }, body: md('Ship it?') });
    const p = { spaceId, commentId: c.id };
    await h.admin.ok('updateCommentInSpace', { params: p, body: { addedReactions: ['👍', '🎉'] } });
    await h.admin.ok('updateCommentInSpace', { params: p, body: { addedReactions: ['👍'] } });
    const both = await h.ok<Comment>(bob, 'updateCommentInSpace', { params: p, body: { addedReactions: ['👍'] } });
    expect(both.reactions.map((r) => [r.emoji, r.count, r.users.map((u) => u.user.id)])).toEqual([
      ['👍', 2, [h.adminId, bob]],
      ['🎉', 1, [h.adminId]],
    ]);
    expect(both.permissions).toEqual({ view: true, edit: false, reply: true, delete: false });
    const fewer = await h.admin.ok<Comment>('updateCommentInSpace', { params: p, body: { removedReactions: ['👍', '🎉'] } });
    expect(fewer.reactions.map((r) => [r.emoji, r.count])).toEqual([['👍', 1]]);
  });

  it('replies: listed oldest first, paginated, edited by their author; the count follows deletes', async () => {
    const h = await contentSetup();
    const spaceId = await spaceWithPages(h);
    const c = await h.admin.ok<Comment>('postCommentInSpace', { params: { spaceId }, body: md('Thread') });
    const p = { spaceId, commentId: c.id };
    const ids: string[] = [];
    for (const text of ['one', 'two', 'three']) ids.push((await h.admin.ok<Comment>('postCommentReplyInSpace', { params: p, body: md(text) })).id);
    const page1 = await h.admin.ok<List>('listCommentRepliesInSpace', { params: p, query: { limit: 2 } });
    expect(page1.items.map((r) => r.body.markdown)).toEqual(['one', 'two']);
    expect(page1.count).toBe(3);
    const page2 = await h.admin.ok<List>('listCommentRepliesInSpace', { params: p, query: { limit: 2, page: page1.next?.page } });
    expect(page2.items.map((r) => r.body.markdown)).toEqual(['three']);
    expect(page2.next).toBeUndefined();
    const edited = await h.admin.ok<Comment>('updateCommentReplyInSpace', { params: { ...p, commentReplyId: ids[1] as string }, body: md('two (edited)') });
    expect(edited).toMatchObject({ body: { markdown: 'two (edited)' }, editedAt: expect.any(String) });
    const asDoc = await h.admin.ok<Comment>('getCommentReplyInSpace', { params: { ...p, commentReplyId: ids[1] as string }, query: { format: 'document' } });
    expect(asDoc.body).toMatchObject({ document: { object: 'document', nodes: [{ type: 'paragraph' }] } });
    expect((await h.admin.call('deleteCommentReplyInSpace', { params: { ...p, commentReplyId: ids[0] as string } })).status).toBe(205);
    expect((await h.admin.ok<Comment>('getCommentInSpace', { params: p })).replies).toBe(2);
  });

  it('repliers (0.202): who replied, how often and when last, most recent first; a deleted reply counts down', async () => {
    const h = await contentSetup();
    const spaceId = await spaceWithPages(h);
    const bob = await h.member('bob@acme.test', 'comment');
    const c = await h.admin.ok<Comment>('postCommentInSpace', { params: { spaceId }, body: md('Thread') });
    const p = { spaceId, commentId: c.id };
    expect(c.repliers).toEqual([]);
    const first = await h.ok<Comment>(bob, 'postCommentReplyInSpace', { params: p, body: md('one') });
    await h.admin.ok('postCommentReplyInSpace', { params: p, body: md('two') });
    const last = await h.ok<Comment>(bob, 'postCommentReplyInSpace', { params: p, body: md('three') });
    const thread = await h.admin.ok<Comment>('getCommentInSpace', { params: p });
    const repliers = thread.repliers as Array<{ count: number; updatedAt: string; user: { id: string } }>;
    expect(repliers.map((r) => [r.user.id, r.count])).toEqual([[bob, 2], [h.adminId, 1]]);
    expect(repliers[0]?.updatedAt).toBe(last.postedAt);
    expect((await h.call(bob, 'deleteCommentReplyInSpace', { params: { ...p, commentReplyId: first.id } })).status).toBe(205);
    const after = await h.admin.ok<Comment>('getCommentInSpace', { params: p });
    expect((after.repliers as Array<{ count: number; user: { id: string } }>).map((r) => [r.user.id, r.count])).toEqual([[bob, 1], [h.adminId, 1]]);
    const listed = await h.admin.ok<List>('listCommentsInSpace', { params: { spaceId } });
    expect(listed.items[0]?.repliers).toEqual(after.repliers);
  });

  it('pages of a long thread: newest first, no overlap, filters by status and author', async () => {
    const h = await contentSetup();
    const spaceId = await spaceWithPages(h);
    const bob = await h.member('bob@acme.test', 'comment');
    const posted: string[] = [];
    for (let i = 0; i < 25; i++) {
      const author = i % 5 === 0 ? bob : h.adminId;
      posted.push((await h.ok<Comment>(author, 'postCommentInSpace', { params: { spaceId }, body: md(`c${i}`) })).id);
    }
    for (const id of posted.slice(0, 10)) await h.admin.ok('updateCommentInSpace', { params: { spaceId, commentId: id }, body: { resolved: true } });
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const res: List = await h.admin.ok<List>('listCommentsInSpace', { params: { spaceId }, query: { limit: 10, ...(page ? { page } : {}) } });
      expect(res.count).toBe(25);
      seen.push(...res.items.map((c) => c.id));
      page = res.next?.page;
    } while (page);
    expect(seen).toEqual([...posted].reverse());
    const open = await h.admin.ok<List>('listCommentsInSpace', { params: { spaceId }, query: { status: 'open', limit: 100 } });
    expect(open.items.map((c) => c.id)).toEqual(posted.slice(10).reverse());
    expect(open.count).toBe(15);
    expect((await h.admin.ok<{ comments: number }>('getSpaceById', { params: { spaceId } })).comments).toBe(15);
    const byBob = await h.admin.ok<List>('listCommentsInSpace', { params: { spaceId }, query: { authors: bob, status: 'open' } });
    expect(byBob.items.map((c) => c.body.markdown)).toEqual(['c20', 'c15', 'c10']);
  });
});

describe('permissions and bad input', () => {
  it('editing or deleting another user\'s comment needs admin; reacting and resolving need the comment role', async () => {
    const h = await contentSetup();
    const spaceId = await spaceWithPages(h);
    const bob = await h.member('bob@acme.test', 'comment');
    const carol = await h.member('carol@acme.test', 'edit');
    const reader = await h.member('rita@acme.test', 'read');
    const mine = await h.ok<Comment>(bob, 'postCommentInSpace', { params: { spaceId }, body: md('Bob says') });
    const p = { spaceId, commentId: mine.id };
    await h.fails(carol, 'updateCommentInSpace', { params: p, body: md('Carol rewrites') }, 403, /Only the author of comment .* or an admin can edit it/);
    await h.fails(carol, 'deleteCommentInSpace', { params: p }, 403, /can delete it/);
    expect((await h.ok<Comment>(carol, 'updateCommentInSpace', { params: p, body: { resolved: true } })).status).toBe('resolved');
    expect((await h.ok<Comment>(bob, 'updateCommentInSpace', { params: p, body: md('Bob, edited') })).body).toEqual({ markdown: 'Bob, edited' });
    expect((await h.admin.ok<Comment>('updateCommentInSpace', { params: p, body: md('Moderated') })).body).toEqual({ markdown: 'Moderated' });
    // read role: can read, cannot comment, reply, react or resolve
    expect((await h.ok<List>(reader, 'listCommentsInSpace', { params: { spaceId } })).items).toHaveLength(1);
    await h.fails(reader, 'postCommentInSpace', { params: { spaceId }, body: md('hi') }, 403, /"comment" role/);
    await h.fails(reader, 'postCommentReplyInSpace', { params: p, body: md('hi') }, 403, /"comment" role/);
    await h.fails(reader, 'updateCommentInSpace', { params: p, body: { addedReactions: ['👍'] } }, 403);
    await h.fails(reader, 'updateCommentInSpace', { params: p, body: { resolved: false } }, 403);
    expect((await h.admin.call('deleteCommentInSpace', { params: p })).status).toBe(205);
  });

  it('refuses empty bodies, unknown comments and pages, replies to a reply, and empty updates', async () => {
    const h = await contentSetup();
    const spaceId = await spaceWithPages(h);
    await h.admin.fails('postCommentInSpace', { params: { spaceId }, body: md('   ') }, 400, /body is empty/);
    await h.admin.fails('postCommentInSpace', { params: { spaceId }, body: { body: {} } }, 400, /body is empty/);
    await h.admin.fails('postCommentInSpace', { params: { spaceId }, body: { ...md('x'), page: 'nope' } }, 400, /nope is not a page of space/);
    await h.admin.fails('getCommentInSpace', { params: { spaceId, commentId: 'nope' } }, 404, /Comment nope not found in space/);
    const c = await h.admin.ok<Comment>('postCommentInSpace', { params: { spaceId }, body: md('x') });
    const r = await h.admin.ok<Comment>('postCommentReplyInSpace', { params: { spaceId, commentId: c.id }, body: md('y') });
    await h.admin.fails('postCommentReplyInSpace', { params: { spaceId, commentId: r.id }, body: md('z') }, 400, new RegExp(`reply to its comment ${c.id}`));
    await h.admin.fails('getCommentInSpace', { params: { spaceId, commentId: r.id } }, 404, /is a reply of comment/);
    await h.admin.fails('postCommentReplyInSpace', { params: { spaceId, commentId: c.id }, body: md('') }, 400, /reply body is empty/);
    await h.admin.fails('updateCommentInSpace', { params: { spaceId, commentId: c.id }, body: {} }, 400, /Nothing to update/);
    await h.admin.fails('updateCommentInSpace', { params: { spaceId, commentId: c.id }, body: md('') }, 400, /body is empty/);
    await h.admin.fails('listCommentsInSpace', { params: { spaceId: 'nope' } }, 404);
  });
});
