/**
 * Names wherever an id is expected: a space by its title or collection path
 * (`Engineering/Handbook`), a collection by its title path, a site by its title or
 * hostname, a site section or variant (site space) or section group by its title or
 * path, a team by its title, a member by e-mail. operation.ts sends an argument that
 * looks like an id as it is (an id wins, and costs no lookup) and loads this module only
 * for one that does not, or when an id-looking one was not found.
 *
 * Resolution goes through the public list operations, with their filters where the API
 * has one (`listSites?title=`, `listTeamsInOrganizationById?title=`, members' `search`),
 * so both modes send the same requests: one list request per name in the common case
 * (two for a space given by collection path: its collections are listed too). A name that
 * fits several objects is a usage error (exit 2) listing them with ids and paths; one
 * that fits none is not found (exit 4) with the closest names.
 */
import { DocsctlError, ExitCode } from '../api/errors.js';
import type { RouteId } from '../api/route-id.js';
import type { Transport } from '../transport/types.js';

export type NameKind = 'space' | 'collection' | 'site' | 'section' | 'variant' | 'sectionGroup' | 'team' | 'member';

/** One object a name could mean: what an error lists. */
export interface Candidate {
  id: string;
  title: string;
  /** The name the object is addressed by besides its title (a collection path, a section path, an e-mail). */
  path?: string | undefined;
  /** A space's collection, until its path is known. */
  parent?: string | undefined;
}

const NOUNS: Record<NameKind, string> = {
  space: 'space',
  collection: 'collection',
  site: 'site',
  section: 'site section',
  variant: 'site variant',
  sectionGroup: 'section group',
  team: 'team',
  member: 'member',
};

/** How a name is spelled for each kind (in messages). */
const SPELLED: Record<NameKind, string> = {
  space: 'id, title or collection path (Collection/Space)',
  collection: 'id, title or title path (Parent/Child)',
  site: 'id, title or hostname',
  section: 'id, title or path',
  variant: 'id, title or path',
  sectionGroup: 'id or title',
  team: 'id or title',
  member: 'user id or e-mail',
};

/** A name that means several objects (exit 2) or none (exit 4); `candidates` are the ones it could mean, or the closest. */
export class NameError extends DocsctlError {
  constructor(
    readonly problem: 'ambiguous' | 'unknown',
    readonly kind: NameKind,
    readonly value: string,
    readonly candidates: readonly Candidate[],
  ) {
    const noun = NOUNS[kind];
    super(
      problem === 'ambiguous'
        ? `"${value}" names ${candidates.length} ${noun}s: give an id or a path instead`
        : `${noun.charAt(0).toUpperCase()}${noun.slice(1)} "${value}" not found: no ${noun} has this ${SPELLED[kind]}`,
    );
  }

  override get exitCode(): ExitCode {
    return this.problem === 'ambiguous' ? ExitCode.usage : ExitCode.notFound;
  }

  /** The lines printed under the error: the candidates (or "did you mean" and the closest names). */
  detailLines(): string[] {
    if (this.candidates.length === 0) return [];
    const rows = this.candidates.map((c) => `  ${c.id}  ${c.path ?? c.title}${c.path && c.path !== c.title && !c.path.endsWith(c.title) ? ` (${c.title})` : ''}`);
    return this.problem === 'ambiguous' ? rows : ['did you mean:', ...rows];
  }

  /** The error as data (`--json`). */
  toJSON(): Record<string, unknown> {
    return {
      error: {
        code: this.problem === 'ambiguous' ? 'ambiguous_name' : 'unknown_name',
        message: this.message,
        kind: this.kind,
        name: this.value,
        candidates: this.candidates.map((c) => ({ id: c.id, title: c.title, ...(c.path === undefined ? {} : { path: c.path }) })),
      },
    };
  }
}

/** Where a name is looked for: the organization (found on demand) and the path parameters resolved so far. */
export interface NameScope {
  transport: Transport;
  /** The organization's id (from the path, --org, the settings, or the user's only one): asked only by kinds that need it. */
  organization: () => Promise<string>;
  params: Readonly<Record<string, string>>;
}

type Item = Record<string, unknown>;

/** At most this many pages of 1,000 are read for one name: an organization larger than that is named by id. */
const MAX_PAGES = 10;

