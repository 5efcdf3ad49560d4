/**
 * The route table: every operation docsctl knows, gathered from `routes/*.ts`.
 *
 * Adding a route: declare it with `defineRoute` in the module of its area, and
 * it is picked up here (every exported RouteDef of the modules listed below).
 */
import type { AnyRoute, HttpMethod } from './route.js';
import * as changeRequests from './routes/change-requests.js';
import * as collections from './routes/collections.js';
import * as comments from './routes/comments.js';
import * as content from './routes/content.js';
import * as customFields from './routes/custom-fields.js';
import * as git from './routes/git.js';
import * as integrations from './routes/integrations.js';
import * as members from './routes/members.js';
import * as openapi from './routes/openapi.js';
import * as orgs from './routes/orgs.js';
import * as orgsExtra from './routes/orgs-extra.js';
import * as sites from './routes/sites.js';
import * as spaces from './routes/spaces.js';
import * as sso from './routes/sso.js';
import * as teams from './routes/teams.js';
import * as translations from './routes/translations.js';

const modules = [
  orgs, orgsExtra, collections, spaces, sites, changeRequests, content, comments, customFields,
  integrations, sso, openapi, translations, members, teams, git,
];

function isRoute(value: unknown): value is AnyRoute {
  return typeof value === 'object' && value !== null && 'id' in value && 'method' in value && 'path' in value;
}

export const routes: readonly AnyRoute[] = modules.flatMap((mod) => Object.values(mod).filter(isRoute));

export const routesById: ReadonlyMap<string, AnyRoute> = new Map(routes.map((route) => [route.id, route]));

export function getRoute(id: string): AnyRoute {
  const route = routesById.get(id);
  if (!route) throw new Error(`unknown route id ${id}`);
  return route;
}

interface CompiledRoute {
  route: AnyRoute;
  pattern: RegExp;
  names: string[];
  /** Literal segments count: more specific templates win (`/content/files` before `/content/{x}`). */
  literals: number;
}

let compiled: Map<HttpMethod, CompiledRoute[]> | undefined;

function compile(): Map<HttpMethod, CompiledRoute[]> {
  const byMethod = new Map<HttpMethod, CompiledRoute[]>();
  for (const route of routes) {
    const names: string[] = [];
    const source = route.path
      .split('/')
      .map((segment) => {
        const param = /^\{([A-Za-z0-9_]+)\}$/.exec(segment);
        if (!param) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        names.push(param[1] as string);
        // `pagePath` may span several segments (a page path such as `guides/setup`).
        return param[1] === 'pagePath' ? '(.+?)' : '([^/]+)';
      })
      .join('/');
    const literals = route.path.split('/').filter((s) => s && !s.startsWith('{')).length;
    const list = byMethod.get(route.method) ?? [];
    list.push({ route, pattern: new RegExp(`^${source}/?$`), names, literals });
    byMethod.set(route.method, list);
  }
  for (const list of byMethod.values()) list.sort((a, b) => b.literals - a.literals);
  return byMethod;
}

export interface RouteMatch {
  route: AnyRoute;
  params: Record<string, string>;
}

/** The route for a method and a path (without query string), or undefined. */
export function matchRoute(method: string, pathname: string): RouteMatch | undefined {
  compiled ??= compile();
  const candidates = compiled.get(method.toUpperCase() as HttpMethod);
  if (!candidates) return undefined;
  for (const candidate of candidates) {
    const match = candidate.pattern.exec(pathname);
    if (!match) continue;
    const params: Record<string, string> = {};
    let malformed = false;
    candidate.names.forEach((name, index) => {
      try {
        params[name] = decodeURIComponent(match[index + 1] as string);
      } catch {
        malformed = true;
      }
    });
    if (!malformed) return { route: candidate.route, params };
  }
  return undefined;
}

/** The methods any route accepts for a path (for 405 answers). */
export function methodsForPath(pathname: string): HttpMethod[] {
  compiled ??= compile();
  const methods: HttpMethod[] = [];
  for (const [method, list] of compiled) {
    if (list.some((candidate) => candidate.pattern.test(pathname))) methods.push(method);
  }
  return methods;
}
