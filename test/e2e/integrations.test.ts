/**
 * Integration installations through the built binary, locally and against `docsctl
 * serve`: publish from a manifest, install on the organization and a space, see it in
 * the listings, change the space's content and read the event that recorded it (newest
 * first), use an installation token (it reads the covered space and nothing else),
 * development mode, bad input (one line, exit 2), uninstall.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInBothModes } from '../helpers/binary.js';
import { tempDir } from '../helpers/stores.js';

// Created now: serve is started with --allow-local on it (the Markdown a change request imports).
const dir = tempDir('docsctl-e2e-integrations-');
beforeAll(() => {
  writeFileSync(join(dir, 'index.js'), 'export default {}\n');
  writeFileSync(join(dir, 'gitbook-manifest.yaml'), 'name: notify\ntitle: Notify\ndescription: Tells a channel\nscript: ./index.js\nscopes:\n  - space:content:read\n');
  writeFileSync(join(dir, 'guide.md'), '# Guide\n\nSteps.\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));


describeInBothModes('integration installations and events through the binary', (context) => {
  let installation: string;
  let space: string;

  it('publishes, installs on the organization (re-runnable) and on a space, and lists them', async () => {
    const { cli } = context;
    await cli.ok(['integration', 'publish', '--file', join(dir, 'gitbook-manifest.yaml'), '--organization', cli.orgId]);
    installation = await cli.ok(['integration', 'install', 'notify', '--organization', cli.orgId, '--format', 'ids']);
    expect(installation).toMatch(/^\w{8,}$/);
    expect(await cli.ok(['integration', 'install', 'notify', '--organization', cli.orgId, '--format', 'ids'])).toBe(installation);
    space = await cli.ok(['space', 'create', '--title', 'Handbook', '--format', 'ids']);
    expect(await cli.ok(['integration', 'space', 'install', 'notify', installation, space])).toBe(`${space}\tnotify\t${installation}\tactive`);
    expect(await cli.ok(['integration', 'installed'])).toBe(`notify\t${installation}\tactive\tselected\tselected`);
    expect(await cli.ok(['integration', 'installation', 'get', 'notify', installation])).toBe(`${installation}\tactive\t${cli.orgId}\t1`);
    expect(await cli.ok(['integration', 'statuses', '--target', 'space'])).toBe(`notify\tactive\tspace\t${space}`);
    expect(await cli.ok(['integration', 'status', 'notify'])).toBe('active');
    expect(await cli.ok(['space', 'integrations', space, '--format', 'ids'])).toBe('notify');
    const table = await cli.ok(['integration', 'space', 'list', 'notify', installation, '--format', 'table']);
    expect(table).toMatch(/SPACE\s+INTEGRATION\s+INSTALLATION\s+STATUS/);
    expect(table).toContain(space);
  });

  it('records the content change of the covered space as an event, newest first', async () => {
    const { cli } = context;
    const cr = await cli.ok(['cr', 'create', space, '--subject', 'Guide', '--format', 'ids']);
    await cli.ok(['cr', 'import', space, cr, join(dir, 'guide.md')]);
    await cli.ok(['cr', 'merge', space, cr]);
    const lines = (await cli.ok(['integration', 'events', 'notify'])).split('\n').map((line) => line.split('\t'));
    expect(lines.map((line) => line[1])).toEqual(['space_content_updated', 'space_installation_setup', 'installation_setup']);
    expect(lines[0]?.slice(2, 5)).toEqual([installation, space, 'success']);
    const newest = await cli.ok(['integration', 'events', 'notify', '--limit', '1', '--format', 'ids']);
    expect(newest).toBe(lines[0]?.[0]);
    const event = JSON.parse(await cli.ok(['integration', 'event', 'notify', newest, '--json'])) as { event: { payload: Record<string, unknown> }; trace: { logs: unknown[] } };
    const revision = JSON.parse(await cli.ok(['space', 'get', space, '--json'])) as { revision: string };
    expect(event.event.payload).toMatchObject({ type: 'space_content_updated', spaceId: space, installationId: installation, revisionId: revision.revision });
    expect(event.trace.logs).toEqual([]);
  });

  it('gives a token that reads the covered space and nothing else', async () => {
    const { cli } = context;
    const other = await cli.ok(['space', 'create', '--title', 'Other', '--format', 'ids']);
    const token = await cli.ok(['integration', 'installation', 'token', 'notify', installation, '--format', 'ids']);
    expect(token).toMatch(/^gb_api_/);
    const env = { DOCSCTL_TOKEN: token };
    expect(await cli.ok(['space', 'get', space, '--json', 'title'], { env })).toBe('{\n  "title": "Handbook"\n}');
    const hidden = await cli.run(['space', 'get', other], { env });
    expect(hidden.exitCode).toBe(4);
    expect(hidden.stderr).toBe(`error: Space ${other} not found`);
    const edit = await cli.run(['space', 'edit', space, '--title', 'Pwned'], { env });
    expect(edit.exitCode).toBe(3);
    expect(edit.stderr).toMatch(/no space:…:write scope: its installation token may not call updateSpaceById/);
    const orgList = await cli.run(['space', 'list'], { env });
    expect(orgList.exitCode).toBe(3);
    expect(orgList.stderr).toMatch(/may only call the API for the spaces and sites its installation covers/);
    expect(await cli.ok(['space', 'get', space, '--json', 'title'])).toContain('Handbook');
  });

  it('development mode on and off; bad input is one line with exit 2 and changes nothing', async () => {
    const { cli } = context;
    expect((await cli.run(['integration', 'dev', 'on', 'notify', '--tunnel-url', 'https://dev.example.test'])).exitCode).toBe(0);
    expect((await cli.run(['integration', 'dev', 'off', 'notify'])).exitCode).toBe(0);
    const badUrl = await cli.run(['integration', 'dev', 'on', 'notify', '--tunnel-url', 'not-a-url']);
    expect(badUrl.exitCode).toBe(2);
    expect(badUrl.stderr).toBe('error: Invalid body field "tunnelUrl": Invalid URL');
    const badSelection = await cli.run(['integration', 'installation', 'edit', 'notify', installation, '--space-selection', 'some']);
    expect(badSelection.exitCode).toBe(2);
    expect(badSelection.stderr).toMatch(/argument 'some' is invalid. Allowed choices are all, selected/);
    const nothing = await cli.run(['integration', 'installation', 'edit', 'notify', installation]);
    expect(nothing.exitCode).toBe(2);
    expect(nothing.stderr).toMatch(/Nothing to change: pass --space-selection/);
    expect(await cli.ok(['integration', 'installation', 'edit', 'notify', installation, '--space-selection', 'all', '--external-ids', 'T1,T2', '--json', 'space_selection,externalIds'])).toBe(
      JSON.stringify({ space_selection: 'all', externalIds: ['T1', 'T2'] }, null, 2),
    );
  });

  it('uninstalls from the space, then from the organization; the token stops working', async () => {
    const { cli } = context;
    const token = await cli.ok(['integration', 'installation', 'token', 'notify', installation, '--format', 'ids']);
    const removed = await cli.run(['integration', 'space', 'uninstall', 'notify', installation, space, '--yes']);
    expect(removed.exitCode, removed.stderr).toBe(0);
    expect(removed.stderr).toBe(`Deleted space installation ${space}`);
    const gone = await cli.run(['integration', 'uninstall', 'notify', installation, '--yes']);
    expect(gone.exitCode, gone.stderr).toBe(0);
    expect(await cli.ok(['integration', 'installed'])).toBe('');
    const refused = await cli.run(['space', 'get', space], { env: { DOCSCTL_TOKEN: token } });
    expect(refused.exitCode).toBe(3);
    expect(refused.stderr).toMatch(/was uninstalled/);
    const types = (await cli.ok(['integration', 'events', 'notify', '--limit', '2'])).split('\n').map((line) => line.split('\t')[1]);
    expect(types).toEqual(['installation_deleted', 'space_installation_deleted']);
  });
}, { serveFlags: ['--allow-local', dir] });
