/**
 * Light bodies (src/api/light-body.ts): local writes check a body without zod when
 * the manifest describes it. Whatever the light check accepts must be exactly what
 * the route's zod schema returns (same values, same key order); what it refuses goes
 * to zod, for zod's error.
 */
import { describe, expect, it } from 'vitest';
import { loadRoute } from '../../src/api/catalog.js';
import { type LightBody, type LightValue, lightParseBody } from '../../src/api/light-body.js';
import { manifest } from '../../src/api/manifest.js';
import { validateInput } from '../../src/api/validate.js';
import { requiredOnly, sampleFor } from '../helpers/light-samples.js';

/** Values that probe each kind of field: valid ones, edges, and wrong shapes. */
const PROBES: unknown[] = [
  '', ' ', 'a', 'x'.repeat(100), 'x'.repeat(101), 'x'.repeat(513), 'A b.c/ü',
  'true', 'false', 'open', 'approved', 'changes-requested', 'member', 'owner', 'admin', 'public', 'private',
  true, false, 0, 1, -1, 2.5, null, [], ['a'],
  {}, { markdown: 'Hello' }, { markdown: '' }, { markdown: 1 }, { markdown: 'Hi', extra: 1 }, { document: { nodes: [] } },
  { record: 'r', definition: 'd' }, { record: '', definition: 'd' }, { record: 'r' },
];

/** Lists and maps with a probe, or an odd key, inside. */
function innerProbes(spec: LightValue): unknown[] {
  if (spec.t === 'array') return [...PROBES.map((probe) => [sampleFor(spec.item), probe]), [undefined], Array.from({ length: 3 })];
  if (spec.t === 'record') {
    return [...PROBES.map((probe) => ({ k1: sampleFor(spec.value), k2: probe })), { k1: undefined }, JSON.parse(`{"__proto__": ${JSON.stringify(sampleFor(spec.value))}}`)];
  }
  return [];
}

const light = manifest.filter((info) => info.lightBody !== undefined);

describe('light bodies', () => {
  it('describe the bodies of the hot writes', () => {
    const ids = new Set(light.map((info) => info.id));
    for (const id of ['postCommentInChangeRequest', 'postCommentInSpace', 'postCommentReplyInChangeRequest', 'createSpace', 'createChangeRequest', 'updateMembersInOrganizationTeam']) {
      expect(ids.has(id as never), id).toBe(true);
    }
    // Only writes, and only with a light query (empty for most) to go with them.
    for (const info of light) {
      expect(info.method, info.id).not.toBe('GET');
      expect(info.lightQuery, info.id).toBeDefined();
    }
  });

  it.each(light.map((info) => [info.id, info] as const))('%s: what the light check accepts, zod returns unchanged', async (_id, info) => {
    const spec = info.lightBody as LightBody;
    const route = await loadRoute(info.id);
    const params = Object.fromEntries([...info.path.matchAll(/\{(\w+)\}/g)].map((m) => [m[1] as string, 'id-1']));
    const base = requiredOnly(spec);
    const full = sampleFor({ t: 'object', fields: spec }) as Record<string, unknown>;
    const bodies: unknown[] = [base, full, { ...base, unknownField: 'x' }, null, [], 'text', { ...full, ...Object.fromEntries(Object.keys(full).map((key) => [key, undefined])) }];
    for (const key of Object.keys(spec)) {
      for (const probe of [...PROBES, ...innerProbes(spec[key] as LightValue)]) bodies.push({ ...base, [key]: probe }, { ...full, [key]: probe });
      const { [key]: _dropped, ...without } = full;
      bodies.push(without);
    }
    let accepted = 0;
    for (const body of bodies) {
      const fast = lightParseBody(spec, body);
      if (fast === undefined) continue;
      accepted += 1;
      const checked = validateInput(route, { params, query: {}, body });
      expect(JSON.stringify(fast), JSON.stringify(body)).toBe(JSON.stringify(checked.body));
    }
    expect(accepted).toBeGreaterThan(1);
  });

  it('leaves unknown keys, wrong types and missing required fields to zod', () => {
    const spec: LightBody = {
      title: { t: 'string', minLength: 1, maxLength: 5, required: true },
      draft: { t: 'boolean' },
      kind: { t: 'enum', values: ['a', 'b'] },
      body: { t: 'object', fields: { markdown: { t: 'string', required: true } } },
    };
    // Output keys come in the schema's order, whatever the input's order.
    expect(JSON.stringify(lightParseBody(spec, { body: { markdown: '' }, kind: 'b', draft: false, title: 'abc' }))).toBe(
      '{"title":"abc","draft":false,"kind":"b","body":{"markdown":""}}',
    );
    for (const wrong of [undefined, null, [], 'abc', {}, { title: '' }, { title: 'abcdef' }, { title: 1 }, { title: 'a', draft: 'true' },
      { title: 'a', kind: 'c' }, { title: 'a', body: { markdown: 1 } }, { title: 'a', body: { markdown: 'x', extra: 1 } }, { title: 'a', body: {} },
      { title: 'a', other: 'x' }, { title: 'a', draft: undefined }, Object.assign(Object.create({ inherited: 1 }), { title: 'a' })]) {
      expect(lightParseBody(spec, wrong), JSON.stringify(wrong)).toBeUndefined();
    }
  });

  it('checks lists and maps item by item, and leaves odd keys in a map to zod', () => {
    const spec: LightBody = {
      add: { t: 'array', item: { t: 'string', minLength: 1 } },
      roles: { t: 'record', value: { t: 'object', fields: { role: { t: 'enum', values: ['owner', 'member'], required: true } } } },
    };
    const body = { add: ['a', 'b'], roles: { u2: { role: 'owner' }, u1: { role: 'member' } } };
    const parsed = lightParseBody(spec, body);
    expect(JSON.stringify(parsed)).toBe(JSON.stringify(body));
    expect(parsed?.add).not.toBe(body.add); // a copy, as zod's
    for (const wrong of [{ add: 'a' }, { add: [''] }, { add: ['a', 1] }, { add: [undefined] }, { roles: [] }, { roles: { u1: {} } }, { roles: { u1: { role: 'admin' } } },
      { roles: { u1: { role: 'owner', extra: 1 } } }, { roles: { u1: undefined } }, { roles: JSON.parse('{"__proto__": {"role": "owner"}}') }]) {
      expect(lightParseBody(spec, wrong), JSON.stringify(wrong)).toBeUndefined();
    }
  });
});
