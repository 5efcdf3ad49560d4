/**
 * Agent conversations of a change request (src/domain/content/conversations.ts) through
 * executeOperation: opened (docsctl extension), listed, renamed and deleted with the real
 * API's operations; private ones stay their creator's; answers checked against 0.202.
 */
import { describe, expect, it } from 'vitest';
import type { RawInput } from '../../../src/api/validate.js';
import { schemaErrors } from '../openapi.js';
import { contentSetup } from './helpers.js';

type Conversation = { id: string; title?: string; shared: boolean; object: string; createdAt: string; updatedAt: string };

async function withCr() {
  const h = await contentSetup();
  const s = await h.createSpace('Handbook');
  const cr = await h.createCR(s.id, 'Typos');
  const at = (conversationId: string) => ({ spaceId: s.id, changeRequestId: cr.id, conversationId });
  const list = async (userId = h.adminId) =>
    (await h.ok<{ items: Conversation[]; count: number }>(userId, 'listChangeRequestConversations', { params: { spaceId: s.id, changeRequestId: cr.id } }));
  /** openChangeRequestConversation is docsctl's (no 0.202 operation to check it against): its answer is checked as the AgentConversation the real API lists. */
  const open = async (userId: string, raw: RawInput, status: number) => {
    const result = await h.call(userId, 'openChangeRequestConversation', raw);
    expect(result.status).toBe(status);
    expect(schemaErrors('AgentConversation', result.body)).toEqual([]);
    return result.body as Conversation;
  };
  return { h, s, cr, at, list, open };
}

describe('change-request conversations', () => {
  it('opens, lists, renames and deletes conversations; opening again changes nothing', async () => {
    const { h, at, list, open } = await withCr();
    expect(await list()).toEqual({ items: [], count: 0 });
    const opened = await open(h.adminId, { params: at('default'), body: {} }, 201);
    expect(opened).toEqual({ object: 'agent-conversation', id: 'default', shared: true, createdAt: opened.createdAt, updatedAt: opened.createdAt });
    expect(await open(h.adminId, { params: at('default'), body: { title: 'Ignored' } }, 200)).toEqual(opened);
    await open(h.adminId, { params: at('c-2'), body: { title: 'Second' } }, 201);
    expect((await list()).items.map((c) => [c.id, c.title])).toEqual([['c-2', 'Second'], ['default', undefined]]);
    const renamed = await h.admin.ok<Conversation>('updateChangeRequestConversation', { params: at('default'), body: { title: 'Fix the typos' } });
    expect(renamed).toMatchObject({ id: 'default', title: 'Fix the typos', shared: true });
    expect((await h.admin.call('deleteChangeRequestConversation', { params: at('c-2') })).status).toBe(205);
    expect((await list()).items.map((c) => c.id)).toEqual(['default']);
    await h.fails(h.adminId, 'deleteChangeRequestConversation', { params: at('c-2') }, 404, /Conversation c-2 not found in change request #1/);
    await h.fails(h.adminId, 'updateChangeRequestConversation', { params: at('nope'), body: { title: 'x' } }, 404);
    await h.fails(h.adminId, 'openChangeRequestConversation', { params: at('bad id!'), body: {} }, 400, /Invalid conversation id/);
    await h.fails(h.adminId, 'updateChangeRequestConversation', { params: at('default'), body: { title: '' } }, 400);
  });

  it('keeps a private conversation its creator\'s; a shared one is renamed by editors, deleted by its author or an admin', async () => {
    const { h, at, list, open } = await withCr();
    const editor = await h.member('ed@acme.test', 'edit');
    const other = await h.member('olga@acme.test', 'edit');
    const reader = await h.member('rita@acme.test', 'read');
    await open(editor, { params: at('mine'), body: { shared: false, title: 'Private' } }, 201);
    await open(editor, { params: at('ours'), body: { title: 'Shared' } }, 201);
    expect((await list(editor)).items.map((c) => c.id)).toEqual(['mine', 'ours']);
    expect(await list(reader)).toMatchObject({ items: [{ id: 'ours' }], count: 1 });
    expect((await list()).items.map((c) => c.id)).toEqual(['ours']);
    await h.fails(other, 'updateChangeRequestConversation', { params: at('mine'), body: { title: 'Mine now' } }, 404);
    await h.fails(h.adminId, 'deleteChangeRequestConversation', { params: at('mine') }, 404);
    await h.fails(other, 'openChangeRequestConversation', { params: at('mine'), body: {} }, 409, /is taken/);
    await h.fails(reader, 'openChangeRequestConversation', { params: at('r'), body: {} }, 403);
    expect(await h.ok(other, 'updateChangeRequestConversation', { params: at('ours'), body: { title: 'Renamed' } })).toMatchObject({ title: 'Renamed' });
    await h.fails(other, 'deleteChangeRequestConversation', { params: at('ours') }, 403, /Only its author or an admin/);
    expect((await h.admin.call('deleteChangeRequestConversation', { params: at('ours') })).status).toBe(205);
    expect((await h.call(editor, 'deleteChangeRequestConversation', { params: at('mine') })).status).toBe(205);
    expect(await list(editor)).toEqual({ items: [], count: 0 });
  });

  it('pages through conversations and answers 404 for a change request of another space', async () => {
    const { h, s, cr, at, open } = await withCr();
    for (const id of ['a', 'b', 'c']) await open(h.adminId, { params: at(id), body: {} }, 201);
    const first = await h.admin.ok<{ items: Conversation[]; next?: { page: string }; count: number }>('listChangeRequestConversations', { params: { spaceId: s.id, changeRequestId: cr.id }, query: { limit: '2' } });
    expect([first.items.map((c) => c.id), first.count]).toEqual([['a', 'b'], 3]);
    const second = await h.admin.ok<{ items: Conversation[]; next?: unknown }>('listChangeRequestConversations', {
      params: { spaceId: s.id, changeRequestId: cr.id },
      query: { limit: '2', page: first.next?.page },
    });
    expect([second.items.map((c) => c.id), second.next]).toEqual([['c'], undefined]);
    const otherSpace = await h.createSpace('Other');
    await h.fails(h.adminId, 'listChangeRequestConversations', { params: { spaceId: otherSpace.id, changeRequestId: cr.id } }, 404);
  });
});
