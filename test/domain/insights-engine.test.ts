/**
 * The Insights engine's parts on their own: what a user agent says (bots before browsers), the
 * intervals `datetime` groups by, a segment's title, and the bounds every query keeps whatever its
 * shape (events in its range, groups) — a 400 naming how to narrow it, not a server out of memory.
 */
import { describe, expect, it } from 'vitest';
import type { InsightsAggregation } from '../../src/api/routes/site-insights.js';
import { botOf, browserOf, deviceOf, type InsightsRow, osOf } from '../../src/domain/sites/insights-ingest.js';
import { MAX_EVENTS_PER_QUERY, MAX_GROUPS, aggregateInsights, bucketOf, rangeOf } from '../../src/domain/sites/insights-query.js';
import { segmentTitle } from '../../src/domain/sites/insights.js';

/** A row as stored: the fields at their usual value (STORED_DEFAULTS) left out. */
const row = (at: number, path: string): InsightsRow =>
  ({
    datetime: new Date(at).toISOString(),
    eventType: 'page_view',
    url: `https://x.test${path}`,
    urlPath: path,
    visitor: 'v',
    session: 's',
    visitorDevice: 'desktop',
    visitorBrowser: 'chrome',
    visitorOS: 'linux',
  }) as InsightsRow;

describe('what a user agent says', () => {
  it.each([
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0', '', 'edge', 'windows', 'desktop'],
    ['Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1', '', 'safari', 'ios', 'tablet'],
    ['Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', '', 'chrome', 'android', 'tablet'],
    ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'googlebot', 'unknown', 'unknown', 'unknown'],
    ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)', 'claudebot', 'unknown', 'unknown', 'unknown'],
    ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot', 'chatgpt', 'unknown', 'unknown', 'unknown'],
    ['claude-code/1.0.30 (external, cli)', 'claude-code', 'unknown', 'unknown', 'unknown'],
    ['curl/8.5.0', 'unknown', 'unknown', 'unknown', 'unknown'],
  ])('%s', (agent, bot, browser, os, device) => {
    expect([botOf(agent), browserOf(agent), osOf(agent), deviceOf(agent)]).toEqual([bot, browser, os, device]);
  });
});

describe('time', () => {
  it('buckets an instant by hour, day, week (from Monday) and month, in UTC', () => {
    const at = '2026-03-05T17:42:10.500Z'; // a Thursday
    expect(bucketOf(at, 'hour')).toBe('2026-03-05T17:00:00.000Z');
    expect(bucketOf(at, 'day')).toBe('2026-03-05T00:00:00.000Z');
    expect(bucketOf(at, 'week')).toBe('2026-03-02T00:00:00.000Z');
    expect(bucketOf('2026-03-01T10:00:00Z', 'week')).toBe('2026-02-23T00:00:00.000Z'); // a Sunday belongs to the week before
    expect(bucketOf(at, 'month')).toBe('2026-03-01T00:00:00.000Z');
  });

  it('ranges end now; months back are calendar months', () => {
    const now = new Date('2026-05-31T12:00:00Z');
    expect(rangeOf('last24Hours', now)).toEqual({ from: Date.parse('2026-05-30T12:00:00Z'), to: now.getTime() });
    expect(rangeOf('last3Months', now).from).toBe(Date.parse('2026-03-03T12:00:00Z')); // Feb 31st rolls over, as Date does
    expect(rangeOf('lastYear', now).from).toBe(Date.parse('2025-05-31T12:00:00Z'));
  });
});

describe('segment titles', () => {
  it('name claims in short, sorted, cut at 120 characters', () => {
    expect(segmentTitle({})).toBe('Anonymous');
    expect(segmentTitle({ role: 'admin', plan: 'pro', teams: ['a', 'b'], profile: { x: 1 } })).toBe('plan=pro, profile={…}, role=admin, teams=[a,b]');
    const long = segmentTitle({ note: 'x'.repeat(300) });
    expect(long).toHaveLength(120);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('bounds of one query', () => {
  const range = { from: 0, to: Date.parse('2100-01-01T00:00:00Z') };
  const query: InsightsAggregation = { range: 'last7Days', groupBy: [{ column: 'urlPath' }] };

  it(`refuses a range of more than ${MAX_EVENTS_PER_QUERY} events, naming what to do`, () => {
    function* many() {
      for (let at = 0; at <= MAX_EVENTS_PER_QUERY; at++) yield row(at, '/a');
    }
    expect(() => aggregateInsights({ range: 'last7Days' }, many(), range)).toThrow(/more than 200,000 events; query a shorter range/);
  });

  it(`refuses more than ${MAX_GROUPS} groups`, () => {
    function* distinct() {
      for (let at = 0; at <= MAX_GROUPS; at++) yield row(at, `/p${at}`);
    }
    expect(() => aggregateInsights(query, distinct(), range)).toThrow(/more than 100,000 groups; group by fewer columns or filter the events/);
  });

  it('reads the fields a stored row leaves out at their usual value', () => {
    const columns = (['referrerDomain', 'visitorAuthenticated', 'displayContext', 'page', 'siteSpace'] as const).map((column) => ({ column }));
    expect(aggregateInsights({ range: 'last7Days', select: [...columns, { column: 'eventsCount' }] }, [row(1000, '/a')], range).columns.map(({ values }) => values[0])).toEqual([
      '',
      false,
      'site',
      null,
      null,
      1,
    ]);
  });

  it('counts events outside the range nowhere', () => {
    const rows = [row(1000, '/a'), row(5000, '/b'), row(9000, '/c')];
    expect(aggregateInsights(query, rows, { from: 2000, to: 9000 })).toEqual({
      columns: [
        { column: 'urlPath', values: ['/b', '/c'] },
        { column: 'eventsCount', values: [1, 1] },
      ],
    });
  });
});
