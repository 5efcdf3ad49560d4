/**
 * 0.202's change-request list options: `orderBy` on a space's list (`cr list --order-by`:
 * newest first by last update or by creation; without it by number, which is creation) and
 * `site` on the organization's list (the change requests of the spaces a site publishes), and a
 * change request's external `links` (`cr edit --link`).
 * Through the built binary, locally and against `docsctl serve`.
 */
import { beforeAll, expect, it } from 'vitest';
import { type BinaryMode, describeInBothModes } from '../helpers/binary.js';

describeInBothModes('change request lists: orderBy and site', (context) => {
  let cli: BinaryMode;
  let handbook: string;
  let runbooks: string;
  beforeAll(async () => {
    ({ cli } = context);
    handbook = await cli.ok(['space', 'create', '--title', 'Handbook', '--format', 'ids']);
    runbooks = await cli.ok(['space', 'create', '--title', 'Runbooks', '--format', 'ids']);
    for (const subject of ['First', 'Second', 'Third']) await cli.ok(['cr', 'create', handbook, '--subject', subject]);
    await cli.ok(['cr', 'create', runbooks, '--subject', 'Elsewhere']);
    // The first one edited last: the newest by update.
    await cli.ok(['cr', 'edit', handbook, '1', '--subject', 'First, edited']);
  });

  const numbers = async (...args: string[]) => (JSON.parse(await cli.ok(['cr', 'list', handbook, ...args, '--json', 'number'])) as Array<{ number: number }>).map((cr) => cr.number);

  it('orders newest first by update or by creation; without --order-by by number', async () => {
    expect(await numbers('--order-by', 'updatedAt')).toEqual([1, 3, 2]);
    expect(await numbers('--order-by', 'createdAt')).toEqual([3, 2, 1]);
    expect(await numbers()).toEqual([3, 2, 1]);
    expect(await numbers('--order-by', 'updatedAt', '--limit', '1')).toEqual([1]);
    const bad = await cli.run(['cr', 'list', handbook, '--order-by', 'title']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/--order-by.*updatedAt, createdAt/);
  });

  it("lists an organization's change requests linked to a site: those of the spaces it publishes", async () => {
    const site = await cli.ok(['site', 'create', '--title', 'Docs', '--format', 'ids']);
    await cli.ok(['site', 'space', 'add', site, handbook]);
    const linked = JSON.parse(await cli.ok(['api', 'GET', `/v1/orgs/${cli.orgId}/change-requests?site=${site}&orderBy=createdAt`])) as { items: Array<{ subject: string }> };
    expect(linked.items.map((cr) => cr.subject)).toEqual(['Third', 'Second', 'First, edited']);
    const all = JSON.parse(await cli.ok(['api', 'GET', `/v1/orgs/${cli.orgId}/change-requests`])) as { items: Array<{ subject: string }> };
    expect(all.items.map((cr) => cr.subject)).toEqual(['First, edited', 'Elsewhere', 'Third', 'Second']);
    const unknown = JSON.parse(await cli.ok(['api', 'GET', `/v1/orgs/${cli.orgId}/change-requests?site=nope`])) as { items: unknown[] };
    expect(unknown.items).toEqual([]);
  });

  it('keeps external links on a change request: added, changed by id, removed when left out, refused when not http(s)', async () => {
    const links = async () => (JSON.parse(await cli.ok(['cr', 'get', handbook, '2', '--json'])) as { links?: Array<{ id: string; ref: { url: string }; title?: string }> }).links;
    expect(await links()).toBeUndefined();
    await cli.ok(['cr', 'edit', handbook, '2', '--link', 'Issue=https://linear.app/acme/issue/DOC-7', '--link', 'https://acme.dev/spec?a=1']);
    const [issue, spec] = (await links()) ?? [];
    expect(issue).toMatchObject({ ref: { kind: 'url', url: 'https://linear.app/acme/issue/DOC-7' }, title: 'Issue' });
    expect(spec).toMatchObject({ ref: { kind: 'url', url: 'https://acme.dev/spec?a=1' } });
    expect(spec).not.toHaveProperty('title');
    // Through the API: an id keeps (and changes) that link; the one left out goes.
    const body = JSON.stringify({ links: [{ id: issue?.id, ref: { kind: 'url', url: 'https://linear.app/acme/issue/DOC-8' } }] });
    await cli.ok(['api', 'PATCH', `/v1/spaces/${handbook}/change-requests/2`, '--input', '-'], { input: body });
    expect(await links()).toEqual([{ id: issue?.id, ref: { kind: 'url', url: 'https://linear.app/acme/issue/DOC-8' } }]);
    const unknown = await cli.run(['api', 'PATCH', `/v1/spaces/${handbook}/change-requests/2`, '--input', '-'], { input: JSON.stringify({ links: [{ id: 'nope', ref: { kind: 'url', url: 'https://x.dev' } }] }) });
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toMatch(/links\[0\]\.id: change request #2 has no link nope \(leave the id out to add a link\)/);
    const script = await cli.run(['cr', 'edit', handbook, '2', '--link', 'javascript:alert(1)']);
    expect(script.exitCode).toBe(2);
    expect(script.stderr).toMatch(/an http:\/\/ or https:\/\/ URL/);
    await cli.ok(['cr', 'edit', handbook, '2', '--link', 'none']);
    expect(await links()).toBeUndefined();
  });

  it('a 403 about the object (a basic site cannot have sections) is its own message, without "check --token"', async () => {
    const site = await cli.ok(['site', 'create', '--title', 'Basic', '--format', 'ids']);
    const refused = await cli.run(['site', 'section', 'add', site, handbook]);
    expect(refused.exitCode).toBe(3);
    expect(refused.stderr).toBe(
      `error: Site ${site} is on the basic plan, which cannot have sections (feature sites-sections); it needs a premium site (create one with type "premium")`,
    );
  });
});
