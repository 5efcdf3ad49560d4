/**
 * The official GitBook client against `docsctl serve` for a site's Insights: events tracked (204),
 * queries over them (grouped, filtered, counted, ordered, over ranges that move with the clock)
 * and visitor segments; every answer checked against the 0.202 schemas; the API's 5-minute rule
 * on timestamps; a site's events gone with the site.
 */
import type { GitBookAPI } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/server.js';
import type { MemoryStore } from '../../src/store/memory-store.js';
import { checkedCall, clientOperation, compileValidators, refusalOf, servedOrganization } from './official-client.js';

let server: RunningServer;
let api: GitBookAPI;
let org: string;
let store: MemoryStore;
let clock: { advance(ms: number): void };
let token: string;

const call = (operationId: string, status: number, ...args: unknown[]) => checkedCall(api, operationId, status, ...args);
const refusal = (operationId: string, ...args: unknown[]) => refusalOf(api, operationId, ...args);
const HOUR = 60 * 60 * 1000;

const CHROME_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';

function event(type: string, visitor: string, session: string, url: string, extra: Record<string, unknown> = {}) {
  const { userAgent = CHROME_MAC, referrer = null, claims, page = 'p1', ...rest } = extra as {
    userAgent?: string;
    referrer?: string | null;
    claims?: Record<string, unknown>;
    page?: string | null;
  };
  return {
    type,
    session: { visitorId: visitor, sessionId: session, cookies: {}, userAgent, language: 'en', referrer, ...(claims ? { visitorAuthClaims: claims } : {}) },
    location: { url, siteSection: null, siteSpace: null, siteShareKey: null, space: 'sp1', revision: null, page },
    ...rest,
  };
}

beforeAll(async () => {
  compileValidators([
    ['aggregateSiteEvents', 200],
    ['listSiteVisitorSegments', 200],
  ]);
  const served = await servedOrganization();
  ({ server, api, store, clock } = served);
  org = served.boot.organization.id;
  token = served.boot.token;
});

afterAll(() => server?.close());

