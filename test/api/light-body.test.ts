/**
 * Light bodies (src/api/light-body.ts): local writes check a body without zod when
 * the manifest describes it. Whatever the light check accepts must be exactly what
 * the route's zod schema returns (same values, same key order); what it refuses goes
 * to zod, for zod's error.
 */
import { describe, expect, it } from 'vitest';
import { loadRoute } from '../../src/api/catalog.js';
import { type LightBody, type LightField, lightParseBody } from '../../src/api/light-body.js';
import { manifest } from '../../src/api/manifest.js';
import { validateInput } from '../../src/api/validate.js';

/** Values that probe each kind of field: valid ones, edges, and wrong shapes. */
const PROBES: unknown[] = [
  '', ' ', 'a', 'x'.repeat(100), 'x'.repeat(101), 'x'.repeat(513), 'A b.c/ü',
  'true', 'false', 'open', 'approved', 'changes-requested', 'member', 'owner', 'admin', 'public', 'private',
  true, false, 0, 1, -1, 2.5, null, [], ['a'],
  {}, { markdown: 'Hello' }, { markdown: '' }, { markdown: 1 }, { markdown: 'Hi', extra: 1 }, { document: { nodes: [] } },
  { record: 'r', definition: 'd' }, { record: '', definition: 'd' }, { record: 'r' },
];

function sampleFor(spec: LightField): unknown {
  switch (spec.t) {
    case 'string':
      return 'x'.repeat(Math.max(spec.minLength ?? 0, 1));
    case 'boolean':
      return true;
    case 'enum':
      return spec.values[0];
    case 'object':
      return Object.fromEntries(Object.entries(spec.fields).map(([key, field]) => [key, sampleFor(field)]));
  }
}

function requiredOnly(spec: LightBody): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(spec)) if (field.required) out[key] = sampleFor(field);
  return out;
}

const light = manifest.filter((info) => info.lightBody !== undefined);

describe('light bodies', () => {
  it('describe the bodies of the hot writes', () => {
    const ids = new Set(light.map((info) => info.id));
    for (const id of ['postCommentInChangeRequest', 'postCommentInSpace', 'postCommentReplyInChangeRequest', 'createSpace', 'createChangeRequest']) {
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
      for (const probe of PROBES) bodies.push({ ...base, [key]: probe }, { ...full, [key]: probe });
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
});
