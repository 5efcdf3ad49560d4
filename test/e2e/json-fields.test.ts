/**
 * `--json FIELDS` accepts any field of the answer's type, taken from the route's
 * response schema (the real API's OpenAPI document, src/api/response-fields.ts),
 * not from the object at hand: a field this object lacks prints null. A field the
 * type does not have is a usage error (exit 2) listing the valid ones. Through the
 * built binary, locally and against `docsctl serve`.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type BinaryMode, describeInBothModes } from '../helpers/binary.js';
import { cleanupTempDirs } from '../helpers/stores.js';

afterAll(cleanupTempDirs);

describeInBothModes('--json FIELDS', (context) => {
  let space: string;
  let cli: BinaryMode;
  beforeAll(async () => {
    ({ cli } = context);
    space = await cli.ok(['space', 'create', '--title', 'Handbook', '--format', 'ids']);
  });

  it('a field of the type that this object lacks prints null (space get --json id,parent at the root)', async () => {
    const result = await cli.run(['space', 'get', space, '--json', 'id,parent,deletedAt,title']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ id: space, parent: null, deletedAt: null, title: 'Handbook' });
    // The fields keep the order asked.
    const ordered = await cli.run(['space', 'get', space, '--json', 'title,parent,id']);
    expect(ordered.stdout).toBe(JSON.stringify({ title: 'Handbook', parent: null, id: space }, null, 2));
  });

  it('lists: every item has every field asked', async () => {
    const result = await cli.run(['space', 'list', '--json', 'id,parent']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([{ id: space, parent: null }]);
    // An empty list of a known type still checks the names.
    const empty = await cli.run(['collection', 'list', '--json', 'id,nope']);
    expect(empty.exitCode).toBe(2);
    expect(empty.stderr).toMatch(/^error: Unknown JSON field "nope" \(available: .*\bdefaultLevel\b.*\)$/);
  });

  it('a field the type does not have is exit 2, listing the fields of the type', async () => {
    const result = await cli.run(['space', 'get', space, '--json', 'id,nope']);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: Unknown JSON field "nope" \(available: [^)]*\)$/);
    const available = /available: ([^)]*)\)/.exec(result.stderr)?.[1]?.split(', ');
    // From the schema (absent from this space) as well as from the object.
    expect(available).toEqual(expect.arrayContaining(['id', 'title', 'parent', 'deletedAt', 'gitSync', 'visitorAuth', 'language']));
  });

  it('after a write, an unknown field is a warning and a field of the type prints null', async () => {
    const created = await cli.run(['collection', 'create', '--title', 'Guides', '--json', 'id,parent,nope']);
    expect(created.exitCode, created.stderr).toBe(0);
    expect(created.stderr).toMatch(/^warning: Unknown JSON field "nope" \(available: .*\)$/);
    expect(JSON.parse(created.stdout)).toEqual({ id: expect.any(String), parent: null });
  });

  it('docsctl api: the fields of the operation matched by method and path', async () => {
    const result = await cli.run(['api', 'GET', `/v1/spaces/${space}`, '--json', 'id,gitSync']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ id: space, gitSync: null });
  });
});
