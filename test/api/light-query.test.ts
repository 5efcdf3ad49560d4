/**
 * Light queries (src/api/light-query.ts): the CLI checks a GET's query without zod
 * when the manifest describes it. Whatever the light check accepts must be exactly
 * what the route's zod schema returns; what it refuses goes to zod (for zod's error).
 */
import { describe, expect, it } from 'vitest';
import { loadRoute } from '../../src/api/catalog.js';
import { lightInput } from '../../src/api/light-input.js';
import { type LightParam, type LightQuery, lightParse } from '../../src/api/light-query.js';
import { manifest } from '../../src/api/manifest.js';
import { validateInput } from '../../src/api/validate.js';
import { requiredOnly as requiredBody } from '../helpers/light-samples.js';

/** Values that probe each kind of parameter: valid ones, edges, and wrong shapes. */
const PROBES: unknown[] = [
  '', ' ', 'a', 'abc', 'a,b', ',a,,b,', 'A b.c/ü', 'x'.repeat(513), 'x'.repeat(512),
  '0', '1', '-1', '1.5', '1e3', ' 5', '5 ', '0x10', '1000', '1001', 'NaN', 'Infinity', '9007199254740993',
  'true', 'false', 'TRUE', 'yes',
  'asc', 'desc', 'open', 'resolved', 'all', 'markdown', 'document', 'basic', 'premium', 'basic,premium', 'basic,nope',
  ['a', 'b'], ['basic', 'premium'], ['1'], [], 1, 0, -1, 2.5, true, false, null, { a: 1 },
];

function sampleFor(spec: LightParam): unknown {
  switch (spec.t) {
    case 'string':
      return 'x'.repeat(Math.max(spec.minLength ?? 0, 1));
    case 'enum':
      return spec.values[0];
    case 'bool':
      return 'true';
    case 'number':
      return String(spec.min ?? 1);
    case 'list':
      return spec.item.t === 'enum' ? spec.item.values.join(',') : 'a,b';
  }
}

/** A query with every required parameter set to a valid value. */
function requiredOnly(spec: LightQuery): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, param] of Object.entries(spec)) if (param.required) out[key] = sampleFor(param);
  return out;
}

const light = manifest.filter((info) => info.lightQuery !== undefined);

describe('light queries', () => {
  it('describe the queries of the hot list and search reads', () => {
    const ids = new Set(light.map((info) => info.id));
    for (const id of ['listCommentsInChangeRequest', 'listCommentsInSpace', 'searchSpaceContent', 'searchOrganizationContent', 'listPages', 'listSpacesInOrganizationById']) {
      expect(ids.has(id as never), id).toBe(true);
    }
  });

  it.each(light.map((info) => [info.id, info] as const))('%s: what the light check accepts, zod returns unchanged', async (_id, info) => {
    const spec = info.lightQuery as LightQuery;
    const route = await loadRoute(info.id);
    const params = Object.fromEntries([...info.path.matchAll(/\{(\w+)\}/g)].map((m) => [m[1] as string, 'id-1']));
    const base = requiredOnly(spec);
    const queries: Array<Record<string, unknown>> = [base, { ...base, unknownParameter: 'x' }];
    for (const key of Object.keys(spec)) for (const probe of PROBES) queries.push({ ...base, [key]: probe });
    // Every parameter at once, with valid values.
    queries.push(Object.fromEntries(Object.entries(spec).map(([key, param]) => [key, sampleFor(param)])));
    let accepted = 0;
    for (const query of queries) {
      const fast = lightParse(spec, query);
      if (fast === undefined) continue;
      accepted += 1;
      // A write's light query goes with a valid light body (test/api/light-body.test.ts probes bodies).
      const checked = validateInput(route, { params, query, ...(info.lightBody ? { body: requiredBody(info.lightBody) } : {}) });
      expect(fast, JSON.stringify(query)).toEqual(checked.query);
    }
    expect(accepted).toBeGreaterThan(1);
  });

  it('leaves wrong values and missing required parameters to zod', () => {
    const spec: LightQuery = {
      query: { t: 'string', minLength: 1, maxLength: 5, required: true },
      limit: { t: 'number', int: true, min: 0, max: 10 },
      status: { t: 'enum', values: ['open', 'all'] },
      flag: { t: 'bool' },
      types: { t: 'list', item: { t: 'enum', values: ['a', 'b'] } },
    };
    expect(lightParse(spec, { query: 'abc', limit: '3', status: 'open', flag: '0', types: ['a', 'b,a'], other: 'x' })).toEqual({
      query: 'abc',
      limit: 3,
      status: 'open',
      flag: false,
      types: ['a', 'b', 'a'],
    });
    for (const wrong of [{}, { query: '' }, { query: 'abcdef' }, { query: 'a', limit: '11' }, { query: 'a', limit: '1.5' }, { query: 'a', limit: 'x' },
      { query: 'a', status: 'closed' }, { query: 'a', flag: 'yes' }, { query: 'a', types: 'a,c' }, { query: ['a', 'b'] }]) {
      expect(lightParse(spec, wrong), JSON.stringify(wrong)).toBeUndefined();
    }
  });
});

describe('writes without a body schema (a merge, a restore)', () => {
  const noBody = manifest.filter((info) => info.noBody);

  it('are checked without zod, and only those: the route has no body schema', async () => {
    expect(noBody.map((info) => info.id)).toContain('mergeChangeRequest');
    for (const info of noBody) {
      expect(info.method, info.id).not.toBe('GET');
      expect(info.lightBody, info.id).toBeUndefined();
      expect((await loadRoute(info.id)).body, info.id).toBeUndefined();
    }
  });

  it('give the input zod gives: the query checked, any body ignored', async () => {
    const info = manifest.find((row) => row.id === 'mergeChangeRequest')!;
    const route = await loadRoute(info.id);
    const params = { spaceId: 'sp1', changeRequestId: '3' };
    for (const body of [undefined, {}, { unexpected: 1 }]) {
      const light = lightInput(info, { params, body });
      expect(light).toEqual({ query: {}, body: undefined });
      const checked = validateInput(route, { params, query: {}, body });
      expect(light?.body).toEqual(checked.body);
      expect(light?.query).toEqual(checked.query);
    }
    // An empty param is zod's to refuse, with its message.
    expect(lightInput(info, { params: { spaceId: '', changeRequestId: '3' } })).toBeUndefined();
  });
});