async function listItems(transport: Transport, route: RouteId, params: Record<string, string>, query: Record<string, unknown> = {}): Promise<Item[]> {
  const items: Item[] = [];
  let page: string | undefined;
  for (let pages = 0; pages < MAX_PAGES; pages++) {
    const { body } = await transport.request(route, { params, query: { ...query, limit: 1000, ...(page ? { page } : {}) } });
    const list = body as { items?: Item[]; next?: { page?: string } | null };
    items.push(...(list.items ?? []));
    page = list.next?.page;
    if (!page) return items;
  }
  return items;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const fold = (text: string) => text.normalize('NFC').toLowerCase();

/** Title paths (`Engineering/Platform`) of every collection, by id. */
function collectionPaths(collections: readonly Item[]): Map<string, string> {
  const byId = new Map(collections.map((c) => [c.id as string, c]));
  const paths = new Map<string, string>();
  const pathOf = (id: string, seen: Set<string>): string => {
    const known = paths.get(id);
    if (known !== undefined) return known;
    const collection = byId.get(id);
    if (!collection || seen.has(id)) return '';
    seen.add(id);
    const parent = str(collection.parent);
    const above = parent ? pathOf(parent, seen) : '';
    const path = above ? `${above}/${String(collection.title)}` : String(collection.title);
    paths.set(id, path);
    return path;
  };
  for (const id of byId.keys()) pathOf(id, new Set());
  return paths;
}

/** The objects of one kind a name is matched against, and what a name is matched by. */
interface Pool {
  candidates: Candidate[];
  /** The list was filtered by the name (a "contains" search): the closest names need the whole list. */
  filtered?: () => Promise<Candidate[]>;
  /** The item also answers to these names (a hostname, an e-mail). */
  aliases?: (candidate: Candidate) => readonly string[];
}

const looksLikeHostname = (value: string) => /^(?:https?:\/\/)?[a-z0-9-]+(?:\.[a-z0-9-]+)+\/?$/i.test(value);
const hostOf = (url: string | undefined) => {
  if (!url) return undefined;
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
};

async function spacePool(scope: NameScope, withPaths: boolean): Promise<Pool> {
  const organizationId = await scope.organization();
  const [spaces, collections] = await Promise.all([
    listItems(scope.transport, 'listSpacesInOrganizationById', { organizationId }),
    withPaths ? listItems(scope.transport, 'listCollectionsInOrganizationById', { organizationId }) : Promise.resolve(undefined),
  ]);
  const paths = collections ? collectionPaths(collections) : undefined;
  return {
    candidates: spaces.map((s) => {
      const parent = str(s.parent);
      const above = parent && paths ? paths.get(parent) : undefined;
      return { id: s.id as string, title: String(s.title), path: above ? `${above}/${String(s.title)}` : paths ? String(s.title) : undefined, parent };
    }),
  };
}

async function collectionPool(scope: NameScope): Promise<Pool> {
  const collections = await listItems(scope.transport, 'listCollectionsInOrganizationById', { organizationId: await scope.organization() });
  const paths = collectionPaths(collections);
  return { candidates: collections.map((c) => ({ id: c.id as string, title: String(c.title), path: paths.get(c.id as string) })) };
}

function siteCandidates(items: readonly Item[]): Candidate[] {
  return items.map((s) => ({ id: s.id as string, title: String(s.title), path: str(s.hostname) ?? hostOf(str((s.urls as Item | undefined)?.published)) }));
}

async function sitePool(scope: NameScope, value: string): Promise<Pool> {
  const organizationId = await scope.organization();
  const all = async () => siteCandidates(await listItems(scope.transport, 'listSites', { organizationId }));
  if (looksLikeHostname(value)) {
    const sites = await listItems(scope.transport, 'listSites', { organizationId });
    return {
      candidates: siteCandidates(sites),
      aliases: (c) => {
        const site = sites.find((s) => s.id === c.id);
        return [str(site?.hostname), hostOf(str((site?.urls as Item | undefined)?.published))].filter((h): h is string => h !== undefined);
      },
    };
  }
  return { candidates: siteCandidates(await listItems(scope.transport, 'listSites', { organizationId }, { title: value })), filtered: all };
}

async function sitePartPool(scope: NameScope, route: RouteId): Promise<Pool> {
  const siteId = scope.params.siteId;
  if (siteId === undefined) return { candidates: [] };
  const items = await listItems(scope.transport, route, { organizationId: await scope.organization(), siteId });
  return { candidates: items.map((i) => ({ id: i.id as string, title: String(i.title ?? ''), path: str(i.path) })) };
}

async function teamPool(scope: NameScope, value: string): Promise<Pool> {
  const organizationId = await scope.organization();
  const list = async (query: Record<string, unknown>) =>
    (await listItems(scope.transport, 'listTeamsInOrganizationById', { organizationId }, query)).map((t) => ({ id: t.id as string, title: String(t.title) }));
  return { candidates: await list({ title: value }), filtered: () => list({}) };
}

async function memberPool(scope: NameScope, value: string): Promise<Pool> {
  const organizationId = await scope.organization();
  const list = async (query: Record<string, unknown>) =>
    (await listItems(scope.transport, 'listMembersInOrganizationById', { organizationId }, query)).map((m) => {
      const user = (m.user ?? {}) as Item;
      return { id: m.id as string, title: String(user.displayName ?? m.id), path: str(user.email) };
    });
  return { candidates: await list({ search: value }), filtered: () => list({}) };
}

function poolFor(kind: NameKind, scope: NameScope, value: string): Promise<Pool> {
  switch (kind) {
    case 'space':
      return spacePool(scope, value.includes('/'));
    case 'collection':
      return collectionPool(scope);
    case 'site':
      return sitePool(scope, value);
    case 'section':
      return sitePartPool(scope, 'listSiteSections');
    case 'variant':
      return sitePartPool(scope, 'listSiteSpaces');
    case 'sectionGroup':
      return sitePartPool(scope, 'listSiteSectionGroups');
    case 'team':
      return teamPool(scope, value);
    case 'member':
      return memberPool(scope, value);
  }
}

/** The candidates `value` names: exactly (case kept) first, else ignoring case; by title, path or an alias. */
function matches(pool: Pool, value: string): Candidate[] {
  const names = (c: Candidate) => [c.title, ...(c.path ? [c.path] : []), ...(pool.aliases?.(c) ?? [])];
  const wanted = value.replace(/^https?:\/\//i, '').replace(/\/$/, '');
  const exact = pool.candidates.filter((c) => c.id === value || names(c).includes(wanted));
  if (exact.length > 0) return exact;
  return pool.candidates.filter((c) => names(c).some((n) => fold(n) === fold(wanted)));
}

/** Levenshtein distance, bounded by the lengths' sum (names are short). */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length] as number;
}

