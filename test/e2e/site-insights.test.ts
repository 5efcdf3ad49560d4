/**
 * Insights of a site through the built binary, in both modes: `site insights track` (a JSON file
 * or stdin), `site insights query` (flags to a query; rows as a table on a terminal, TSV in a
 * pipe, one object per row with --json) and `site insights segments`. Bad input is one line,
 * exit 2, and tracks nothing; deleting the site deletes its events.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInBothModes, expectRefused } from '../helpers/binary.js';
import { onTerminal } from '../helpers/terminal.js';

const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

function view(visitor: string, session: string, path: string, options: { userAgent?: string; page?: string | null; claims?: Record<string, unknown>; referrer?: string } = {}) {
  return {
    type: 'page_view',
    session: {
      visitorId: visitor,
      sessionId: session,
      cookies: {},
      userAgent: options.userAgent ?? FIREFOX_LINUX,
      language: 'en',
      referrer: options.referrer ?? null,
      ...(options.claims ? { visitorAuthClaims: options.claims } : {}),
    },
    location: { url: `https://help.acme.test${path}`, siteSection: null, siteSpace: null, siteShareKey: null, space: 'sp1', revision: null, page: options.page === undefined ? 'p1' : options.page },
  };
}

describeInBothModes('site insights (binary)', (context) => {
  let site = '';
  const dir = mkdtempSync(join(tmpdir(), 'docsctl-insights-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const refused = (args: string[], message: RegExp, input?: string) => expectRefused(context.cli, args, 2, message, input === undefined ? {} : { input });
  const rows = async (args: string[]) => JSON.parse(await context.cli.ok(['site', 'insights', 'query', site, ...args, '--json'])) as Array<Record<string, unknown>>;

  beforeAll(async () => {
    const space = await context.cli.ok(['space', 'create', '--title', 'Handbook', '--format', 'ids']);
    site = await context.cli.ok(['site', 'create', '--title', 'Help', '--space', space, '--format', 'ids']);
  });

  it('tracks events from a file and from stdin ({"events": […]} or an array), printing nothing', async () => {
    const file = join(dir, 'events.json');
    writeFileSync(
      file,
      JSON.stringify([
        view('v1', 's1', '/start', { referrer: 'https://duckduckgo.com/' }),
        view('v1', 's1', '/install'),
        view('v2', 's2', '/start', { userAgent: ANDROID, claims: { plan: 'team' } }),
      ]),
    );
    expect(await context.cli.ok(['site', 'insights', 'track', site, '--file', file])).toBe('');
    const more = { events: [view('v3', 's3', '/gone', { page: null }), view('v2', 's5', '/start', { userAgent: ANDROID, claims: { plan: 'team' } })] };
    expect(await context.cli.ok(['site', 'insights', 'track', site, '--file', '-'], { input: JSON.stringify(more) })).toBe('');
  });

  it('query: groups, counts, filters and order from flags, one object per row with --json', async () => {
    expect(await rows(['--group-by', 'urlPath'])).toEqual([
      { urlPath: '/start', eventsCount: 3 },
      { urlPath: '/gone', eventsCount: 1 },
      { urlPath: '/install', eventsCount: 1 },
    ]);
    expect(await rows(['--group-by', 'visitorOS,visitorDevice', '--select', 'visitorOS,visitorDevice,visitorsCount,sessionsCount', '--order', 'visitorOS'])).toEqual([
      { visitorOS: 'android', visitorDevice: 'mobile', visitorsCount: 1, sessionsCount: 2 },
      { visitorOS: 'linux', visitorDevice: 'desktop', visitorsCount: 2, sessionsCount: 2 },
    ]);
    // The 404s: page views that resolved to no page.
    expect(await rows(['--group-by', 'urlPath', '--where', 'eventType=page_view', '--where', 'page=null'])).toEqual([{ urlPath: '/gone', eventsCount: 1 }]);
    expect(await rows(['--group-by', 'urlPath', '--where', 'urlPath!=/start,/gone'])).toEqual([{ urlPath: '/install', eventsCount: 1 }]);
    expect(await rows(['--group-by', 'urlPath', '--where', 'eventsCount>=2'])).toEqual([{ urlPath: '/start', eventsCount: 3 }]);
    expect(await rows(['--select', 'visitorClaim:plan,eventsCount'])).toEqual([{ 'visitorClaim:plan': 'team', eventsCount: 2 }]);
    expect(await rows(['--group-by', 'referrerDomain', '--where', 'referrerDomain!=', '--range', 'last24Hours'])).toEqual([{ referrerDomain: 'duckduckgo.com', eventsCount: 1 }]);
    expect(await rows(['--group-by', 'urlPath', '--limit', '1', '--order', 'urlPath:asc'])).toEqual([{ urlPath: '/gone', eventsCount: 1 }]);
    const today = `${new Date().toISOString().slice(0, 10)}T00:00:00.000Z`;
    expect(await rows(['--group-by', 'datetime:day', '--select', 'datetime:day,eventsCount'])).toEqual([{ 'datetime:day': today, eventsCount: 5 }]);
    expect(await rows(['--select', 'eventsCount', '--range', '2020-01-01..2020-12-31'])).toEqual([{ eventsCount: 0 }]);
  });

  it('query prints TSV in a pipe; segments list visitors by claims and page', async () => {
    expect(await context.cli.ok(['site', 'insights', 'query', site, '--group-by', 'urlPath', '--limit', '2'])).toBe('/start\t3\n/gone\t1');
    expect(JSON.parse(await context.cli.ok(['site', 'insights', 'segments', site, '--json']))).toEqual([
      { title: 'Anonymous', claims: {}, events: 3, visitors: 2, sessions: 2 },
      { title: 'plan=team', claims: { plan: 'team' }, events: 2, visitors: 1, sessions: 2 },
    ]);
    expect(await context.cli.ok(['site', 'insights', 'segments', site, '--limit', '1', '--format', 'tsv'])).toMatch(/^Anonymous\t3\t2\t2(\t\{\})?$/);
  });

  it('query shows a table with a header per column on a terminal', async () => {
    const { output, exitCode } = await onTerminal(['site', 'insights', 'query', site, '--group-by', 'urlPath', '--select', 'urlPath,eventsCount,visitorsCount'], { env: context.cli.env });
    expect(exitCode, output).toBe(0);
    expect(output).toMatch(/URLPATH\s+EVENTSCOUNT\s+VISITORSCOUNT/);
    expect(output).toMatch(/\/start\s+3\s+2/);
  });

  it('refuses bad input in one line, exit 2, tracking nothing', async () => {
    const before = await rows(['--select', 'eventsCount']);
    await refused(['site', 'insights', 'query', site, '--where', 'eventType~page_view'], /--where "eventType~page_view": use COLUMN=VALUE/);
    await refused(['site', 'insights', 'query', site, '--where', 'eventType=page_veiw'], /Invalid where\[0\] \(eventType\): "page_veiw" is not one of/);
    await refused(['site', 'insights', 'query', site, '--group-by', 'eventsCount'], /eventsCount is a count/);
    await refused(['site', 'insights', 'query', site, '--range', 'yesterday'], /--range "yesterday": use last24Hours/);
    await refused(['site', 'insights', 'query', site, '--limit', '0'], /--limit expects an integer from 1 to 1000/);
    await refused(['site', 'insights', 'track', site, '--file', '-'], /--file - is not JSON/, 'not json');
    await refused(['site', 'insights', 'track', site, '--file', '-'], /must hold a JSON array of events/, '{"event": []}');
    const stale = { ...view('v1', 's1', '/late'), timestamp: '2020-01-01T00:00:00Z' };
    await refused(['site', 'insights', 'track', site, '--file', '-'], /Invalid events\[1\]\.timestamp: 2020-01-01T00:00:00Z is more than 5 minutes from now/, JSON.stringify([view('v1', 's1', '/ok'), stale]));
    expect(await rows(['--select', 'eventsCount'])).toEqual(before);
  });

  it('deleting the site deletes its events', async () => {
    await context.cli.ok(['site', 'delete', site, '--yes']);
    await expectRefused(context.cli, ['site', 'insights', 'query', site], 4, /not found/i);
  });
});
