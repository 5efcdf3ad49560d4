/**
 * The organization file's zod-free check (src/orgcode/file-check.ts) against the zod schema it
 * is derived from: whenever the check accepts a file, zod accepts it too and returns the same
 * data (fields, defaults, key order); a file the check refuses goes to zod, which names the
 * mistake. Checked over a file of every kind and thousands of mutations of it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkOrgFile } from '../../src/orgcode/file-check.js';
import { ORG_FILE_SHAPE } from '../../src/orgcode/file-shape.js';
import { OrgFileSchema } from '../../src/orgcode/schema.js';
// @ts-expect-error: a plain .mjs build script without types
import { describeOrgFile, renderOrgFileShape } from '../../scripts/gen-orgfile-shape.mjs';

/** A file with every kind and most fields, written as a user would (team members both ways, no default role). */
const RICH = {
  organization: { title: 'Acme Docs', emailDomains: ['acme.io'], hostname: 'acme', defaultRole: 'guest', inviteLinks: false },
  members: [{ email: 'ada@acme.io', role: 'admin' }, { email: 'bob.smith+docs@acme.io' }],
  customFields: [{ name: 'tier', type: 'select:single', title: 'Tier', description: 'd', placeholder: 'p', options: ['gold', 'silver'] }],
  collections: [
    {
      title: 'Engineering',
      description: 'All of it',
      defaultLevel: 'inherit',
      permissions: [{ team: 'Writers', role: 'edit' }, { user: 'ada@acme.io', role: 'admin' }],
      collections: [{ title: 'Handbook', id: 'c0ll', collections: [{ title: 'Deep', defaultLevel: null }] }],
    },
  ],
  spaces: [
    {
      title: 'Onboarding',
      emoji: '1f680',
      visibility: 'in-collection',
      defaultLevel: 'read',
      editMode: 'locked',
      language: 'en',
      parent: 'Engineering/Handbook',
      customFields: { tier: 'gold', n: 3, flag: true, tags: ['a', 'b'], none: null },
      git: { url: 'https://github.com/acme/docs.git', ref: 'main', dir: 'docs' },
      permissions: [{ user: 'bob.smith+docs@acme.io', role: 'review' }],
    },
    { title: 'Scratchpad', parent: null, id: 'sp4c3' },
  ],
  teams: [{ title: 'Writers', id: 't3am', members: ['ada@acme.io', { email: 'bob.smith+docs@acme.io' }, { email: 'c@acme.io', role: 'owner' }] }, { title: 'Empty' }],
  sites: [
    {
      title: 'Portal',
      type: 'premium',
      visibility: 'share-link',
      sections: [{ title: 'Guides', space: 'Engineering/Handbook/Onboarding', path: 'guides', draft: false, id: 's3c' }],
      sectionGroups: [{ title: 'Products', icon: 'box', draft: true, sections: [{ title: 'API', space: 'Scratchpad' }], sectionGroups: [{ title: 'Legacy', sectionGroups: [] }] }],
      spaces: [{ space: 'Scratchpad', path: 'scratch' }],
      shareLinks: [{ name: 'partners' }],
      redirects: [
        { source: '/old/*', destination: { space: 'Scratchpad' }, captureWildcard: true, permanent: false, draft: false },
        { source: '/start', destination: { section: 'Guides' } },
      ],
      customization: { styling: { primaryColor: { light: '#112233' }, font: { fontFamily: 'Brand' } }, themes: null },
      permissions: [{ team: 'Writers', role: 'read' }],
    },
  ],
  fonts: [{ fontFamily: 'Brand', id: 'f0nt', fontFaces: [{ weight: 400, storageKey: 'https://cdn.acme.io/b.woff2' }, { weight: 700, storageKey: 'k' }] }],
  samlProviders: [{ label: 'Okta', ssoURL: 'https://acme.okta.com/sso', entityID: 'e', certificate: 'PEM', defaultTeam: 'Writers', defaultRole: 'guest' }],
  translations: [{ source: { space: 'Scratchpad', language: 'en' }, language: 'pt-br', instructions: { object: 'document', nodes: [] } }],
  openAPISpecs: [
    { slug: 'petstore', source: { file: 'specs/petstore.yaml' }, visibility: 'public' },
    { slug: 'pets-v2', source: { url: 'https://example.com/openapi.json' } },
  ],
};

