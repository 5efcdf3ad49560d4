/**
 * The shape of one API operation in the route table.
 *
 * The route table (`src/api/routes/*.ts`, gathered in `src/api/table.ts`) is the single
 * source of truth: the local router, `serve`, the remote client, `docsctl api`, the
 * generated commands and the coverage tests all read it. A route says *what* the
 * operation is (id, method, path, schemas, success status); the domain handler that
 * implements it lives in `src/domain/` under the same id.
 */
import type { z } from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * How the operation answers on success:
 * - 200 / 201 / 202 / 204 / 205: that status (204 and 205 have no body);
 * - 'delete': 205 when something was deleted, 204 when it did not exist (real API);
 * - 'upsert': 201 when created, 200 when updated (PUT create-or-update).
 */
export type SuccessKind = 200 | 201 | 202 | 204 | 205 | 'delete' | 'upsert';

/**
 * Where the operation comes from: a section of the API doc, the real API only, or
 * `docsctl`: an extension of docsctl's own (not in the real OpenAPI document; its path
 * has an `x-docsctl` segment, and a client must expect a real server to answer 404).
 */
export type RouteSource = `doc ${string}` | 'real-api' | 'docsctl';

/** The roles of an organization's members, highest first. */
export type MemberRoleName = 'admin' | 'create' | 'edit' | 'review' | 'comment' | 'read';

/**
 * Who may call a route, checked once for every call before its input is validated
 * (src/domain/access.ts) and handed to the handler resolved (`ctx.access`):
 * - `none`: anyone with a token (the caller's own user and organizations, a secret link);
 * - `guest`: any member of the organization of the object the path names, guests included;
 * - a role: that role or higher there (admin > create > edit > review > comment > read);
 * - `{ role, or }`: also below the role, the team's owner (`{teamId}`) or the user named by
 *   `{userId}` themselves.
 */
export type RouteAccess = 'none' | 'guest' | MemberRoleName | { readonly role: 'guest' | MemberRoleName; readonly or: 'teamOwner' | 'self' };

export interface RouteDef<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType | undefined = z.ZodType | undefined,
> {
  /** The OpenAPI operationId, e.g. `getSpaceById`. */
  readonly id: string;
  readonly method: HttpMethod;
  /** Path template with `{param}` segments, starting with `/v1`. */
  readonly path: string;
  readonly summary: string;
  readonly source: RouteSource;
  /** Who may call it; absent only for the real API's operations declared but not implemented (they answer 501 first). */
  readonly access?: RouteAccess;
  readonly params: P;
  readonly query: Q;
  /** Body schema; undefined when the operation takes no body. */
  readonly body: B;
  /** True when the request must carry a body (otherwise `{}` is assumed). */
  readonly bodyRequired: boolean;
  readonly success: SuccessKind;
  /** The response is a list envelope `{ items, next?, count? }` that `--all`/`--paginate` can follow. */
  readonly paginated: boolean;
  /**
   * Changes nothing although it is not a GET (a preview that takes a body): it runs on a
   * snapshot like a read, and the global `--dry-run` sends it instead of stopping at it.
   */
  readonly safe: boolean;
}

/** An operation of the real API declared from its OpenAPI document (routes/declared-ops.ts, generated). */
export interface DeclaredOperation {
  readonly id: string;
  readonly method: HttpMethod;
  readonly path: string;
  readonly summary: string;
  readonly success: SuccessKind;
  readonly paginated: boolean;
  /** Names of the query parameters. */
  readonly query: readonly string[];
  /** The JSON body: its declared and required fields, and whether the request must carry one. */
  readonly body: { required: boolean; fields: readonly string[]; requiredFields: readonly string[] } | null;
}

export type AnyRoute = RouteDef<z.ZodType, z.ZodType, z.ZodType | undefined>;

/** The validated input a handler receives. */
export interface RouteInput<R extends AnyRoute> {
  params: z.output<R['params']>;
  query: z.output<R['query']>;
  body: R['body'] extends z.ZodType ? z.output<R['body']> : undefined;
}

/** What a route module writes: every field of `RouteDef`, the defaults left out. */
export interface RouteDeclaration<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType | undefined> {
  id: string;
  method: HttpMethod;
  path: string;
  summary: string;
  source: RouteSource;
  access: RouteAccess;
  params: P;
  query: Q;
  body?: B;
  bodyRequired?: boolean;
  success?: SuccessKind;
  paginated?: boolean;
  safe?: boolean;
}

/** Declares a route; a function only so TypeScript infers the schema types. */
export function defineRoute<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType | undefined = undefined>(
  route: RouteDeclaration<P, Q, B>,
): RouteDef<P, Q, B> {
  return build(route);
}

/** A real-API operation declared from the OpenAPI document and not implemented (routes/declared.ts): no access, it answers 501. */
export function declareUnimplemented<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType | undefined = undefined>(
  route: Omit<RouteDeclaration<P, Q, B>, 'access'>,
): RouteDef<P, Q, B> {
  return build(route);
}

function build<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType | undefined>(
  route: Omit<RouteDeclaration<P, Q, B>, 'access'> & { access?: RouteAccess },
): RouteDef<P, Q, B> {
  const success = route.success ?? (route.method === 'DELETE' ? 'delete' : 200);
  return {
    id: route.id,
    method: route.method,
    path: route.path,
    summary: route.summary,
    source: route.source,
    ...(route.access === undefined ? {} : { access: route.access }),
    params: route.params,
    query: route.query,
    body: route.body as B,
    bodyRequired: route.bodyRequired ?? false,
    success,
    paginated: route.paginated ?? false,
    safe: route.safe ?? false,
  };
}

/** Names of the `{param}` segments of a path template, in order. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1] as string);
}

/** Fills a path template; each value is URI-encoded as one segment. */
export function fillPath(path: string, params: Record<string, string>): string {
  return path.replace(/\{([A-Za-z0-9_]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter ${name} for ${path}`);
    return encodeURIComponent(value);
  });
}
