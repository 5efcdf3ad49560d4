/**
 * The last 0.202 request fields of sites and organizations (issue 24's ledger), through the built
 * binary, locally and against `docsctl serve`:
 * - `site section add` / `site space add` without a SPACE make a new space: from `--template`
 *   (its pages), else empty and titled `--title`; `--page` opens the section or variant on a page
 *   of its space (a page the space lacks is a 400 that changes nothing); `site space add --title`
 *   titles the variant on the site (the space keeps its own); `site space edit --page` sets and
 *   clears the page, and showing another space clears it.
 * - `site section edit --localized-title/--localized-description` and `site section-group edit
 *   --localized-title` set per-language titles, shown in the answers and in what the site publishes.
 * - `site edit --default-level` gives members without a grant that role on the site (`none`: no
 *   access; `inherit`: their organization role again).
 * - `org create --with-default-site --source template --audience internal`: the default site starts
 *   with the default template's space and is unlisted.
 */
import { join } from 'node:path';
import { execa } from 'execa';
import { beforeAll, expect, it } from 'vitest';
import { bin, describeInBothModes } from '../helpers/binary.js';

interface SiteSpace {
  id: string;
  title: string;
  pageId?: string;
  space: { id: string; title: string };
}
interface Section {
  id: string;
  title: string;
  localizedTitle?: Record<string, string>;
  localizedDescription?: Record<string, string>;
  siteSpaces: SiteSpace[];
}

