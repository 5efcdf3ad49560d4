/**
 * 0.202's group moves through the built binary, locally and against `docsctl serve`:
 * `site section add --group` creates a section inside a group, `site section edit --group`
 * moves a section into a group (or back to the top level with `none`), and
 * `site section-group edit --parent` nests a group (never inside itself). Answers name the
 * group a section or group sits in (`sectionGroup`); a wrong group is a usage error that changes nothing.
 */
import { expect, it } from 'vitest';
import { describeInBothModes } from '../helpers/binary.js';

type Node = { id: string; sectionGroup?: string; children?: Array<{ id: string }> };

describeInBothModes('0.202 section and group moves', (context) => {
  it('creates a section in a group, moves sections and groups between groups and back to the top level', async () => {
    const { cli } = context;
    const space = async (title: string) => cli.ok(['space', 'create', '--title', title, '--format', 'ids']);
    const [guide, api, sdk] = [await space('Guide'), await space('API'), await space('SDK')];
    const site = await cli.ok(['site', 'create', '--title', 'Docs', '--type', 'ultimate', '--space', guide, '--format', 'ids']);
    const apiSection = await cli.ok(['site', 'section', 'add', site, api, '--format', 'ids']);
    const outer = await cli.ok(['site', 'section-group', 'add', site, '--title', 'Reference', '--format', 'ids']);
    const inner = await cli.ok(['site', 'section-group', 'add', site, '--title', 'Libraries', '--format', 'ids']);

    const sdkSection = JSON.parse(await cli.ok(['site', 'section', 'add', site, sdk, '--group', inner, '--json'])) as Node;
    expect(sdkSection.sectionGroup).toBe(inner);
    const moved = JSON.parse(await cli.ok(['site', 'section', 'edit', site, apiSection, '--group', outer, '--json'])) as Node;
    expect(moved.sectionGroup).toBe(outer);
    const nested = JSON.parse(await cli.ok(['site', 'section-group', 'edit', site, inner, '--parent', outer, '--json'])) as Node;
    expect(nested.sectionGroup).toBe(outer);

    const groups = () => cli.ok(['site', 'section-group', 'list', site, '--json']).then((out) => JSON.parse(out) as Node[]);
    let listed = await groups();
    expect(listed.find((g) => g.id === outer)?.children?.map((c) => c.id)).toEqual([apiSection, inner]);
    expect(listed.find((g) => g.id === inner)?.children?.map((c) => c.id)).toEqual([sdkSection.id]);

    // A group never goes inside itself; nothing changes.
    const loop = await cli.run(['site', 'section-group', 'edit', site, outer, '--parent', inner]);
    expect(loop.exitCode).toBe(2);
    expect(loop.stderr).toContain('cannot move inside itself');
    const unknown = await cli.run(['site', 'section', 'edit', site, apiSection, '--group', 'nope', '--title', 'Renamed']);
    expect(unknown.exitCode).not.toBe(0);
    const sections = JSON.parse(await cli.ok(['site', 'section', 'list', site, '--json'])) as Array<Node & { title: string }>;
    expect(sections.find((s) => s.id === apiSection)).toMatchObject({ title: 'API', sectionGroup: outer });

    const back = JSON.parse(await cli.ok(['site', 'section', 'edit', site, apiSection, '--group', 'none', '--json'])) as Node;
    expect(back.sectionGroup).toBeUndefined();
    const top = JSON.parse(await cli.ok(['site', 'section-group', 'edit', site, inner, '--parent', 'none', '--json'])) as Node;
    expect(top.sectionGroup).toBeUndefined();
    listed = await groups();
    expect(listed.find((g) => g.id === outer)?.children ?? []).toEqual([]);
    expect(listed.find((g) => g.id === inner)?.children?.map((c) => c.id)).toEqual([sdkSection.id]);
  });
});
