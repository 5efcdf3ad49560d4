/**
 * Search over what a site publishes (0.202 `searchSiteContent`), with the search index of
 * each space (src/domain/search): the scope picks site spaces, each live (not a draft,
 * neither is its section) and showing a space that is not deleted; a space shown by
 * several of them is searched once. Results are `SearchSpaceResult`s, the spaces ranked by
 * their best page, as `searchOrganizationContent` answers, paged by the one engine.
 *
 * Scopes (`SiteSearchScope`): `default` reads each section's default variant (the root's
 * default without sections) plus `currentSiteSpace`; with `restrictTo` only the current one
 * (`currentSiteSpace`) or the others (`otherSiteSpaces`); `all` every variant; `specific` the
 * listed ones (each must be a site space of the site). The deprecated `mode` fields map to them.
 *
 * `prewarmSiteSearch` indexes, in its transaction, each space of the site whose index is
 * missing, of an older format or behind its primary revision (what a commit made while the
 * index was off left behind): the first search then reads postings, not every page.
 */
import { badRequest } from '../../api/errors.js';
import type * as routes from '../../api/routes/site-publishing.js';
import type { StoreReader } from '../../store/types.js';
import { type SpaceRecord, getRevision } from '../core-records.js';
import { type Handler, Reply, implementer } from '../handler.js';
import { queryWords, rankedSpaces } from '../search/handlers.js';
import { INDEX_FORMAT, indexCommit, indexState } from '../search/index.js';
import { siteAccess } from './access.js';
import { type SiteRecord, getSection, getSiteSpace, isLive, requireSiteSpace } from './site-records.js';
import { sectionIdsInOrder, siteSpaceIdsOf } from './structure.js';
import { visibleSpace } from './views.js';

const on = implementer<typeof routes>();

interface Scope {
  mode: 'default' | 'specific' | 'all';
  currentSiteSpace?: string | undefined;
  restrictTo?: 'currentSiteSpace' | 'otherSiteSpaces' | undefined;
  siteSpaceIds?: string[] | undefined;
}

/** The scope of a request, from `scope` or the deprecated `mode` fields (default: `default`). */
function scopeOf(body: { scope?: Scope | undefined; mode?: 'specific' | 'current' | 'all' | undefined; siteSpaceId?: string | undefined; siteSpaceIds?: string[] | undefined }): Scope {
  if (body.scope !== undefined) {
    const scope = body.scope;
    if (scope.mode === 'specific' && scope.siteSpaceIds === undefined) throw badRequest('Invalid body field "scope.siteSpaceIds": the specific scope lists the site spaces to search');
    if (scope.restrictTo !== undefined && scope.currentSiteSpace === undefined) throw badRequest('Invalid body field "scope.restrictTo": it needs scope.currentSiteSpace');
    return scope;
  }
  if (body.mode === 'all') return { mode: 'all' };
  if (body.mode === 'current') {
    if (body.siteSpaceId === undefined) throw badRequest('Invalid body: mode "current" needs siteSpaceId');
    return { mode: 'default', currentSiteSpace: body.siteSpaceId };
  }
  if (body.siteSpaceIds !== undefined) return { mode: 'specific', siteSpaceIds: body.siteSpaceIds };
  return { mode: 'default' };
}

/** Every site space of the site in tree order: the root's, then each section's. */
function allSiteSpaceIds(tx: StoreReader, site: SiteRecord): string[] {
  return [site.id, ...sectionIdsInOrder(tx, site.id)].flatMap((owner) => siteSpaceIdsOf(tx, owner));
}

/** The default variant of each section (the root's default without sections). */
function defaultSiteSpaceIds(tx: StoreReader, site: SiteRecord): string[] {
  const sections = sectionIdsInOrder(tx, site.id);
  if (sections.length === 0) {
    const root = siteSpaceIdsOf(tx, site.id);
    return [site.defaultSiteSpace ?? root[0]].filter((id): id is string => id !== undefined);
  }
  return sections.flatMap((id) => {
    const section = getSection(tx, id);
    if (!section || !isLive(tx, section)) return [];
    const variants = siteSpaceIdsOf(tx, id);
    return [section.defaultSiteSpace ?? variants[0]].filter((v): v is string => v !== undefined);
  });
}

/** The spaces a scope searches, once each, in scope order: only live site spaces of visible spaces. */
function spacesIn(tx: StoreReader, site: SiteRecord, scope: Scope): SpaceRecord[] {
  let ids: string[];
  if (scope.mode === 'all') ids = allSiteSpaceIds(tx, site);
  else if (scope.mode === 'specific') ids = (scope.siteSpaceIds ?? []).map((id) => requireSiteSpace(tx, site, id).id);
  else {
    const current = scope.currentSiteSpace === undefined ? undefined : requireSiteSpace(tx, site, scope.currentSiteSpace).id;
    const defaults = defaultSiteSpaceIds(tx, site);
    if (scope.restrictTo === 'currentSiteSpace') ids = [current as string];
    else if (scope.restrictTo === 'otherSiteSpaces') ids = defaults.filter((id) => id !== current);
    else ids = current === undefined || defaults.includes(current) ? defaults : [current, ...defaults];
  }
  const spaces = new Map<string, SpaceRecord>();
  for (const id of ids) {
    const siteSpace = getSiteSpace(tx, id);
    const space = siteSpace && isLive(tx, siteSpace) ? visibleSpace(tx, siteSpace) : undefined;
    if (space && !spaces.has(space.id)) spaces.set(space.id, space);
  }
  return [...spaces.values()];
}

export const siteSearchHandlers: Record<string, Handler> = {
  ...on('searchSiteContent', (ctx, { params, query, body }) => {
    const { site } = siteAccess(ctx, params);
    const words = queryWords(body.query);
    return rankedSpaces(ctx.tx, ctx.origin, spacesIn(ctx.tx, site, scopeOf(body)), words, query);
  }),

  ...on('prewarmSiteSearch', (ctx, { params }) => {
    const { site } = siteAccess(ctx, params);
    for (const space of spacesIn(ctx.tx, site, { mode: 'all' })) {
      const state = indexState(ctx.tx, space.id);
      if (state && state.revision === space.revision && state.format === INDEX_FORMAT) continue;
      const revision = getRevision(ctx.tx, space.id, space.revision);
      if (revision) indexCommit(ctx.tx, space.id, undefined, revision);
    }
    return new Reply(204);
  }),
};
