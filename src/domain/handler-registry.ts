/**
 * The handler registry: route id → domain handler, loaded per area on demand
 * (a command loads only the domain module of the operation it runs). A route
 * with no handler answers 501 "<id> is not implemented yet" in every mode.
 *
 * Adding an area: map the route module(s) it implements to a loader below.
 */
import { type RouteModuleName, asRouteId, routeInfo } from '../api/catalog.js';
import type { Handler, HandlerFn } from './handler.js';

type Handlers = Readonly<Record<string, Handler>>;

/**
 * A handler written in the content area for a route of another area's module
 * (`listSpaceLinks`): the area lists it, and
 * the content code loads only when it is called.
 */
function borrowed(id: string): HandlerFn {
  return async (ctx, input) => {
    const handler = (await import('./content/handlers.js')).borrowedHandlers[id];
    if (typeof handler !== 'function') throw new Error(`no content handler ${id}`);
    return handler(ctx, input);
  };
}

const orgs = async (): Promise<Handlers> => (await import('./orgs.js')).orgHandlers;
const orgConversations = async (): Promise<Handlers> => (await import('./org-conversations.js')).orgConversationHandlers;
const collections = async (): Promise<Handlers> => (await import('./collections.js')).collectionHandlers;
const spaces = async (): Promise<Handlers> => ({
  ...(await import('./spaces.js')).spaceHandlers,
  listSpaceLinks: borrowed('listSpaceLinks'),
  // The custom-field values of a space live with the organization's field definitions.
  ...(await import('./custom-fields.js')).spaceCustomFieldHandlers,
});
const content = async (): Promise<Handlers> => (await import('./content/handlers.js')).contentHandlers;
const documents = async (): Promise<Handlers> => ({
  ...(await import('./content/documents.js')).documentHandlers,
  ...(await import('./content/computed.js')).computedHandlers,
});
const conversations = async (): Promise<Handlers> => (await import('./content/conversations.js')).conversationHandlers;
const git = async (): Promise<Handlers> => (await import('./git/handlers.js')).gitHandlers;
const imports = async (): Promise<Handlers> => (await import('./imports.js')).importHandlers;
const comments = async (): Promise<Handlers> => (await import('./comments/handlers.js')).commentHandlers;
const reviews = async (): Promise<Handlers> => (await import('./review/handlers.js')).reviewHandlers;
const search = async (): Promise<Handlers> => (await import('./search/handlers.js')).searchHandlers;
const users = async (): Promise<Handlers> => ({ ...(await import('./users.js')).userHandlers, ...(await import('./accounts.js')).accountHandlers });
const members = async (): Promise<Handlers> => (await import('./members.js')).memberHandlers;
const teams = async (): Promise<Handlers> => (await import('./teams.js')).teamHandlers;
const permissions = async (): Promise<Handlers> => (await import('./object-permissions.js')).objectPermissionHandlers;
const customFields = async (): Promise<Handlers> => (await import('./custom-fields.js')).customFieldHandlers;
const integrations = async (): Promise<Handlers> => ({
  ...(await import('./integrations.js')).integrationHandlers,
  ...(await import('./integration-installations.js')).installationHandlers,
  ...(await import('./integration-render.js')).renderHandlers,
});
const sso = async (): Promise<Handlers> => (await import('./sso.js')).ssoHandlers;
const openapi = async (): Promise<Handlers> => (await import('./openapi-specs.js')).openApiSpecHandlers;
const translations = async (): Promise<Handlers> => ({ ...(await import('./translations.js')).translationHandlers, ...(await import('./glossary.js')).glossaryHandlers });
const inviteLinks = async (): Promise<Handlers> => (await import('./invite-links.js')).inviteLinkHandlers;
const fonts = async (): Promise<Handlers> => (await import('./fonts.js')).fontHandlers;
const sites = async (): Promise<Handlers> => (await import('./sites/handlers.js')).sitesAreaHandlers;
const siteContext = async (): Promise<Handlers> => (await import('./sites/context.js')).contextHandlers;
const siteInsights = async (): Promise<Handlers> => (await import('./sites/insights.js')).insightsHandlers;
const styleguides = async (): Promise<Handlers> => (await import('./styleguides.js')).styleguideHandlers;
const system = async (): Promise<Handlers> => (await import('./system.js')).systemHandlers;
const audit = async (): Promise<Handlers> => (await import('./audit.js')).auditHandlers;
const storage = async (): Promise<Handlers> => (await import('./storage.js')).storageHandlers;
const emulator = async (): Promise<Handlers> => (await import('./emulator.js')).emulatorHandlers;

/** Which domain module implements the routes of each route module. */
export const areaLoaders: Partial<Record<RouteModuleName, () => Promise<Handlers>>> = {
  orgs,
  'org-conversations': orgConversations,
  'invite-links': inviteLinks,
  fonts,
  system,
  emulator,
  collections,
  spaces,
  'change-requests': content,
  content,
  documents,
  conversations,
  git,
  imports,
  comments,
  reviews,
  search,
  users,
  members,
  teams,
  permissions,
  sites,
  'site-structure': sites,
  'site-publishing': sites,
  'site-context': siteContext,
  'site-insights': siteInsights,
  styleguides,
  'custom-fields': customFields,
  integrations,
  sso,
  openapi,
  translations,
  audit,
  storage,
};

/** Each area's handlers once loaded: `serve` looks a handler up on every request, and an area's map is built by spreading several modules' maps. */
const loadedAreas = new Map<string, Promise<Handlers>>();

/** Each area's handlers once its load finished: found without awaiting anything (a served GET awaits little else). */
const readyAreas = new Map<string, Handlers>();

/**
 * The handler of `routeId` when its area is already loaded (undefined: none), or a
 * promise of it while the area loads: `serve` finds a loaded handler without a microtask.
 */
export function findHandler(routeId: string): Handler | undefined | Promise<Handler | undefined> {
  const id = asRouteId(routeId);
  if (id === undefined) return undefined;
  const area = routeInfo(id).module;
  const ready = readyAreas.get(area);
  if (ready !== undefined) return Object.hasOwn(ready, routeId) ? ready[routeId] : undefined;
  return loadHandler(area, routeId);
}

async function loadHandler(area: RouteModuleName, routeId: string): Promise<Handler | undefined> {
  const load = areaLoaders[area];
  if (!load) return undefined;
  let loading = loadedAreas.get(area);
  if (!loading) {
    loading = load();
    loadedAreas.set(area, loading);
    // A failed load (a missing chunk) is not kept: the next request tries again.
    loading.catch(() => loadedAreas.delete(area));
  }
  const handlers = await loading;
  readyAreas.set(area, handlers);
  return Object.hasOwn(handlers, routeId) ? handlers[routeId] : undefined;
}

export async function isImplemented(routeId: string): Promise<boolean> {
  return (await findHandler(routeId)) !== undefined;
}
