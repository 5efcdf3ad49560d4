/**
 * Reading the organization file: JSON by JSON.parse, YAML without aliases by js-yaml (the fast
 * path), anything else (aliases, errors) by yaml with its bounds and line numbers. Every path
 * gives the value yaml would, and a mistake is still one error naming the line.
 */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseOrgFile } from '../../src/orgcode/parse.js';

const ORG = `
organization: {title: Acme Docs}
members:
  - {email: alice@example.com, role: admin}
collections:
  - title: Engineering
    collections: [{title: "2024-01-01"}, {title: on}]
spaces:
  - {title: yes, emoji: "1f680", parent: Engineering, customFields: {tier: 1, flag: true, none: null, date: 2024-01-01}}
sites:
  - title: Portal
    redirects: [{source: /old/*, destination: {space: Engineering/yes}}]
    sectionGroups: [{title: R&D, sections: [{title: Start, space: Engineering/yes}]}]
`;

describe('parseOrgFile', () => {
  it('reads YAML to the value yaml gives (YAML 1.2 core schema: dates, yes and on stay strings)', async () => {
    const { file } = await parseOrgFile(ORG, 'org.yaml');
    expect(file).toEqual(parse(ORG));
    expect(file.spaces?.[0]).toMatchObject({ title: 'yes', customFields: { tier: 1, flag: true, none: null, date: '2024-01-01' } });
    expect(file.collections?.[0]?.collections?.map((c) => c.title)).toEqual(['2024-01-01', 'on']);
  });

  it('reads a file with aliases through yaml, to the same value', async () => {
    const text = 'members:\n  - &ada {email: ada@example.com, role: admin}\nteams:\n  - {title: A, members: [ada@example.com]}\n  - {title: B, members: [ada@example.com]}\n';
    expect((await parseOrgFile(text, 'org.yaml')).file).toEqual(parse(text));
    const aliased = 'x: &list [ada@example.com]\nteams:\n  - {title: A, members: *list}\n';
    await expect(parseOrgFile(aliased, 'org.yaml')).rejects.toThrow(/^org\.yaml:1: x: unknown field/);
  });

  it('names the line of a duplicate key, a YAML error and a wrong field, whichever parser read the file', async () => {
    await expect(parseOrgFile('spaces:\n  - title: A\n    title: B\n', 'dup.yaml')).rejects.toThrow(/^dup\.yaml:3: invalid YAML: Map keys must be unique/);
    await expect(parseOrgFile('spaces:\n  - {title: A\n', 'broken.yaml')).rejects.toThrow(/^broken\.yaml:\d+: invalid YAML/);
    await expect(parseOrgFile('spaces:\n  - {title: A}\n  - {title: B, emoj: x}\n', 'typo.yaml')).rejects.toThrow(/^typo\.yaml:3: spaces\[1\]\.emoj: unknown field; did you mean emoji\?/);
  });

  it('names an object listed twice with both places; objects pinned by id may share a name', async () => {
    await expect(parseOrgFile('members:\n  - email: a@x.io\n  - email: A@x.io\n', 'twice.yaml')).rejects.toThrow(/^twice\.yaml:3: members\[1\]\.email: member "a@x\.io" is listed twice \(also at members\[0\]\.email\)$/);
    await expect(parseOrgFile('spaces:\n  - title: A\n  - title: B\n  - title: A\n', 'twice.yaml')).rejects.toThrow(/^twice\.yaml:4: spaces\[2\]\.title: space "A" is listed twice \(also at spaces\[0\]\.title\)$/);
    await expect(parseOrgFile('teams:\n  - title: T\n  - title: T\n', 'twice.yaml')).rejects.toThrow(/teams\[1\]\.title: team "T" is listed twice \(also at teams\[0\]\.title\)/);
    const { file } = await parseOrgFile('spaces:\n  - {title: A, id: s1}\n  - {title: A, id: s2}\n  - {title: A, parent: C}\n  - {title: A}\nteams:\n  - {title: T, id: t1}\n  - {title: T}\n', 'ok.yaml');
    expect(file.spaces).toHaveLength(4);
    await expect(parseOrgFile('spaces:\n  - {title: A, permissions: [{user: a@x.io, role: read}, {user: A@x.io, role: edit}]}\n', 'g.yaml')).rejects.toThrow(/spaces\[0\]\.permissions\[1\]\.user: permission holder of space "A" "a@x\.io" is listed twice/);
  });
});
