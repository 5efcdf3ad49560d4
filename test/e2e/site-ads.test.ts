/**
 * The site ads program through the built binary, in both modes: the site admin's `site ads edit`
 * (updateSiteAdsById), the ad partner's `ads site list|update` (adsListSites, adsUpdateSite, with
 * X-GitBook-Partner-Key from DOCSCTL_ADS_PARTNER_KEY) and the Site's `ads` field after each move.
 * Refused moves: one line, the documented exit code (2 usage, 3 auth, 5 conflict), nothing written.
 */
import { beforeAll, expect, it } from 'vitest';
import { describeInBothModes, expectRefused } from '../helpers/binary.js';

const KEY = 'partner-key-0123456789abcdef';
const partner = { env: { DOCSCTL_ADS_PARTNER_KEY: KEY } };

describeInBothModes('site ads (binary)', (context) => {
  let site = '';
  const ads = async () => JSON.parse(await context.cli.ok(['site', 'get', site, '--query', 'ads'])) as unknown;
  const listed = async (status: string) => JSON.parse(await context.cli.ok(['ads', 'site', 'list', '--status', status, '--json'], partner)) as unknown;
  const refused = (args: string[], exitCode: number, message: RegExp, env: Record<string, string> = {}) => expectRefused(context.cli, args, exitCode, message, { env });

  beforeAll(async () => {
    const space = await context.cli.ok(['space', 'create', '--title', 'Handbook', '--format', 'ids']);
    site = await context.cli.ok(['site', 'create', '--title', 'Docs', '--space', space, '--format', 'ids']);
  });

  it('a site is submittable once published and public; a submission needs a topic', async () => {
    expect(await ads()).toEqual({ status: 'pending', submittable: false });
    await refused(['site', 'ads', 'edit', site, '--status', 'in-review', '--topic', 'webdev'], 5, /cannot be submitted to the ads program: it is not published/);
    await context.cli.ok(['site', 'publish', site]);
    expect(await ads()).toEqual({ status: 'pending', submittable: true });
    await refused(['site', 'ads', 'edit', site, '--status', 'in-review'], 2, /needs a topic \(--topic webdev\|crypto\)/);
    await refused(['site', 'ads', 'edit', site, '--status', 'disabled'], 5, /are pending; only live ads can be disabled/);
    await refused(['site', 'ads', 'edit', site, '--topic', 'webdev'], 5, /a topic alone does not submit it/);
    await refused(['site', 'ads', 'edit', site, '--topic', 'gardening'], 2, /gardening/);
    await refused(['site', 'ads', 'edit', site], 2, /Nothing to change/);
    expect(await ads()).toEqual({ status: 'pending', submittable: true });
    expect(await context.cli.ok(['site', 'ads', 'edit', site, '--status', 'in-review', '--topic', 'webdev'])).toBe('');
    expect(await ads()).toEqual({ status: 'in-review', topic: 'webdev' });
  });

  it("the partner's calls need the partner's key: missing, unset on the server, wrong", async () => {
    await refused(['ads', 'site', 'list'], 2, /Set DOCSCTL_ADS_PARTNER_KEY/);
    await refused(['ads', 'site', 'list'], 3, /has no ad partner key \(its owner sets one: docsctl ads partner-key set\)/, partner.env);
    await refused(['ads', 'partner-key', 'set', '--key', 'short'], 2, /key.*16/);
    expect(await context.cli.ok(['ads', 'partner-key', 'set'], partner)).toBe('');
    await refused(['ads', 'site', 'list'], 3, /Invalid X-GitBook-Partner-Key/, { DOCSCTL_ADS_PARTNER_KEY: `${KEY}x` });
    await refused(['ads', 'site', 'update', site, '--status', 'rejected'], 3, /Invalid X-GitBook-Partner-Key/, { DOCSCTL_ADS_PARTNER_KEY: 'x'.repeat(28) });
    expect(await ads()).toEqual({ status: 'in-review', topic: 'webdev' });
  });

  it('the partner lists the site in review with its contact, and takes it live', async () => {
    const [item] = (await listed('in-review')) as Array<Record<string, unknown>>;
    expect(item).toEqual({ id: site, url: expect.stringMatching(/^https:\/\/[\w-]+\.gitbook\.io\/docs\/$/), email: 'admin@example.com', topic: 'webdev', status: 'in-review' });
    expect(await listed('live')).toEqual([]);
    await refused(['ads', 'site', 'update', site, '--status', 'live', '--zone-id', 'z0ne'], 2, /status "live" needs a reportingId/, partner.env);
    await refused(['ads', 'site', 'update', site, '--status', 'pending', '--reason', 'no'], 2, /reason does not go with status "pending"/, partner.env);
    expect(await context.cli.ok(['ads', 'site', 'update', site, '--status', 'live', '--zone-id', 'z0ne', '--reporting-id', 'rep1'], partner)).toBe('');
    expect(await listed('in-review')).toEqual([]);
    expect(await listed('live')).toEqual([{ ...item, status: 'live', zoneId: 'z0ne' }]);
    expect(await ads()).toEqual({ status: 'live', topic: 'webdev', zoneId: 'z0ne' });
    const table = await context.cli.ok(['ads', 'site', 'list', '--status', 'live'], partner);
    expect(table).toMatch(new RegExp(`${site}\\s+live\\s+webdev\\s+admin@example\\.com`));
  });

  it('`docsctl api` sends the partner key on the partner operations only', async () => {
    const live = JSON.parse(await context.cli.ok(['api', 'GET', '/v1/ads/sites?status=live'], partner)) as { items: Array<{ id: string; status: string }> };
    expect(live.items.map((item) => [item.id, item.status])).toEqual([[site, 'live']]);
    const paged = JSON.parse(await context.cli.ok(['api', 'GET', 'ads/sites', '-f', 'status=live', '--paginate'], partner)) as Array<{ id: string }>;
    expect(paged.map((item) => item.id)).toEqual([site]);
    await refused(['api', 'GET', '/v1/ads/sites'], 3, /X-GitBook-Partner-Key/);
    await refused(['api', 'PATCH', `/v1/ads/sites/${site}`, '-f', 'status=pending'], 3, /Invalid X-GitBook-Partner-Key/, { DOCSCTL_ADS_PARTNER_KEY: 'y'.repeat(28) });
    // An operation that is not the partner's ignores the key: the site admin's own view.
    const own = JSON.parse(await context.cli.ok(['api', 'GET', `/v1/user`], partner)) as { id: string };
    expect(own.id).toEqual(expect.any(String));
    expect(await ads()).toEqual({ status: 'live', topic: 'webdev', zoneId: 'z0ne' });
  });

  it('live ads: a new topic stays live; disabled keeps the zone; re-enabling goes back to review', async () => {
    await refused(['site', 'ads', 'edit', site, '--status', 'in-review', '--topic', 'crypto'], 5, /are live; disable them first/);
    await context.cli.ok(['site', 'ads', 'edit', site, '--topic', 'crypto']);
    expect(await ads()).toEqual({ status: 'live', topic: 'crypto', zoneId: 'z0ne' });
    await context.cli.ok(['site', 'ads', 'edit', site, '--status', 'disabled']);
    expect(await ads()).toEqual({ status: 'disabled', topic: 'crypto', zoneId: 'z0ne' });
    expect(await listed('live')).toEqual([]);
    await refused(['ads', 'site', 'update', site, '--status', 'live', '--zone-id', 'z', '--reporting-id', 'r'], 5, /is not in review \(its ads are disabled\)/, partner.env);
    await context.cli.ok(['site', 'ads', 'edit', site, '--status', 'in-review']);
    expect(await ads()).toEqual({ status: 'in-review', topic: 'crypto' });
  });

  it('rejected with a reason, resubmitted, sent back to pending; a deleted site leaves the lists', async () => {
    await context.cli.ok(['ads', 'site', 'update', site, '--status', 'rejected', '--reason', 'not enough traffic'], partner);
    expect(await ads()).toEqual({ status: 'rejected', reason: 'not enough traffic' });
    expect(await listed('rejected')).toEqual([expect.objectContaining({ id: site, status: 'rejected', reason: 'not enough traffic', topic: 'crypto' })]);
    await context.cli.ok(['site', 'ads', 'edit', site, '--status', 'in-review']);
    expect(await listed('rejected')).toEqual([]);
    await context.cli.ok(['ads', 'site', 'update', site, '--status', 'pending'], partner);
    expect(await ads()).toEqual({ status: 'pending', submittable: true });
    expect(await listed('in-review')).toEqual([]);
    await context.cli.ok(['site', 'ads', 'edit', site, '--status', 'in-review', '--topic', 'webdev']);
    expect(await listed('in-review')).toHaveLength(1);
    await context.cli.ok(['site', 'delete', site, '--yes']);
    expect(await listed('in-review')).toEqual([]);
    await refused(['ads', 'site', 'update', site, '--status', 'pending'], 4, /not found/, partner.env);
  });
});