describeInBothModes('0.202 site and organization fields', (ctx) => {
  let site: string;
  let guide: string;
  const json = async <T>(args: string[]): Promise<T> => JSON.parse(await ctx.cli.ok([...args, '--json'])) as T;
  const pages = (space: string) => json<Array<{ id: string; title: string; type: string }>>(['page', 'list', space]);

  beforeAll(async () => {
    guide = await ctx.cli.ok(['space', 'create', '--title', 'Guide', '--format', 'ids']);
    site = await ctx.cli.ok(['site', 'create', '--title', 'Docs', '--type', 'ultimate', '--space', guide, '--format', 'ids']);
  });

  it('adds sections and variants showing new spaces, from a template or empty, opening on a chosen page', async () => {
    const api = await json<Section>(['site', 'section', 'add', site, '--template', 'api-reference', '--title', 'API']);
    expect(api.title).toBe('API');
    const apiSpace = api.siteSpaces[0]?.space as { id: string; title: string };
    expect(apiSpace.title).toBe('API');
    expect((await pages(apiSpace.id)).map((p) => p.title)).toEqual(['API reference', 'Authentication', 'Errors', 'Changelog']);

    const empty = await json<Section>(['site', 'section', 'add', site, '--title', 'Notes']);
    expect(empty.siteSpaces[0]?.space.title).toBe('Notes');
    expect(await pages(empty.siteSpaces[0]?.space.id as string)).toEqual([]);

    // Neither a space nor a title nor a template; a template with an existing space: 400s, nothing added.
    const before = (await json<Section[]>(['site', 'section', 'list', site])).length;
    const bare = await ctx.cli.run(['site', 'section', 'add', site]);
    expect(bare.exitCode).toBe(2);
    expect(bare.stderr).toContain('Invalid title: a new space (spaceId null) needs a title, or a template');
    const both = await ctx.cli.run(['site', 'section', 'add', site, guide, '--template', 'product-docs']);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain('Invalid template: a template makes a new space');
    const missingPage = await ctx.cli.run(['site', 'section', 'add', site, apiSpace.id, '--page', 'nope']);
    expect(missingPage.exitCode).toBe(2);
    expect(missingPage.stderr).toContain(`Invalid pageId: space ${apiSpace.id} has no page nope`);
    expect((await json<Section[]>(['site', 'section', 'list', site])).length).toBe(before);

    // A section on an existing space, opening on its "Errors" page.
    const errors = (await pages(apiSpace.id)).find((p) => p.title === 'Errors')?.id as string;
    const reference = await json<Section>(['site', 'section', 'add', site, apiSpace.id, '--title', 'Reference', '--page', errors]);
    expect(reference.siteSpaces[0]).toMatchObject({ pageId: errors, space: { id: apiSpace.id } });

    // A variant: a new space from a template, titled on the site; another on an existing space with a site title of its own.
    const help = await json<SiteSpace>(['site', 'space', 'add', site, '--section', api.id, '--template', 'knowledge-base', '--title', 'Help center']);
    expect(help.title).toBe('Help center');
    expect(help.space.title).toBe('Help center');
    expect((await pages(help.space.id)).length).toBeGreaterThan(0);
    const legacy = await json<SiteSpace>(['site', 'space', 'add', site, guide, '--section', api.id, '--title', 'Legacy guide']);
    expect(legacy).toMatchObject({ title: 'Legacy guide', space: { id: guide, title: 'Guide' } });
    const noPageForNew = await ctx.cli.run(['site', 'space', 'add', site, '--section', api.id, '--title', 'Other', '--page', errors]);
    expect(noPageForNew.exitCode).toBe(2);
    expect(noPageForNew.stderr).toContain('Invalid pageId: a new space has no pages yet');

    // The page a variant opens on: set, refused when not in its space, cleared; showing another space clears it.
    const helpPage = (await pages(help.space.id))[1]?.id as string;
    expect((await json<SiteSpace>(['site', 'space', 'edit', site, help.id, '--page', helpPage])).pageId).toBe(helpPage);
    const elsewhere = await ctx.cli.run(['site', 'space', 'edit', site, help.id, '--page', errors]);
    expect(elsewhere.exitCode).toBe(2);
    expect(elsewhere.stderr).toContain(`Invalid pageId: space ${help.space.id} has no page ${errors}`);
    expect((await json<SiteSpace[]>(['site', 'space', 'list', site])).find((s) => s.id === help.id)?.pageId).toBe(helpPage);
    expect((await json<SiteSpace>(['site', 'space', 'edit', site, help.id, '--page', 'none'])).pageId).toBeUndefined();
    await ctx.cli.ok(['site', 'space', 'edit', site, help.id, '--page', helpPage]);
    const notes = empty.siteSpaces[0]?.space.id as string;
    const swapped = await json<SiteSpace>(['site', 'space', 'edit', site, help.id, '--space', notes]);
    expect(swapped.space.id).toBe(notes);
    expect(swapped.pageId).toBeUndefined();
  });

  it('keeps titles and descriptions per language on sections and groups, and publishes them', async () => {
    const section = (await json<Section[]>(['site', 'section', 'list', site])).find((s) => s.title === 'API') as Section;
    const edited = await json<Section>([
      'site', 'section', 'edit', site, section.id,
      '--localized-title', 'fr=Référence', '--localized-title', 'de=Referenz', '--localized-description', 'fr=Toute l’API',
    ]);
    expect(edited.localizedTitle).toEqual({ fr: 'Référence', de: 'Referenz' });
    expect(edited.localizedDescription).toEqual({ fr: 'Toute l’API' });
    await ctx.cli.ok(['site', 'publish', site]);
    const published = await json<{ structure: { structure: Array<{ id: string; localizedTitle?: Record<string, string> }> } }>(['site', 'published', site]);
    expect(published.structure.structure.find((s) => s.id === section.id)?.localizedTitle).toEqual({ fr: 'Référence', de: 'Referenz' });

    const unknown = await ctx.cli.run(['site', 'section', 'edit', site, section.id, '--localized-title', 'xx=Nope']);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('Invalid body field "localizedTitle"');
    const malformed = await ctx.cli.run(['site', 'section', 'edit', site, section.id, '--localized-title', 'Référence']);
    expect(malformed.exitCode).toBe(2);
    expect(malformed.stderr).toContain('--localized-title expects LANG=TEXT');
    expect((await json<Section[]>(['site', 'section', 'list', site])).find((s) => s.id === section.id)?.localizedTitle).toEqual({ fr: 'Référence', de: 'Referenz' });

    const cleared = await json<Section>(['site', 'section', 'edit', site, section.id, '--localized-title', 'none']);
    expect(cleared.localizedTitle).toBeUndefined();
    expect(cleared.localizedDescription).toEqual({ fr: 'Toute l’API' });

    const group = await ctx.cli.ok(['site', 'section-group', 'add', site, '--title', 'Reference', '--format', 'ids']);
    const titled = await json<{ localizedTitle?: Record<string, string> }>(['site', 'section-group', 'edit', site, group, '--localized-title', 'ja=リファレンス']);
    expect(titled.localizedTitle).toEqual({ ja: 'リファレンス' });
  });

  it("gives members without a grant the site's default level", async () => {
    const home = ctx.cli.home;
    const localEnv = { PATH: process.env.PATH ?? '', HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config'), DOCSCTL_STORE: join(home, 'store'), NO_COLOR: '1' };
    const local = async (args: string[]) => (await execa('node', [bin, ...args], { env: localEnv, extendEnv: false, timeout: 120_000 })).stdout.trim();
    await local(['member', 'invite', 'rita@acme.io', '--role', 'read']);
    const token = (JSON.parse(await local(['token', 'create', '--user', 'rita@acme.io', '--json'])) as { token: string }).token;
    const asRita = (args: string[]) => ctx.cli.run(args, { env: { DOCSCTL_TOKEN: token } });
    const ritaSees = async () => JSON.parse((await asRita(['site', 'get', site, '--json'])).stdout) as { permissions: Record<string, boolean> };

    expect((await ritaSees()).permissions).toMatchObject({ view: true, edit: false, admin: false });
    expect((await json<{ defaultLevel: unknown }>(['site', 'get', site])).defaultLevel).toBe('inherit');
    expect((await json<{ defaultLevel: unknown }>(['site', 'edit', site, '--default-level', 'edit'])).defaultLevel).toBe('edit');
    expect((await ritaSees()).permissions).toMatchObject({ view: true, edit: true, create: false, admin: false });

    expect((await json<{ defaultLevel: unknown }>(['site', 'edit', site, '--default-level', 'none'])).defaultLevel).toBeNull();
    const shut = await asRita(['site', 'get', site]);
    expect(shut.exitCode).toBe(3);
    expect(shut.stderr).toContain(`on site ${site}`);
    // The organization's admin keeps administering it.
    expect((await json<{ permissions: { admin: boolean } }>(['site', 'get', site])).permissions.admin).toBe(true);

    expect((await json<{ defaultLevel: unknown }>(['site', 'edit', site, '--default-level', 'inherit'])).defaultLevel).toBe('inherit');
    expect((await ritaSees()).permissions).toMatchObject({ view: true, edit: false });
    const wrong = await ctx.cli.run(['site', 'edit', site, '--default-level', 'owner']);
    expect(wrong.exitCode).toBe(2);
  });

  it('makes the default site of a new organization from the onboarding preferences', async () => {
    const org = await json<{ id: string }>(['org', 'create', '--title', 'Handbook Co', '--with-default-site', '--source', 'template', '--audience', 'internal']);
    const sites = await json<Array<{ id: string; visibility: string; siteSpaces: number }>>(['site', 'list', '--org', org.id]);
    expect(sites).toHaveLength(1);
    expect(sites[0]).toMatchObject({ visibility: 'unlisted', siteSpaces: 1 });
    const variants = await json<SiteSpace[]>(['site', 'space', 'list', sites[0]?.id as string, '--org', org.id]);
    expect(variants[0]?.space.title).toBe('Handbook Co');
    expect((await pages(variants[0]?.space.id as string)).map((p) => p.title)).toContain('Getting started');

    const plain = await json<{ id: string }>(['org', 'create', '--title', 'Plain Co', '--with-default-site', '--audience', 'public']);
    const plainSites = await json<Array<{ visibility: string; siteSpaces: number }>>(['site', 'list', '--org', plain.id]);
    expect(plainSites[0]).toMatchObject({ visibility: 'public', siteSpaces: 0 });
    const bad = await ctx.cli.run(['org', 'create', '--title', 'Bad Co', '--with-default-site', '--audience', 'everyone']);
    expect(bad.exitCode).toBe(2);
  });
});