const REPLACEMENTS: unknown[] = [
  null, '', 'x', 'X'.repeat(51), 'y'.repeat(129), 'z'.repeat(1001), 'ada@acme', 'a b@acme.io', 'Bad_Name', 'good-slug', 'a--b',
  0, 1, 400, 1000, 1001, 1.5, -1, Number.NaN, true, false, [], ['x'], [1], {}, { zz: 1 }, { title: 'T' }, { email: 'e@x.io' },
  'guest', 'admin', 'owner', 'member', 'inherit', 'premium', 'public', 'en', 'select:single', '__proto__',
];

type Path = Array<string | number>;

/** Every path in a value, the value's own first. */
function paths(value: unknown, at: Path = []): Path[] {
  const out: Path[] = [at];
  if (Array.isArray(value)) value.forEach((item, i) => out.push(...paths(item, [...at, i])));
  else if (value && typeof value === 'object') for (const [key, item] of Object.entries(value)) out.push(...paths(item, [...at, key]));
  return out;
}

function mutated(root: unknown, at: Path, change: (parent: Record<string | number, unknown>, key: string | number) => void): unknown {
  const copy = structuredClone(root) as Record<string | number, unknown>;
  if (at.length === 0) return copy;
  let parent = copy;
  for (const part of at.slice(0, -1)) parent = parent[part] as Record<string | number, unknown>;
  change(parent, at[at.length - 1] as string | number);
  return copy;
}

/** The file and its mutations: each value replaced, each key removed, an unknown key added, each list emptied or grown. */
function* variants(root: unknown): Generator<unknown> {
  yield root;
  for (const at of paths(root)) {
    for (const replacement of REPLACEMENTS) {
      yield at.length === 0 ? replacement : mutated(root, at, (parent, key) => (parent[key] = structuredClone(replacement)));
    }
    yield mutated(root, at, (parent, key) => {
      if (Array.isArray(parent)) parent.splice(key as number, 1);
      else delete parent[key];
    });
    yield mutated(root, at, (parent, key) => {
      const value = at.length === 0 ? parent : parent[key];
      if (Array.isArray(value)) value.push(structuredClone(value[0]));
      else if (value && typeof value === 'object') (value as Record<string, unknown>).zz = 'unknown';
    });
    yield mutated(root, at, (parent, key) => {
      if (Array.isArray(parent[key])) parent[key] = [];
    });
  }
}

describe('checkOrgFile', () => {
  it('is derived from the current schema (run "npm run build" to regenerate src/orgcode/file-shape.ts)', async () => {
    const committed = readFileSync(new URL('../../src/orgcode/file-shape.ts', import.meta.url), 'utf8');
    expect(committed).toBe(await (renderOrgFileShape as () => Promise<string>)());
    expect((describeOrgFile as (schema: unknown) => unknown)(OrgFileSchema)).toEqual(ORG_FILE_SHAPE);
  });

  it('accepts a file of every kind with exactly what zod returns (team member roles defaulted, keys in the schema order)', () => {
    const parsed = OrgFileSchema.safeParse(RICH);
    expect(parsed.success, JSON.stringify(parsed.error?.issues[0])).toBe(true);
    const checked = checkOrgFile(RICH);
    expect(JSON.stringify(checked)).toBe(JSON.stringify(parsed.data));
    expect(checked).toEqual(parsed.data);
    expect((checked as NonNullable<typeof parsed.data>).teams?.[0]?.members).toEqual(['ada@acme.io', { email: 'bob.smith+docs@acme.io', role: 'member' }, { email: 'c@acme.io', role: 'owner' }]);
    expect(checkOrgFile({})).toEqual({});
  });

  it('never accepts what zod refuses, and returns what zod returns for whatever it accepts (thousands of mutations)', () => {
    let accepted = 0;
    let refused = 0;
    let deferred = 0;
    for (const value of variants(RICH)) {
      const checked = checkOrgFile(value);
      const parsed = OrgFileSchema.safeParse(value);
      if (checked === undefined) {
        if (parsed.success) deferred += 1;
        else refused += 1;
        continue;
      }
      accepted += 1;
      if (!parsed.success) throw new Error(`the check accepted what zod refuses: ${JSON.stringify(parsed.error.issues[0])} in ${JSON.stringify(value).slice(0, 300)}`);
      expect(JSON.stringify(checked)).toBe(JSON.stringify(parsed.data));
    }
    // The battery exercises both sides, and the check defers to zod only for what zod would refuse.
    expect(accepted).toBeGreaterThan(1000);
    expect(refused).toBeGreaterThan(1000);
    expect(deferred).toBe(0);
  });
});
