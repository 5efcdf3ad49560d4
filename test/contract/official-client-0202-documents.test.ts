/**
 * The official GitBook client of 0.202 against `docsctl serve` for documents, page meta links,
 * embeds, integration blocks and change-request conversations (opened through docsctl's extension): content written through the client (a change request's
 * insert_page, merged), then read back by documentId, by revision and page; every 2xx
 * answer checked against 0.202's schema and its values asserted.
 */
import type { GitBookAPI } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/server.js';
import { responseValidator } from './openapi.js';
import { checkedCall, clientOperation, servedOrganization } from './official-client.js';

let server: RunningServer;
let api: GitBookAPI;
let org: string;
let token: string;

const call = (operationId: string, status: number, ...args: unknown[]) => checkedCall(api, operationId, status, ...args);

/** Every answer this file checks, by operation and status. */
const CHECKED: Array<[string, number]> = [
  ['createSpace', 201], ['createChangeRequest', 201], ['updateChangeRequestContent', 200], ['mergeChangeRequest', 200], ['getCurrentRevision', 200],
  ['getDocumentById', 200], ['getPageDocumentInRevisionById', 200], ['listSpacePageMetaLinks', 200], ['listRevisionPageMetaLinks', 200],
  ['listChangeRequestPageMetaLinks', 200], ['getPageById', 200], ['getEmbedByUrl', 200], ['getEmbedByUrlInSpace', 200],
  ['listSpaceIntegrationsBlocks', 200], ['listChangeRequestConversations', 200], ['updateChangeRequestConversation', 200], ['deleteChangeRequestConversation', 205],
];

beforeAll(async () => {
  // The validators compile before the server starts: compiling one between two requests can take longer than the
  // server's keep-alive on a loaded machine (the test and `serve` share one thread), and the client's next request
  // on that socket then meets ECONNRESET ("fetch failed").
  for (const [operationId, status] of CHECKED) responseValidator(operationId, status);
  const served = await servedOrganization();
  ({ server, api } = served);
  org = served.boot.organization.id;
  token = served.boot.token;
});

afterAll(() => server?.close());

/** A space with one page (written and merged through the client): its id, its page and the primary revision. */
async function spaceWithPage(markdown: string) {
  const space = await call('createSpace', 201, org, { title: 'Handbook' });
  const cr = await call('createChangeRequest', 201, space.id, { subject: 'First page' });
  await call('updateChangeRequestContent', 200, space.id, cr.id, { changes: [{ operation: 'insert_page', document: { markdown } }] });
  await call('mergeChangeRequest', 200, space.id, cr.id);
  const revision = await call('getCurrentRevision', 200, space.id);
  const page = revision.pages[0];
  return { space, page, revision };
}

describe('the official GitBook client 0.202: documents, meta links, embeds, integration blocks', () => {
  it('reads a page document by its documentId and by revision and page', async () => {
    const { space, page, revision } = await spaceWithPage('# Setup\n\nInstall it.\n\n## Next\n');
    expect(page.documentId).toMatch(new RegExp(`^${page.id}\\.[0-9a-f]{64}$`));
    const byId = await call('getDocumentById', 200, space.id, page.documentId);
    expect(byId.nodes.map((node: { type: string }) => node.type)).toEqual(['paragraph', 'heading-2']);
    const inRevision = await call('getPageDocumentInRevisionById', 200, space.id, revision.id, page.id, { evaluated: true });
    expect(inRevision).toEqual(byId);
    const missing = await clientOperation(api, 'getDocumentById')(space.id, `${page.id}.${'0'.repeat(64)}`).catch((error: unknown) => error);
    expect((missing as { code?: number }).code).toBe(404);
  });

  it('answers the meta links of a page in the space, a revision and a change request', async () => {
    const { space, page, revision } = await spaceWithPage('# Plain\n');
    expect(await call('listSpacePageMetaLinks', 200, space.id, page.id)).toEqual({});
    expect(await call('listRevisionPageMetaLinks', 200, space.id, revision.id, page.id)).toEqual({});
    const cr = await call('createChangeRequest', 201, space.id, { subject: 'Later' });
    expect(await call('listChangeRequestPageMetaLinks', 200, space.id, cr.id, page.id)).toEqual({});
  });

  it('embeds a page by its app URL and any other URL as a link, in a space and outside one', async () => {
    const { space, page } = await spaceWithPage('# Guide\n');
    const read = await call('getPageById', 200, space.id, page.id);
    expect(await call('getEmbedByUrl', 200, { url: read.urls.app })).toEqual({ type: 'link', title: 'Guide', site: 'Handbook' });
    expect(await call('getEmbedByUrlInSpace', 200, space.id, { url: 'https://example.com/docs/' })).toEqual({ type: 'link', title: 'example.com/docs', site: 'example.com' });
    expect(await call('listSpaceIntegrationsBlocks', 200, space.id)).toEqual([]);
  });

  it('lists, renames and deletes the conversations of a change request', async () => {
    const space = await call('createSpace', 201, org, { title: 'Chat' });
    const cr = await call('createChangeRequest', 201, space.id, { subject: 'Agent edits' });
    const opened = await fetch(`${server.url}/v1/x-docsctl/spaces/${space.id}/change-requests/${cr.id}/conversations/default`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'First' }),
    });
    expect(opened.status).toBe(201);
    const list = await call('listChangeRequestConversations', 200, space.id, cr.id);
    expect(list.items.map((c: { id: string; title: string; shared: boolean }) => [c.id, c.title, c.shared])).toEqual([['default', 'First', true]]);
    expect(await call('updateChangeRequestConversation', 200, space.id, cr.id, 'default', { title: 'Renamed' })).toMatchObject({ object: 'agent-conversation', id: 'default', title: 'Renamed' });
    await call('deleteChangeRequestConversation', 205, space.id, cr.id, 'default');
    expect((await call('listChangeRequestConversations', 200, space.id, cr.id)).items).toEqual([]);
  });
});
