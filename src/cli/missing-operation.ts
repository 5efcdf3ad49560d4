/**
 * Operations docsctl implements (from the API doc, or its own extensions) that
 * GitBook's API of today (@gitbook/api 0.202) does not have. Against a server
 * without one, its answer is a 404 (or 405/501) that would read as "the space
 * does not exist": the command says instead, in one line, that this server's API
 * has no such operation and what to use instead. The commands keep working
 * locally and through `docsctl serve`, which have every one of them.
 *
 * A 404 is told apart from a missing object by reading the nearest parent that
 * today's API has (the space of `/spaces/{id}/links`): when that answers, the
 * object exists and the operation is what is missing.
 */
import { matchRouteInfo, routeInfo } from '../api/catalog.js';
import { ApiError, DocsctlError } from '../api/errors.js';
import type { RouteId } from '../api/route-id.js';
import type { RawInput } from '../api/validate.js';
import { requestPath } from '../transport/request-path.js';
import type { ApiResponse, RequestOptions, Transport } from '../transport/types.js';

const LOCALLY = 'the command works locally (--store DIR) and against docsctl serve';
const CUSTOM_FIELDS = `GitBook's API of today has no custom fields; ${LOCALLY}`;
const LINKS = `GitBook's API of today lists no links, its page meta-links are only prev/next/parent; ${LOCALLY}`;

/** Each operation today's API lacks, with what to use instead. */
export const NOT_IN_TODAYS_API: Partial<Record<RouteId, string>> = {
  listSpaceLinks: LINKS,
  listChangeRequestLinks: LINKS,
  listPageLinksInSpace: LINKS,
  listPageLinksInChangeRequest: LINKS,
  listSpacePageBacklinks: LINKS,
  listChangeRequestPageBacklinks: LINKS,
  listSpaceFileBacklinks: LINKS,
  listChangeRequestFileBacklinks: LINKS,
  getSpaceCustomFields: CUSTOM_FIELDS,
  updateSpaceCustomFields: CUSTOM_FIELDS,
  listOrganizationCustomFields: CUSTOM_FIELDS,
  getOrganizationCustomFieldByName: CUSTOM_FIELDS,
  createOrganizationCustomField: CUSTOM_FIELDS,
  updateOrganizationCustomField: CUSTOM_FIELDS,
  deleteOrganizationCustomField: CUSTOM_FIELDS,
};

/** This server's API has no such operation (exit 1, as an operation a server does not implement). */
export class MissingOperationError extends DocsctlError {}

/** The closest GET of today's API above `path` (`/v1/spaces/{spaceId}` for `/v1/spaces/{spaceId}/links`), with its concrete path. */
function parentRead(concretePath: string): string | undefined {
  const segments = concretePath.split('/');
  for (let end = segments.length - 1; end > 2; end -= 1) {
    const candidate = segments.slice(0, end).join('/');
    const match = matchRouteInfo('GET', candidate);
    if (match && NOT_IN_TODAYS_API[match.item.id] === undefined) return candidate;
  }
  return undefined;
}

/** Wraps a remote transport: a request for an operation today's API lacks that the server does not answer becomes a MissingOperationError. */
export function explainMissingOperations(inner: Transport): Transport {
  return {
    mode: inner.mode,
    raw: (method, pathAndQuery, body) => inner.raw(method, pathAndQuery, body),
    close: () => inner.close(),
    async request(routeId: RouteId, input: RawInput, options?: RequestOptions): Promise<ApiResponse> {
      try {
        return await inner.request(routeId, input, options);
      } catch (error) {
        const instead = NOT_IN_TODAYS_API[routeId];
        if (instead === undefined || !(error instanceof ApiError) || ![404, 405, 501].includes(error.status)) throw error;
        const info = routeInfo(routeId);
        const path = requestPath(info, input).split('?')[0] as string;
        const parent = parentRead(path);
        if (error.status === 404 && parent !== undefined) {
          // The parent missing too: the object does not exist, and the 404 says so.
          const exists = await inner.raw('GET', parent).then(
            () => true,
            () => false,
          );
          if (!exists) throw error;
        }
        throw new MissingOperationError(`This server's API has no ${routeId} operation (${info.method} ${info.path})`, { hint: instead });
      }
    },
  };
}
