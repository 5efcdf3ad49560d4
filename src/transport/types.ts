/**
 * One interface for talking to the API, whatever is behind it. The CLI never
 * knows which one it has: LocalTransport runs the domain in process against the
 * store; HttpTransport sends the request to a `/v1` endpoint (GitBook's, or
 * `docsctl serve`). Both answer with the same ApiResponse and throw the same errors.
 */
import type { RouteId } from '../api/route-id.js';
import type { RawInput } from '../api/validate.js';
import type { ProgressListener } from '../domain/handler.js';

export interface ApiResponse {
  status: number;
  /** Parsed JSON body; undefined for 204/205. */
  body: unknown;
}

export interface RequestOptions {
  /** Progress of a long operation; only the local transport has any to report (a server does not stream it). */
  progress?: ProgressListener | undefined;
}

/** What `docsctl api` may add to a request besides its method, path and body. */
export interface RawOptions {
  /** The ad partner's key, sent as `X-GitBook-Partner-Key` (only on the partner's operations). */
  partnerKey?: string | undefined;
}

export interface Transport {
  /** `local` or `remote` (for messages and `--debug`). */
  readonly mode: 'local' | 'remote';
  /** Calls the operation `routeId` of the route table. Throws ApiError for an error answer. */
  request(routeId: RouteId, input: RawInput, options?: RequestOptions): Promise<ApiResponse>;
  /**
   * Sends any method and path (`/v1/...`, with or without a query string): `docsctl api`.
   * Locally the path must match a route; remotely it is sent as is.
   */
  raw(method: string, pathAndQuery: string, body?: unknown, options?: RawOptions): Promise<ApiResponse>;
  /** Local mode: a number that changes with every commit of the store (`site preview` reloads on it). */
  generation?(): number;
  /** Local mode: the bytes behind a content file's `downloadURL`, which no server answers locally. */
  download?(url: string): Uint8Array | undefined;
  close(): Promise<void>;
}