/** Up to five candidates whose title or path is closest to `value` (containing it, or a few edits away). */
export function closest(candidates: readonly Candidate[], value: string): Candidate[] {
  const wanted = fold(value);
  const scored = candidates
    .map((c) => {
      const names = [c.title, ...(c.path ? [c.path] : [])].map(fold);
      const score = Math.min(...names.map((n) => (n.includes(wanted) || wanted.includes(n) ? Math.abs(n.length - wanted.length) / 100 : distance(n, wanted))));
      return { c, score };
    })
    .filter(({ score }) => score < 1 || score <= Math.max(2, Math.floor(wanted.length / 3)))
    .sort((a, b) => a.score - b.score || a.c.title.localeCompare(b.c.title));
  return scored.slice(0, 5).map(({ c }) => c);
}

/**
 * The id of the object of `kind` that `value` names in `scope`. Throws NameError when it
 * names several (exit 2) or none (exit 4, with the closest names).
 */
export async function resolveName(kind: NameKind, value: string, scope: NameScope): Promise<string> {
  const pool = await poolFor(kind, scope, value);
  const found = matches(pool, value);
  if (found.length === 1) return (found[0] as Candidate).id;
  if (found.length > 1) throw new NameError('ambiguous', kind, value, await withSpacePaths(scope, found));
  const everything = pool.filtered ? await pool.filtered() : pool.candidates;
  throw new NameError('unknown', kind, value, await withSpacePaths(scope, closest(everything, value)));
}

