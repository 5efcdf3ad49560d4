/**
 * A transport that lets the session see each request that would change
 * something before it is sent: `--dry-run` prints it and stops there; otherwise
 * the session only notes that a change was made (so an output typo after a write
 * is a warning, not a failure that would invite a retry).
 */
import { matchRouteInfo, routeInfo } from '../api/catalog.js';
import { DocsctlError, ExitCode } from '../api/errors.js';
import type { RouteId } from '../api/route-id.js';
import type { RawInput } from '../api/validate.js';
import { requestPath } from './request-path.js';
import type { ApiResponse, RawOptions, RequestOptions, Transport } from './types.js';

/** A request as it would go over the wire. */
export interface PlannedRequest {
  method: string;
  path: string;
  body?: unknown;
}

/** `--dry-run` reached the first change: the request was printed, nothing was sent. */
export class DryRunStop extends DocsctlError {
  constructor() {
    super('dry run: nothing was changed');
  }
  override get exitCode(): ExitCode {
    return ExitCode.ok;
  }
}

const isRead = (method: string) => method === 'GET' || method === 'HEAD';

/** Wraps `inner`: reads pass through; `beforeWrite` runs before each other request (it may throw to stop it). */
export function observeWrites(inner: Transport, beforeWrite: (request: PlannedRequest) => Promise<void>): Transport {
  return {
    mode: inner.mode,
    async request(routeId: RouteId, input: RawInput, options?: RequestOptions): Promise<ApiResponse> {
      const info = routeInfo(routeId);
      // A safe route (a preview) changes nothing: --dry-run lets it through.
      if (!isRead(info.method) && info.safe !== true) {
        await beforeWrite({ method: info.method, path: requestPath(info, input), ...(input.body !== undefined ? { body: input.body } : {}) });
      }
      return inner.request(routeId, input, options);
    },
    async raw(method: string, pathAndQuery: string, body?: unknown, options?: RawOptions): Promise<ApiResponse> {
      const verb = method.toUpperCase();
      const safe = () => matchRouteInfo(verb, pathAndQuery.split('?')[0] as string)?.item.safe === true;
      if (!isRead(verb) && !safe()) await beforeWrite({ method: verb, path: pathAndQuery, ...(body !== undefined ? { body } : {}) });
      return inner.raw(method, pathAndQuery, body, options);
    },
    ...(inner.generation ? { generation: inner.generation.bind(inner) } : {}),
    ...(inner.download ? { download: inner.download.bind(inner) } : {}),
    close: () => inner.close(),
  };
}
