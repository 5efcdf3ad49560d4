/**
 * The official GitBook client of 0.202 against `docsctl serve` for content reads it added: a
 * review read back by its id (the `urls.location` of the review), who commented in a change
 * request and in its space, and an app URL resolved to its space, change request and collection;
 * every 2xx answer checked against 0.202's schema and its values asserted.
 */
import type { GitBookAPI } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/server.js';
import { checkedCall, compileValidators, servedOrganization } from './official-client.js';

let server: RunningServer;
let api: GitBookAPI;
let org: string;
let admin: string;

const call = (operationId: string, status: number, ...args: unknown[]) => checkedCall(api, operationId, status, ...args);

/** Every answer this file checks, by operation and status. */
const CHECKED: Array<[string, number]> = [
  ['createSpace', 201], ['createChangeRequest', 201], ['createCollection', 201], ['submitChangeRequestReview', 201],
  ['getChangeRequestReviewById', 200], ['listCommentersInChangeRequest', 200], ['listCommentersInSpace', 200],
  ['postCommentInChangeRequest', 200], ['getContentByUrl', 200],
];

beforeAll(async () => {
  compileValidators(CHECKED);
  const served = await servedOrganization();
  ({ server, api } = served);
  org = served.boot.organization.id;
  admin = served.boot.user.id;
});

afterAll(() => server?.close());

describe('the official GitBook client 0.202: reviews, commenters, URLs', () => {
  it('reads a review by its id and lists the commenters of a change request and of its space', async () => {
    const space = await call('createSpace', 201, org, { title: 'Handbook' });
    const cr = await call('createChangeRequest', 201, space.id, { subject: 'Typo' });
    const review = await call('submitChangeRequestReview', 201, space.id, cr.id, { status: 'approved' });
    const read = await call('getChangeRequestReviewById', 200, space.id, cr.id, review.id);
    expect(read).toMatchObject({ id: review.id, status: 'approved', outdated: false, reviewer: { id: admin } });
    expect(read.urls.location).toBe(review.urls.location);

    expect((await call('listCommentersInChangeRequest', 200, space.id, cr.id)).items).toEqual([]);
    await call('postCommentInChangeRequest', 200, space.id, cr.id, { body: { markdown: 'Looks good' } });
    const inCr = await call('listCommentersInChangeRequest', 200, space.id, cr.id);
    expect(inCr.items.map((member: { id: string; role: string }) => [member.id, member.role])).toEqual([[admin, 'admin']]);
    const inSpace = await call('listCommentersInSpace', 200, space.id);
    expect(inSpace.items.map((member: { id: string }) => member.id)).toEqual([admin]);
  });

  it('resolves the app URLs of a space, a change request and a collection', async () => {
    const space = await call('createSpace', 201, org, { title: 'Guides' });
    expect(await call('getContentByUrl', 200, { url: space.urls.app })).toMatchObject({ space: { id: space.id, title: 'Guides' } });
    const cr = await call('createChangeRequest', 201, space.id, { subject: 'Draft' });
    const inCr = await call('getContentByUrl', 200, { url: cr.urls.app });
    expect(inCr).toMatchObject({ space: { id: space.id }, changeRequest: { id: cr.id, number: cr.number } });
    const collection = await call('createCollection', 201, org, { title: 'Engineering' });
    expect(await call('getContentByUrl', 200, { url: collection.urls.app })).toMatchObject({ collection: { id: collection.id } });
  });
});