/** Spaces listed in an error show their collection path (one more request, on the error path only). */
async function withSpacePaths(scope: NameScope, candidates: Candidate[]): Promise<Candidate[]> {
  if (!candidates.some((c) => c.parent !== undefined && c.path === undefined)) return candidates;
  const paths = collectionPaths(await listItems(scope.transport, 'listCollectionsInOrganizationById', { organizationId: await scope.organization() }));
  return candidates.map((c) => {
    const above = c.parent === undefined ? undefined : paths.get(c.parent);
    return above === undefined ? c : { ...c, path: `${above}/${c.title}` };
  });
}

/** Names resolved in this process, per transport: the retry of a command after a 404 asks nothing twice. */
const resolved = new WeakMap<Transport, Map<string, string>>();

/**
 * Replaces each named parameter (`params[key]`, an object of `kind`) by the id it names,
 * in dependency order (a site before its sections).
 */
export async function resolveParams(
  transport: Transport,
  organization: () => Promise<string>,
  params: Record<string, string>,
  named: ReadonlyArray<readonly [string, NameKind]>,
): Promise<void> {
  let cache = resolved.get(transport);
  if (!cache) resolved.set(transport, (cache = new Map()));
  for (const [key, kind] of [...named].sort((a, b) => ORDER.indexOf(a[1]) - ORDER.indexOf(b[1]))) {
    const value = params[key];
    if (value === undefined) continue;
    const cacheKey = `${kind}\u0000${params.organizationId ?? ''}\u0000${params.siteId ?? ''}\u0000${value}`;
    let id = cache.get(cacheKey);
    if (id === undefined) {
      id = kind === 'member' ? await memberOrAsGiven(value, { transport, organization, params }) : await resolveName(kind, value, { transport, organization, params });
      cache.set(cacheKey, id);
    }
    params[key] = id;
  }
}

/**
 * A member's id for an e-mail, else the e-mail as given: a docsctl server knows users outside
 * any organization by e-mail (`token create --user`), and answers its own 404 otherwise.
 */
async function memberOrAsGiven(value: string, scope: NameScope): Promise<string> {
  try {
    return await resolveName('member', value, scope);
  } catch (error) {
    if (error instanceof DocsctlError) return value;
    throw error;
  }
}

const ORDER: readonly NameKind[] = ['space', 'collection', 'site', 'sectionGroup', 'section', 'variant', 'team', 'member'];

/** What a shell completion offers: the list a kind is read from (one request) and the words each item gives. */
const COMPLETIONS: Record<'space' | 'collection' | 'site' | 'team' | 'member', { route: RouteId; filter?: string; words: (item: Item) => Array<string | undefined> }> = {
  space: { route: 'listSpacesInOrganizationById', words: (i) => [str(i.title), str(i.id)] },
  collection: { route: 'listCollectionsInOrganizationById', words: (i) => [str(i.title), str(i.id)] },
  site: { route: 'listSites', filter: 'title', words: (i) => [str(i.title), str(i.hostname), str(i.id)] },
  team: { route: 'listTeamsInOrganizationById', filter: 'title', words: (i) => [str(i.title), str(i.id)] },
  member: { route: 'listMembersInOrganizationById', filter: 'search', words: (i) => [str((i.user as Item | undefined)?.email), str(i.id)] },
};

/**
 * Titles (or e-mails, hostnames) and ids of `kind` starting with `prefix` (ignoring case),
 * from ONE list request of at most 1,000 items (filtered by the prefix where the API can).
 */
export async function nameCompletions(kind: NameKind, prefix: string, scope: NameScope): Promise<string[]> {
  if (!(kind in COMPLETIONS)) return [];
  const { route, filter, words } = COMPLETIONS[kind as keyof typeof COMPLETIONS];
  const query: Record<string, unknown> = { limit: 1000, ...(filter && prefix ? { [filter]: prefix } : {}) };
  const { body } = await scope.transport.request(route, { params: { organizationId: await scope.organization() }, query });
  const wanted = fold(prefix);
  const found = new Set<string>();
  for (const item of (body as { items?: Item[] }).items ?? []) {
    for (const word of words(item)) if (word && fold(word).startsWith(wanted)) found.add(word);
  }
  return [...found].sort();
}