describe('the official GitBook client: insights of a site', () => {
  let site: string;
  const aggregate = (query: Record<string, unknown>) => call('aggregateSiteEvents', 200, org, site, { range: 'last7Days', ...query });

  it('tracks events and counts them by column: views by path, 404s, bots, devices, referrers, UTM sources', async () => {
    const space = (await call('createSpace', 201, org, { title: 'Guide' })).id as string;
    site = (await call('createSite', 201, org, { title: 'Docs', spaces: [space] })).id as string;
    const track = clientOperation(api, 'trackEventsInSiteById');
    const status = await track(org, site, {
      events: [
        event('page_view', 'v1', 's1', 'https://docs.acme.test/start?utm_source=newsletter', { referrer: 'https://www.google.com/search?q=acme' }),
        event('page_view', 'v1', 's1', 'https://docs.acme.test/install'),
        event('page_view', 'v2', 's2', 'https://docs.acme.test/start', { userAgent: IPHONE, claims: { plan: 'pro', role: 'admin' } }),
        event('page_view', 'v3', 's3', 'https://docs.acme.test/old-page', { userAgent: GPTBOT, page: null }),
        event('search_type_query', 'v2', 's2', 'https://docs.acme.test/start', { userAgent: IPHONE, query: 'install', claims: { plan: 'pro', role: 'admin' } }),
        event('page_post_feedback', 'v1', 's1', 'https://docs.acme.test/install', { feedback: { rating: 'good' } }),
        event('page_post_feedback_comment', 'v2', 's4', 'https://docs.acme.test/install', { feedback: { rating: 'bad', comment: 'Missing step 3' }, claims: { plan: 'pro', role: 'admin' } }),
        event('link_click', 'v1', 's1', 'https://docs.acme.test/start', { link: { target: { kind: 'url', url: 'https://github.com/acme/cli' }, position: 'content' } }),
      ],
    });
    expect(status.status).toBe(204);

    expect(await aggregate({ groupBy: [{ column: 'urlPath' }], where: [{ column: 'eventType', values: ['page_view'] }] })).toEqual({
      columns: [
        { column: 'urlPath', values: ['/start', '/install', '/old-page'] },
        { column: 'eventsCount', values: [2, 1, 1] },
      ],
    });
    // A 404 is a page view that resolved to no page.
    expect(await aggregate({ select: [{ column: 'urlPath' }, { column: 'visitorBot' }], where: [{ column: 'eventType', values: ['page_view'] }, { column: 'page', values: [null] }] })).toEqual({
      columns: [
        { column: 'urlPath', values: ['/old-page'] },
        { column: 'visitorBot', values: ['gptbot'] },
      ],
    });
    expect(
      await aggregate({
        select: [{ column: 'visitorDevice' }, { column: 'visitorBrowser' }, { column: 'visitorOS' }, { column: 'visitorsCount' }, { column: 'sessionsCount' }, { column: 'eventsCount' }],
        order: { by: { column: 'visitorDevice' }, direction: 'asc' },
      }),
    ).toEqual({
      columns: [
        { column: 'visitorDevice', values: ['desktop', 'mobile', 'unknown'] },
        { column: 'visitorBrowser', values: ['chrome', 'safari', 'unknown'] },
        { column: 'visitorOS', values: ['macos', 'ios', 'unknown'] },
        { column: 'visitorsCount', values: [2, 1, 1] },
        { column: 'sessionsCount', values: [2, 1, 1] },
        { column: 'eventsCount', values: [5, 2, 1] },
      ],
    });
    expect(await aggregate({ groupBy: [{ column: 'referrerDomain' }, { column: 'utmSource' }], where: [{ column: 'referrerDomain', values: [''], operator: 'notIn' }] })).toEqual({
      columns: [
        { column: 'referrerDomain', values: ['www.google.com'] },
        { column: 'utmSource', values: ['newsletter'] },
        { column: 'eventsCount', values: [1] },
      ],
    });
    expect(await aggregate({ select: [{ column: 'eventSearchQuery' }, { column: 'eventsCount' }] })).toEqual({
      columns: [
        { column: 'eventSearchQuery', values: ['install'] },
        { column: 'eventsCount', values: [1] },
      ],
    });
    expect(await aggregate({ select: [{ column: 'urlPath' }, { column: 'pageFeedbackRating' }], where: [{ column: 'eventType', values: ['page_post_feedback', 'page_post_feedback_comment'] }] })).toEqual({
      columns: [
        { column: 'urlPath', values: ['/install'] },
        { column: 'pageFeedbackRating', values: [{ ok: 0, good: 1, bad: 1 }] },
      ],
    });
    expect(await aggregate({ select: [{ column: 'eventLinkTargetDomain' }, { column: 'eventLinkPosition' }, { column: 'eventsCount' }] })).toEqual({
      columns: [
        { column: 'eventLinkTargetDomain', values: ['github.com'] },
        { column: 'eventLinkPosition', values: ['content'] },
        { column: 'eventsCount', values: [1] },
      ],
    });
    expect(await aggregate({ select: [{ column: 'visitorClaim', claim: 'plan' }, { column: 'visitorAuthenticated' }, { column: 'visitorsCount' }] })).toEqual({
      columns: [
        { column: 'visitorClaim', claim: 'plan', values: ['pro'] },
        { column: 'visitorAuthenticated', values: [true] },
        { column: 'visitorsCount', values: [1] },
      ],
    });
    // A filter on a count filters the groups; order and limit apply after it.
    expect(
      await aggregate({
        groupBy: [{ column: 'urlPath' }],
        where: [{ column: 'eventsCount', values: [2], operator: 'greaterThanOrEqual' }],
        order: { by: { column: 'urlPath' }, direction: 'desc' },
        limit: 1,
      }),
    ).toEqual({
      columns: [
        { column: 'urlPath', values: ['/start'] },
        { column: 'eventsCount', values: [4] },
      ],
    });
    // No column to group by: one row, every event counted.
    expect(await aggregate({ select: [{ column: 'eventsCount' }, { column: 'visitorsCount' }] })).toEqual({
      columns: [
        { column: 'eventsCount', values: [8] },
        { column: 'visitorsCount', values: [3] },
      ],
    });
  });

  it('ranges move with the clock; datetime groups by the interval asked (days by default)', async () => {
    clock.advance(2 * HOUR);
    expect((await clientOperation(api, 'trackEventsInSiteById')(org, site, { events: [event('page_view', 'v9', 's9', 'https://docs.acme.test/start')] })).status).toBe(204);
    expect(await aggregate({ groupBy: [{ column: 'datetime', interval: 'hour' }] })).toEqual({
      columns: [
        { column: 'datetime', values: ['2026-03-01T10:00:00.000Z', '2026-03-01T12:00:00.000Z'] },
        { column: 'eventsCount', values: [8, 1] },
      ],
    });
    expect(await aggregate({ groupBy: [{ column: 'datetime' }] })).toEqual({
      columns: [
        { column: 'datetime', values: ['2026-03-01T00:00:00.000Z'] },
        { column: 'eventsCount', values: [9] },
      ],
    });
    const since = { from: '2026-03-01T11:00:00Z', to: '2026-03-01T13:00:00+00:00' };
    expect(await aggregate({ range: since, select: [{ column: 'eventsCount' }] })).toEqual({ columns: [{ column: 'eventsCount', values: [1] }] });
    expect(await aggregate({ select: [{ column: 'eventsCount' }], where: [{ column: 'datetime', values: ['2026-03-01T13:00:00+02:00'], operator: 'lessThan' }] })).toEqual({
      columns: [{ column: 'eventsCount', values: [8] }],
    });
    clock.advance(2 * 24 * HOUR);
    expect(await aggregate({ range: 'last24Hours', select: [{ column: 'eventsCount' }] })).toEqual({ columns: [{ column: 'eventsCount', values: [0] }] });
    expect(await aggregate({ range: 'last24Hours', groupBy: [{ column: 'urlPath' }] })).toEqual({
      columns: [
        { column: 'urlPath', values: [] },
        { column: 'eventsCount', values: [] },
      ],
    });
    expect(await aggregate({ range: 'last7Days', select: [{ column: 'eventsCount' }] })).toEqual({ columns: [{ column: 'eventsCount', values: [9] }] });
  });

  it('visitor segments: visitors with the same claims, counted as events come in', async () => {
    expect(await call('listSiteVisitorSegments', 200, org, site)).toEqual({
      count: 2,
      items: [
        { title: 'Anonymous', claims: {}, events: 6, visitors: 3, sessions: 3 },
        { title: 'plan=pro, role=admin', claims: { plan: 'pro', role: 'admin' }, events: 3, visitors: 1, sessions: 2 },
      ],
    });
  });

  it('refuses what it cannot track or answer, naming the part, and tracks none of a refused batch', async () => {
    const track = (events: unknown[]) => refusal('trackEventsInSiteById', org, site, { events });
    const before = await aggregate({ select: [{ column: 'eventsCount' }] });
    expect(await track([event('page_view', 'v1', 's1', 'https://docs.acme.test/a'), event('page_view', 'v1', 's1', 'https://docs.acme.test/b', { timestamp: '2026-01-01T00:00:00Z' })])).toEqual({
      code: 400,
      message: expect.stringMatching(/: Invalid events\[1\]\.timestamp: 2026-01-01T00:00:00Z is more than 5 minutes from now/),
    });
    expect(await track([{ ...event('page_view', 'v1', 's1', 'https://docs.acme.test/a'), type: 'page_viewed' }])).toMatchObject({ code: 400 });
    expect(await track([event('page_view', 'v1', 's1', 'not a url')])).toMatchObject({ code: 400, message: expect.stringMatching(/location\.url/) });
    expect(await aggregate({ select: [{ column: 'eventsCount' }] })).toEqual(before);

    const query = (body: Record<string, unknown>) => refusal('aggregateSiteEvents', org, site, { range: 'last7Days', ...body });
    expect(await query({ where: [{ column: 'eventType', values: ['page_veiw'] }] })).toEqual({ code: 400, message: expect.stringMatching(/: Invalid where\[0\] \(eventType\): "page_veiw" is not one of "page_view"/) });
    expect(await query({ where: [{ column: 'hourOfDay', values: [1, 2], operator: 'greaterThan' }] })).toMatchObject({ code: 400, message: expect.stringMatching(/greaterThan takes exactly one value/) });
    expect(await query({ groupBy: [{ column: 'eventsCount' }] })).toMatchObject({ code: 400, message: expect.stringMatching(/: Invalid groupBy\[0\]: eventsCount is a count/) });
    expect(await query({ range: { from: '2026-03-05T00:00:00Z', to: '2026-03-01T00:00:00Z' } })).toMatchObject({ code: 400, message: expect.stringMatching(/: Invalid range: from/) });
    expect(await query({ select: [{ column: 'urlPath', interval: 'day' }] })).toMatchObject({ code: 400, message: expect.stringMatching(/interval/) });
    expect(await query({ limit: 1001 })).toMatchObject({ code: 400 });
    // Filter values are flat: a deeply nested one is refused before any work on it.
    const deep = `${'['.repeat(5000)}"x"${']'.repeat(5000)}`;
    const raw = await fetch(`${server.url}/v1/orgs/${org}/sites/${site}/insights/events/aggregate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: `{"range":"last7Days","where":[{"column":"eventLinkTargetValue","values":[${deep}]}]}`,
    });
    expect(raw.status).toBe(400);
    expect(await raw.text()).toMatch(/where/);
  });

  it('deleting the site deletes its events and segments', async () => {
    const events = () => store.read().scan('siteInsightsEvents', { prefix: `${site}/` }).length;
    expect(events()).toBe(9);
    expect((await clientOperation(api, 'deleteSiteById')(org, site)).status).toBe(205);
    expect(events()).toBe(0);
    expect(store.read().scan('siteInsightsSegments', { prefix: `${site}/` })).toEqual([]);
    expect(store.read().scan('siteInsightsSegmentOf', { prefix: `${site}/` })).toEqual([]);
  });
});
