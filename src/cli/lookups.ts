/**
 * Objects with two names. A custom field is addressed by its name but has an id; an
 * OpenAPI specification by its slug, with an id; a page by its id, or by its path.
 * Commands print the name the other commands take (the handle column, output/columns.ts)
 * and accept either: an argument declared with a `Lookup` (operation.ts) that is not
 * certainly the route's handle is looked up through the API by its other name. A read
 * looks it up only when the handle is not found; a change looks it up first, so a
 * delete by id deletes the object rather than saying "nothing to delete".
 */
import { ApiError } from '../api/errors.js';
import type { RouteId } from '../api/route-id.js';
import type { Transport } from '../transport/types.js';

export interface Lookup {
  /** What the object is (in messages). */
  noun: string;
  /** `value` can only be the handle the route takes: no lookup. */
  isHandle?: (value: string) => boolean;
  /** The handle of the object `value` names by its other name (or the value itself when it is the handle); undefined when none. */
  find: (transport: Transport, params: Readonly<Record<string, string>>, value: string) => Promise<string | undefined>;
}

const missing = (error: unknown) => error instanceof ApiError && (error.status === 404 || error.status === 400);

/** Walks the pages of a list (1,000 items at a time) for the item `match` picks. */
async function findInList(
  transport: Transport,
  route: RouteId,
  params: Record<string, string>,
  match: (item: Record<string, unknown>) => boolean,
): Promise<Record<string, unknown> | undefined> {
  let page: string | undefined;
  do {
    const body = (await transport.request(route, { params, query: { limit: 1000, ...(page ? { page } : {}) } })).body as {
      items?: Array<Record<string, unknown>>;
      next?: { page?: string } | null;
    };
    const found = body.items?.find(match);
    if (found) return found;
    page = body.next?.page;
  } while (page);
  return undefined;
}

/** An object addressed by a string field (`name`, `slug`) that also has an id. */
function byId(noun: string, list: RouteId, handle: string, pattern: RegExp): Lookup {
  return {
    noun,
    isHandle: (value) => pattern.test(value),
    async find(transport, params, value) {
      const item = await findInList(transport, list, { organizationId: params.organizationId as string }, (i) => i.id === value);
      return typeof item?.[handle] === 'string' ? (item[handle] as string) : undefined;
    },
  };
}

/** A custom field: by name (lowercase letters, digits, _ and -) or by id. */
export const customFieldLookup = byId('custom field', 'listOrganizationCustomFields', 'name', /^[a-z_\-0-9]+$/);

/** An OpenAPI specification: by slug or by id. */
export const openApiSpecLookup = byId('OpenAPI specification', 'listOpenAPISpecs', 'slug', /^[a-z0-9]+(?:-[a-z0-9]+)*$/);

/** Where a page is looked for: its space, or the change request in `params.changeRequestId`. */
function pageScope(params: Readonly<Record<string, string>>): { inCr: boolean; scope: Record<string, string> } {
  const inCr = params.changeRequestId !== undefined;
  return { inCr, scope: { spaceId: params.spaceId as string, ...(inCr ? { changeRequestId: params.changeRequestId as string } : {}) } };
}

/**
 * A page of a space (or of the change request in `params.changeRequestId`): by id, or
 * by path (`guides/setup`). A value that is the id of a page stays; one that is the path
 * of a page becomes its id; anything else is undefined.
 */
export const pageLookup: Lookup = {
  noun: 'page',
  async find(transport, params, value) {
    const { inCr, scope } = pageScope(params);
    try {
      await transport.request(inCr ? 'getPageInChangeRequestById' : 'getPageById', { params: { ...scope, pageId: value }, query: {} });
      return value;
    } catch (error) {
      if (!missing(error)) throw error;
    }
    return pageIdByPath(transport, params, value);
  },
};

/** The id of the page at `path` in the space (or change request) of `params`; undefined when none is there. */
export async function pageIdByPath(transport: Transport, params: Readonly<Record<string, string>>, path: string): Promise<string | undefined> {
  const { inCr, scope } = pageScope(params);
  try {
    const { body } = await transport.request(inCr ? 'getPageInChangeRequestByPath' : 'getPageByPath', { params: { ...scope, pagePath: path }, query: {} });
    return (body as { id: string }).id;
  } catch (error) {
    if (!missing(error)) throw error;
    return undefined;
  }
}

/**
 * A page id for `value` (an id or a path) in the scope of `params`; the value as given
 * when no page has it (e.g. the comments of a page a merge deleted are still listed by its id).
 */
export async function resolvePage(transport: Transport, params: Readonly<Record<string, unknown>>, value: string): Promise<string> {
  const scope: Record<string, string> = { spaceId: params.spaceId as string };
  if (typeof params.changeRequestId === 'string') scope.changeRequestId = params.changeRequestId;
  return (await pageLookup.find(transport, scope, value)) ?? value;
}
