/**
 * The official GitBook client against `docsctl serve` for the site ads program: the site admin's
 * `updateSiteAdsById` (POST, 204), the ad partner's `adsListSites` and `adsUpdateSite` with the
 * `X-GitBook-Partner-Key` header the client leaves to its caller, and the Site's `ads` field;
 * every answer checked against the 0.202 schemas.
 */
import type { GitBookAPI } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/server.js';
import { checkedCall, compileValidators, refusalOf, servedOrganization } from './official-client.js';

const KEY = 'the-partners-key-0123456789';
const asPartner = { headers: { 'X-GitBook-Partner-Key': KEY } };

let server: RunningServer;
let api: GitBookAPI;
let org: string;
let token: string;

const call = (operationId: string, status: number, ...args: unknown[]) => checkedCall(api, operationId, status, ...args);
const refusal = (operationId: string, ...args: unknown[]) => refusalOf(api, operationId, ...args);

beforeAll(async () => {
  compileValidators([
    ['updateSiteAdsById', 204],
    ['adsListSites', 200],
    ['adsUpdateSite', 204],
    ['getSiteById', 200],
  ]);
  const served = await servedOrganization();
  ({ server, api } = served);
  org = served.boot.organization.id;
  token = served.boot.token;
});

afterAll(() => server?.close());

describe('the official GitBook client: site ads', () => {
  it("submits a site, and the partner lists it, takes it live and rejects it; the Site's ads follow", async () => {
    const space = (await call('createSpace', 201, org, { title: 'Guide' })).id as string;
    const site = (await call('createSite', 201, org, { title: 'Docs', spaces: [space] })).id as string;
    const ads = async () => (await call('getSiteById', 200, org, site)).ads as unknown;
    expect(await ads()).toEqual({ status: 'pending', submittable: false });
    await call('publishSite', 200, org, site);
    expect(await ads()).toEqual({ status: 'pending', submittable: true });

    expect(await refusal('updateSiteAdsById', org, site, { status: 'in-review' })).toMatchObject({ code: 400 });
    expect(await call('updateSiteAdsById', 204, org, site, { status: 'in-review', topic: 'crypto' })).toBeFalsy();
    expect(await ads()).toEqual({ status: 'in-review', topic: 'crypto' });

    // The partner: no key 401, then the store's key set by its owner (docsctl's extension route).
    expect(await refusal('adsListSites', { status: 'in-review' })).toMatchObject({ code: 401 });
    const set = await fetch(`${server.url}/v1/x-docsctl/ads/partner-key`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ key: KEY }),
    });
    expect(set.status).toBe(204);
    expect(await refusal('adsListSites', {}, { headers: { 'X-GitBook-Partner-Key': `${KEY}!` } })).toMatchObject({ code: 403 });

    const item = { id: site, url: expect.stringMatching(/^https:\/\/[\w-]+\.gitbook\.io\/docs\/$/), email: 'ada@example.com', topic: 'crypto' };
    // `status` defaults to in-review.
    expect(await call('adsListSites', 200, {}, asPartner)).toEqual({ items: [{ ...item, status: 'in-review' }], count: 1 });
    // serve keeps some GET answers by token and URL: never one given for a partner key.
    expect(await refusal('adsListSites', {}, { headers: { 'X-GitBook-Partner-Key': `${KEY}!` } })).toMatchObject({ code: 403 });
    expect(await refusal('adsUpdateSite', site, { status: 'live', zoneId: 'z1' }, asPartner)).toMatchObject({ code: 400 });
    await call('adsUpdateSite', 204, site, { status: 'live', zoneId: 'z1', reportingId: 'r1' }, asPartner);
    expect(await call('adsListSites', 200, { status: 'live' }, asPartner)).toEqual({ items: [{ ...item, status: 'live', zoneId: 'z1' }], count: 1 });
    expect(await call('adsListSites', 200, { status: 'in-review' }, asPartner)).toEqual({ items: [], count: 0 });
    expect(await ads()).toEqual({ status: 'live', topic: 'crypto', zoneId: 'z1' });

    await call('adsUpdateSite', 204, site, { status: 'rejected', reason: 'policy' }, asPartner);
    expect(await call('adsListSites', 200, { status: 'rejected' }, asPartner)).toEqual({ items: [{ ...item, status: 'rejected', reason: 'policy' }], count: 1 });
    expect(await ads()).toEqual({ status: 'rejected', reason: 'policy' });
    expect(await refusal('updateSiteAdsById', org, site, { status: 'disabled' })).toMatchObject({ code: 409 });
    expect(await refusal('adsUpdateSite', site, { status: 'live', zoneId: 'z', reportingId: 'r' }, asPartner)).toMatchObject({ code: 409 });
    expect(await ads()).toEqual({ status: 'rejected', reason: 'policy' });
  });
});
