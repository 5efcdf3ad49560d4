/**
 * 0.202's drafts and redirect flags through the built binary, locally and against
 * `docsctl serve`: a draft section, section group or variant is listed to editors
 * with `draft: true` and no published URL, and `site published` leaves it out until
 * `--no-draft` makes it live; a draft redirect is listed with `--drafts` only and never
 * resolved; a wildcard source with `--capture-wildcard` carries the rest of the path;
 * `--permanent` is kept; `--order-by source` sorts; a `--hidden` site space stays published but out of the navigation.
 */
import { expect, it } from 'vitest';
import { describeInBothModes } from '../helpers/binary.js';

type Published = { structure: { type: string; structure: Array<{ object: string; id: string; title: string; siteSpaces?: Array<{ id: string }>; children?: Array<{ id: string }> }> } };

describeInBothModes('0.202 drafts and redirects', (context) => {
  it('keeps drafts out of the published site until they are made live', async () => {
    const { cli } = context;
    const space = async (title: string) => cli.ok(['space', 'create', '--title', title, '--format', 'ids']);
    const [guide, api, blog, v2] = [await space('Guide'), await space('API'), await space('Blog'), await space('Guide v2')];
    const site = await cli.ok(['site', 'create', '--title', 'Docs', '--type', 'ultimate', '--space', guide, '--format', 'ids']);
    await cli.ok(['site', 'publish', site]);
    const apiSection = JSON.parse(await cli.ok(['site', 'section', 'add', site, api, '--draft', '--json'])) as { id: string; draft: boolean; urls: Record<string, string> };
    expect(apiSection).toMatchObject({ draft: true, urls: {} });
    const blogSection = await cli.ok(['site', 'section', 'add', site, blog, '--format', 'ids']);
    const group = JSON.parse(await cli.ok(['site', 'section-group', 'add', site, '--title', 'More', '--section', blogSection, '--draft', '--json'])) as { id: string; draft: boolean };
    expect(group.draft).toBe(true);
    const sections = JSON.parse(await cli.ok(['site', 'section', 'list', site, '--json'])) as Array<{ id: string; title: string; draft: boolean }>;
    const guideSection = sections.find((s) => s.title === 'Guide')?.id as string;
    const variant = JSON.parse(await cli.ok(['site', 'space', 'add', site, v2, '--section', guideSection, '--draft', '--json'])) as { id: string; draft: boolean; urls: Record<string, string> };
    expect(variant).toMatchObject({ draft: true, urls: {} });
    expect(sections.map((s) => [s.title, s.draft])).toEqual([['Guide', false], ['API', true], ['Blog', false]]);

    const published = () => cli.ok(['site', 'published', site, '--json']).then((out) => (JSON.parse(out) as Published).structure.structure);
    let shown = await published();
    // Only Guide is live: the API section, the More group (with Blog in it) and the v2 variant are drafts.
    expect(shown.map((item) => [item.object, item.title])).toEqual([['site-section', 'Guide']]);
    expect(shown[0]?.siteSpaces?.map((s) => s.id)).not.toContain(variant.id);

    await cli.ok(['site', 'section', 'edit', site, apiSection.id, '--no-draft']);
    await cli.ok(['site', 'section-group', 'edit', site, group.id, '--no-draft']);
    await cli.ok(['site', 'space', 'edit', site, variant.id, '--no-draft']);
    shown = await published();
    expect(shown.map((item) => [item.object, item.title])).toEqual([['site-section', 'Guide'], ['site-section', 'API'], ['site-section-group', 'More']]);
    expect(shown[0]?.siteSpaces?.map((s) => s.id)).toContain(variant.id);
    expect(shown[2]?.children?.map((c) => c.id)).toEqual([blogSection]);
  });

  it('hides a site space from the navigation: hidden in the answers, still published at its URL, shown again with --no-hidden', async () => {
    const { cli } = context;
    const guide = await cli.ok(['space', 'create', '--title', 'Handbook', '--format', 'ids']);
    const legacy = await cli.ok(['space', 'create', '--title', 'Handbook v1', '--format', 'ids']);
    const site = await cli.ok(['site', 'create', '--title', 'Handbook site', '--type', 'premium', '--space', guide, '--format', 'ids']);
    await cli.ok(['site', 'publish', site]);
    const old = JSON.parse(await cli.ok(['site', 'space', 'add', site, legacy, '--json'])) as { id: string; hidden: boolean };
    expect(old.hidden).toBe(false);
    const hidden = JSON.parse(await cli.ok(['site', 'space', 'edit', site, old.id, '--hidden', '--json'])) as { id: string; hidden: boolean; urls: { published?: string } };
    expect(hidden).toMatchObject({ id: old.id, hidden: true });
    expect(hidden.urls.published).toMatch(/\/handbook-v1\/$/);
    const listed = JSON.parse(await cli.ok(['site', 'space', 'list', site, '--json'])) as Array<{ id: string; hidden: boolean }>;
    expect(listed.map((s) => [s.id === old.id, s.hidden])).toEqual([[false, false], [true, true]]);
    type Shown = { structure: { structure: Array<{ id: string; hidden: boolean }> } };
    const published = JSON.parse(await cli.ok(['site', 'published', site, '--json'])) as Shown;
    expect(published.structure.structure.find((s) => s.id === old.id)?.hidden).toBe(true);
    const shown = JSON.parse(await cli.ok(['site', 'space', 'edit', site, old.id, '--no-hidden', '--json'])) as { hidden: boolean };
    expect(shown.hidden).toBe(false);
    const nothing = await cli.run(['site', 'space', 'edit', site, old.id]);
    expect(nothing.exitCode).toBe(2);
    expect(nothing.stderr).toContain('--hidden/--no-hidden');
  });

  it('lists draft redirects apart, resolves wildcards with what they matched, keeps permanent, sorts by source', async () => {
    const { cli } = context;
    const guide = await cli.ok(['space', 'create', '--title', 'Manual', '--format', 'ids']);
    const api = await cli.ok(['space', 'create', '--title', 'Reference', '--format', 'ids']);
    const site = await cli.ok(['site', 'create', '--title', 'Help', '--type', 'premium', '--space', guide, '--format', 'ids']);
    const section = await cli.ok(['site', 'section', 'add', site, api, '--title', 'API reference', '--format', 'ids']);
    const wildcard = JSON.parse(await cli.ok(['site', 'redirect', 'create', site, '/v1/*', '--section', section, '--capture-wildcard', '--permanent', '--json'])) as Record<string, unknown>;
    expect(wildcard).toMatchObject({ source: '/v1/*', captureWildcard: true, permanent: true, draft: false });
    const draft = JSON.parse(await cli.ok(['site', 'redirect', 'create', site, '/beta', '--section', section, '--draft', '--json'])) as { id: string; draft: boolean };
    expect(draft.draft).toBe(true);
    await cli.ok(['site', 'redirect', 'create', site, '/a-first', '--section', section]);

    const base = JSON.parse(await cli.ok(['site', 'get', site, '--json'])) as { urls: { published?: string } };
    const target = JSON.parse(await cli.ok(['site', 'redirect', 'get', site, '/v1/users/list', '--json'])) as { target: string; redirect: { id: string } };
    expect(target.redirect.id).toBe(wildcard.id);
    expect(target.target).toMatch(/\/api-reference\/users\/list$/);
    expect(base).toBeDefined();
    const missing = await cli.run(['site', 'redirect', 'get', site, '/beta']);
    expect(missing.exitCode).toBe(4);

    expect(await cli.ok(['site', 'redirect', 'list', site, '--drafts', '--format', 'ids'])).toBe(draft.id);
    const bySource = JSON.parse(await cli.ok(['site', 'redirect', 'list', site, '--order-by', 'source', '--json'])) as Array<{ source: string }>;
    expect(bySource.map((r) => r.source)).toEqual(['/a-first', '/v1/*']);
    const newest = JSON.parse(await cli.ok(['site', 'redirect', 'list', site, '--json'])) as Array<{ source: string }>;
    expect(newest.map((r) => r.source)).toEqual(['/a-first', '/v1/*']);

    await cli.ok(['site', 'redirect', 'edit', site, draft.id, '--no-draft']);
    expect(JSON.parse(await cli.ok(['site', 'redirect', 'get', site, '/beta', '--json']))).toMatchObject({ redirect: { id: draft.id, draft: false } });
    expect(await cli.ok(['site', 'redirect', 'list', site, '--drafts', '--format', 'ids'])).toBe('');
  });
});
