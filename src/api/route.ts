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
 * - `owner`: the store's owner only (the user `docsctl init` created: the local mode without
 *   `--token`, or a token of theirs against `serve`), for what no organization's role covers
 *   (local accounts: another user's tokens, a user outside any organization);
 * - `{ role, or }`: also below the role, the team's owner (`{teamId}`) or the user named by
 *   `{userId}` (an id or, for docsctl's own routes, an e-mail) themselves.
 */
export type RouteAccess =
  | 'none'
  | 'guest'
  | 'owner'
  | MemberRoleName
  | { readonly role: 'guest' | 'owner' | MemberRoleName; readonly or: 'teamOwner' | 'self' };

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
  /**
   * 0.202's `prefer` header (`returnPreference`): with `Prefer: return=minimal` the success
   * is a 204 without the object (`serve` answers it; RFC 7240's Preference-Applied says so).
   */
  readonly preferMinimal: boolean;
  /** The command(s) that call it: what differs from the command derived from the route (src/cli/derive.ts). */
  readonly cli?: readonly CommandDeclaration[];
}

/**
 * A command that calls a route, as plain data beside the route (the build derives the
 * rest: scripts/gen-commands.mjs). Only what the route cannot say is written here:
 * - positional arguments are the path parameters (in path order, `organizationId` left
 *   out: it is `--org`; `changeRequestId` is the argument CHANGEREQUEST, an id or a
 *   number); `args` gives another order or other names, or fills a body or query field;
 * - each query and body field of a scalar type (string, number, boolean, enum, list of
 *   strings) is a flag `--kebab-name`, its `choices` the enum's values, its help the
 *   field's `.describe()` or its name; `flags` renames, describes, hides (`false`) or
 *   asks for (`required`) one, keyed by field name (`query.x`/`body.x` when both have it);
 * - the output follows the route (a list when paginated, a delete for a DELETE, nothing
 *   for a 204), the help line is the route's summary.
 * Behaviour the data cannot say (reading a file, a printer of its own) is a hook in
 * `src/cli/commands/<area>.ts`, keyed by command name (`hooks`).
 */
export interface CommandDeclaration {
  /** Command path, e.g. `space get`. */
  readonly command: string;
  /** Help line (default: the route's summary). */
  readonly summary?: string;
  readonly aliases?: readonly string[];
  /** Positional arguments, when they are not the path parameters in order: a parameter name or `{ name, param?, description }`. */
  readonly args?: readonly (string | CommandArgDeclaration)[];
  /** Argument descriptions by name (default: the name in words, `spaceId` → `space id`). */
  readonly argHelp?: Readonly<Record<string, string>>;
  /** Per field (`name`, `body.name`, or a nested `body.a.b`): a description, `false` (no flag), or how its flag differs. */
  readonly flags?: Readonly<Record<string, string | false | CommandFlagDeclaration>>;
  /** Output kind, when the route's shape does not tell it (see above). */
  readonly output?: 'object' | 'list' | 'delete' | 'empty';
  /** Column set of src/output/columns.ts used for tables and TSV (required: test/cli/derived-commands.test.ts). */
  readonly columns: string;
  /** Noun used in messages ("space", "collection"). */
  readonly noun?: string;
  /** A question asked before running (destructive commands): `{param}` and `{body.field}` are filled in. */
  readonly confirm?: string;
  /** The body must carry at least one field: the error message when it does not. */
  readonly nonEmptyBody?: string;
  /** False: no `--body <json>` flag. */
  readonly rawBody?: false;
  /** No flag for fields the declaration does not name (the command builds its input in a hook). */
  readonly onlyNamedFlags?: true;
  readonly examples?: readonly string[];
}

export interface CommandArgDeclaration {
  readonly name: string;
  /** Path parameter it fills (defaults to `name`). */
  readonly param?: string;
  readonly description?: string;
  /** Collects the remaining arguments into a list placed at `to` (`body.users`); `optional`: none may be given (a flag fills the need instead). */
  readonly variadic?: { readonly to: string; readonly optional?: true };
  /** A body or query field it fills instead of a path parameter (`body.spaceId`). */
  readonly to?: string;
  /** With `to`: may be left out (the field is then not sent; a hook may fill it). */
  readonly optional?: true;
  /** Read by the command's `build` hook (e.g. a page id that goes into a list of changes): no route field. */
  readonly byHook?: true;
}

export interface CommandFlagDeclaration {
  /** Commander flags when they differ from the derived `--kebab-name <fieldName>` (e.g. `--to-org <organizationId>`). */
  readonly flag?: string;
  readonly description?: string;
  /** Asked on a terminal when missing; a usage error naming the flag otherwise. */
  readonly required?: true;
  /** The value `none` becomes null. */
  readonly noneIsNull?: true;
  /** The value that stands for null (`guest`: no role); added to an enum's choices. */
  readonly nullAs?: string;
  /** When asked on a terminal, offer a choice (`organization`: your organizations). */
  readonly offer?: 'organization';
  /** Former spellings, accepted but hidden (naming rule: src/cli/commands/flags.ts). */
  readonly aliases?: readonly string[];
  /** A boolean's `--no-` form too (an edit that turns it off), with this description. */
  readonly negate?: string;
  /** The flag's type, when not the field's (e.g. `json` for an object field). */
  readonly type?: 'string' | 'number' | 'boolean' | 'json' | 'list';
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
  /** Honours `Prefer: return=minimal` (204, no body), where the real API's operation takes the `prefer` header. */
  preferMinimal?: boolean;
  /** The command(s) that call it (CommandDeclaration): one, or several (e.g. `--cr` twins named apart). */
  cli?: CommandDeclaration | readonly CommandDeclaration[];
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
    preferMinimal: route.preferMinimal ?? false,
    ...(route.cli === undefined ? {} : { cli: Array.isArray(route.cli) ? route.cli : [route.cli as CommandDeclaration] }),
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
