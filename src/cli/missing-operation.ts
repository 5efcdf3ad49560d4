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
const ACCOUNTS = `GitBook makes users and API tokens in its app, its API has no such operation; ${LOCALLY}`;
const EMULATOR = 'snapshots and reset are docsctl serve\'s, the emulator: point --endpoint at a docsctl serve (or run on a local store)';

/** Each operation today's API lacks, with what to use instead. */
export const NOT_IN_TODAYS_API: Partial<Record<RouteId, string>> = {
  listSpaceLinks: LINKS,
  listChangeRequestLinks: LINKS,
  listPageLinksInSpace: LINKS,
  listPageLinksInChangeRequest: LINKS,
  listSpacePageBacklinks: LINKS,
  listSpaceFileBacklinks: LINKS,
  listChangeRequestFileBacklinks: LINKS,
  getSpaceCustomFields: CUSTOM_FIELDS,
  updateSpaceCustomFields: CUSTOM_FIELDS,
  listOrganizationCustomFields: CUSTOM_FIELDS,
  getOrganizationCustomFieldByName: CUSTOM_FIELDS,
  createOrganizationCustomField: CUSTOM_FIELDS,
  updateOrganizationCustomField: CUSTOM_FIELDS,
  deleteOrganizationCustomField: CUSTOM_FIELDS,
  createUser: ACCOUNTS,
  createUserInOrganization: ACCOUNTS,
  createTokenForAuthenticatedUser: ACCOUNTS,
  createTokenForUser: ACCOUNTS,
  listTokensForAuthenticatedUser: ACCOUNTS,
  listTokensForUser: ACCOUNTS,
  revokeToken: ACCOUNTS,
  saveEmulatorSnapshot: EMULATOR,
  listEmulatorSnapshots: EMULATOR,
  restoreEmulatorSnapshot: EMULATOR,
  deleteEmulatorSnapshot: EMULATOR,
  resetEmulator: EMULATOR,
};

/**
 * A read every server with docsctl's account routes answers for any valid token: a 404
 * of one of them, where no read above the path tells, means the object is missing when
 * this answers, and the operation when it does not.
 */
const DOCSCTL_ACCOUNTS_READ = '/v1/x-docsctl/user/tokens?limit=1';

/** This server's API has no such operation (exit 1, as an operation a server does not implement). */
export class MissingOperationError extends DocsctlError {}

/** The GET routes above `path`, nearest first (`/v1/orgs/{o}/custom-fields`, then `/v1/orgs/{o}`), with their concrete paths. */
function readsAbove(concretePath: string): Array<{ path: string; todays: boolean }> {
  const segments = concretePath.split('/');
  const found: Array<{ path: string; todays: boolean }> = [];
  for (let end = segments.length - 1; end > 2; end -= 1) {
    const candidate = segments.slice(0, end).join('/');
    const match = matchRouteInfo('GET', candidate);
    if (match) found.push({ path: candidate, todays: NOT_IN_TODAYS_API[match.item.id] === undefined });
  }
  return found;
}

/**
 * Whether a 404 means the server lacks the operation: the reads above it are tried
 * nearest first. One of the same area that answers (the custom-field list, for a
 * custom field's 404) says the server has the operations: the object is missing.
 * The nearest read of today's API answering (the space, for its links) says the
 * operation is missing; failing, that the object is.
 */
async function operationMissing(inner: Transport, concretePath: string): Promise<boolean> {
  const answers = (path: string) =>
    inner.raw('GET', path).then(
      () => true,
      () => false,
    );
  for (const read of readsAbove(concretePath)) {
    if (!read.todays) {
      if (await answers(read.path)) return false;
      continue;
    }
    return answers(read.path);
  }
  if (concretePath.startsWith('/v1/x-docsctl/')) return !(await answers(DOCSCTL_ACCOUNTS_READ));
  return false;
}

/** Wraps a remote transport: a request for an operation today's API lacks that the server does not answer becomes a MissingOperationError. */
export function explainMissingOperations(inner: Transport): Transport {
  return {
    mode: inner.mode,
    raw: (method, pathAndQuery, body, options) => inner.raw(method, pathAndQuery, body, options),
    close: () => inner.close(),
    async request(routeId: RouteId, input: RawInput, options?: RequestOptions): Promise<ApiResponse> {
      try {
        return await inner.request(routeId, input, options);
      } catch (error) {
        const instead = NOT_IN_TODAYS_API[routeId];
        if (instead === undefined || !(error instanceof ApiError) || ![404, 405, 501].includes(error.status)) throw error;
        const info = routeInfo(routeId);
        const path = requestPath(info, input).split('?')[0] as string;
        if (error.status === 404 && !(await operationMissing(inner, path))) throw error;
        throw new MissingOperationError(`This server's API has no ${routeId} operation (${info.method} ${info.path})`, { hint: instead });
      }
    },
  };
}
