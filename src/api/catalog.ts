/**
 * The light view of the route table used on the CLI's hot path: every route's
 * id, method, path and module (from the generated `manifest.ts`) without its
 * zod schemas. The remote client needs only this; the local mode loads the one
 * route module it calls (`loadRoute`). The full table (`table.ts`) is for `serve`,
 * `docsctl api --list` and tests.
 */
import { type Match, PathMatcher } from './match.js';
import { type RouteInfo, type RouteModuleName, manifest } from './manifest.js';
import type { AnyRoute, HttpMethod } from './route.js';
import type { RouteId } from './route-id.js';

export type { RouteId, RouteInfo, RouteModuleName };

const byId: ReadonlyMap<string, RouteInfo> = new Map(manifest.map((info) => [info.id, info]));

/** Each route module, loaded on demand (a separate chunk in the bundle). */
const moduleLoaders: Record<RouteModuleName, () => Promise<Record<string, unknown>>> = {
  orgs: () => import('./routes/orgs.js'),
  'org-conversations': () => import('./routes/org-conversations.js'),
  'invite-links': () => import('./routes/invite-links.js'),
  fonts: () => import('./routes/fonts.js'),
  system: () => import('./routes/system.js'),
  collections: () => import('./routes/collections.js'),
  spaces: () => import('./routes/spaces.js'),
  sites: () => import('./routes/sites.js'),
  'site-context': () => import('./routes/site-context.js'),
  'site-insights': () => import('./routes/site-insights.js'),
  'site-structure': () => import('./routes/site-structure.js'),
  'site-publishing': () => import('./routes/site-publishing.js'),
  styleguides: () => import('./routes/styleguides.js'),
  'change-requests': () => import('./routes/change-requests.js'),
  content: () => import('./routes/content.js'),
  documents: () => import('./routes/documents.js'),
  conversations: () => import('./routes/conversations.js'),
  comments: () => import('./routes/comments.js'),
  'custom-fields': () => import('./routes/custom-fields.js'),
  integrations: () => import('./routes/integrations.js'),
  sso: () => import('./routes/sso.js'),
  openapi: () => import('./routes/openapi.js'),
  translations: () => import('./routes/translations.js'),
  members: () => import('./routes/members.js'),
  teams: () => import('./routes/teams.js'),
  permissions: () => import('./routes/permissions.js'),
  git: () => import('./routes/git.js'),
  imports: () => import('./routes/imports.js'),
  reviews: () => import('./routes/reviews.js'),
  search: () => import('./routes/search.js'),
  users: () => import('./routes/users.js'),
  audit: () => import('./routes/audit.js'),
  emulator: () => import('./routes/emulator.js'),
  storage: () => import('./routes/storage.js'),
  declared: async () => (await import('./routes/declared.js')).declaredRouteModule,
};

export function routeInfo(id: RouteId): RouteInfo {
  const info = byId.get(id);
  if (!info) throw new Error(`unknown route id ${id}`);
  return info;
}

/** The route id of a string known only at run time (a route object's id, user input), or undefined. */
export function asRouteId(id: string): RouteId | undefined {
  return byId.get(id)?.id;
}

/** The full route (with schemas) of `id`, loading only its module. */
export async function loadRoute(id: RouteId): Promise<AnyRoute> {
  const info = routeInfo(id);
  const mod = await moduleLoaders[info.module]();
  const route = Object.values(mod).find(
    (value): value is AnyRoute => typeof value === 'object' && value !== null && (value as { id?: unknown }).id === id,
  );
  if (!route) throw new Error(`route ${id} is not exported by module ${info.module}`);
  return route;
}

let matcher: PathMatcher<RouteInfo> | undefined;

export function matchRouteInfo(method: string, pathname: string): Match<RouteInfo> | undefined {
  matcher ??= new PathMatcher(manifest);
  return matcher.match(method, pathname);
}

export function methodsForPathInfo(pathname: string): HttpMethod[] {
  matcher ??= new PathMatcher(manifest);
  return matcher.methodsFor(pathname);
}

/** The ad partner's operations: the only ones that carry the `X-GitBook-Partner-Key` header. */
export function takesPartnerKey(id: RouteId): boolean {
  return id === 'adsListSites' || id === 'adsUpdateSite';
}
