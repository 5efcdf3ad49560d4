/**
 * Commands that map one-to-one onto an API operation, declared as data
 * (`OperationCommandSpec`) and turned into commander commands here. A spec says
 * which route it calls, which positional arguments fill which path parameters,
 * which flags fill the query or the body, and how to print the result. The
 * mapping, prompting for missing input, confirmation of destructive actions,
 * pagination (--limit/--page/--all) and output are written once, here.
 */
import { type Command, Option } from 'commander';
import { routeInfo } from '../api/catalog.js';
import { DocsctlError, UsageError } from '../api/errors.js';
import type { RouteId } from '../api/route-id.js';
import type { RawInput } from '../api/validate.js';
import { type ColumnSet, columns } from '../output/columns.js';
import { sanitizeLine } from '../output/sanitize.js';
import type { Session } from './session.js';
import type { ApiResponse, Transport } from '../transport/types.js';
import type { Lookup } from './lookups.js';
import type { NameKind } from './names.js';

export interface ArgSpec {
  /** Name shown in usage, e.g. `spaceId`. */
  name: string;
  /** Path parameter it fills (defaults to `name`). */
  param?: string;
  description: string;
  /** Collects the remaining arguments into a list placed at `to` (`optional`: none may be given, another flag filling the need). */
  variadic?: { to: string; optional?: true };
  /** A body or query field it fills instead of a path parameter (`body.spaceId`). */
  to?: string;
  /** With `to`: may be left out (`[name]`; the field is then not set). */
  optional?: true;
  /** The object has another name the argument may give (an id for a name, a path for an id): how to find the handle (lookups.ts). */
  lookup?: Lookup;
}

export type FlagType = 'string' | 'number' | 'boolean' | 'json' | 'list';

export interface FlagSpec {
  /** Commander flags, e.g. `--title <title>` or `--nested` (booleans may be negated with --no-…). */
  flags: string;
  description: string;
  /** Destination: `body.title`, `query.nested`, `params.x`. Omitted for flags used by `build`. */
  to?: string;
  type?: FlagType;
  choices?: readonly string[];
  /** Asked on a terminal when missing; a usage error naming the flag otherwise. */
  required?: boolean;
  /** The value `none` becomes null (e.g. `--parent none` moves to the root). */
  noneIsNull?: boolean;
  /** The value that stands for null on the command line (`guest`: no role); with an enum field, one of the choices. */
  nullAs?: string;
  /** When asked on a terminal, offer a choice instead of free text (`organization`: your organizations). */
  offer?: 'organization';
  /** Former spellings (`--organization`), still accepted but hidden from help and completion (naming rule: commands/flags.ts). */
  aliases?: string[];
}

export type OutputKind = 'object' | 'list' | 'delete' | 'empty';

export interface OperationCommandSpec {
  /** Command path, e.g. `space get`. */
  command: string;
  /** Route id (operationId), or a choice of route by the options (e.g. `--cr` reads a change request's content). */
  route: RouteId | ((options: Record<string, unknown>) => RouteId);
  summary: string;
  aliases?: string[];
  args?: ArgSpec[];
  /** The route has `{organizationId}`: add `--org ID` (defaults to DOCSCTL_ORG, the profile's, or the user's only one). */
  org?: boolean;
  flags?: FlagSpec[];
  output: OutputKind;
  columns: ColumnSet;
  /** Noun used in messages ("space", "collection"). */
  noun?: string;
  /** A question asked before running (destructive commands); --yes skips it. */
  confirm?: (input: RawInput) => string;
  /** Asynchronous lookups after the input is built (e.g. an e-mail → a user id through the API). */
  resolve?: (session: Session, input: RawInput) => Promise<void>;
  /** Custom mapping after flags are applied (complex bodies; may read files or stdin through the session). */
  build?: (options: Record<string, unknown>, input: RawInput, session: Session) => void | Promise<void>;
  /** False: no `--body <json>` flag (the command builds its body itself, e.g. a comment from `--text`). */
  rawBody?: false;
  /** For lists: prints the items itself (e.g. comment threads on a terminal) instead of printList. */
  printItems?: (session: Session, items: unknown[], input: RawInput) => Promise<void>;
  /** For lists: what a terminal is told when there are no items (default "No NOUNs found."), e.g. which items the list leaves out. */
  emptyHint?: (input: RawInput) => string;
  /** For lists: a failure message when the items mean a check failed (exit 1 after printing them). */
  failWhen?: (items: unknown[], options: Record<string, unknown>) => string | undefined;
  /** Reads the answer itself instead of one request to `route` (e.g. a docsctl extension with a fallback for other servers). */
  request?: (transport: Transport, input: RawInput) => Promise<ApiResponse>;
  /**
   * Prints the answer itself (instead of printObject), e.g. to exit non-zero on a result; `options` holds the flags (those without `to` too).
   * Called only for an answer with a body (a 204 prints nothing, as without a hook): every route with an `after` hook
   * answers a body in 0.202 and in docsctl's handlers, and each hook reads it.
   */
  after?: (session: Session, body: unknown, input: RawInput, options: Record<string, unknown>) => Promise<void>;
  /** Adds `--web`: opens the answer in the browser (src/cli/commands/web-targets.ts) instead of printing it. */
  web?: (session: Session, body: unknown, input: RawInput) => Promise<void>;
  /** The body must carry at least one field (PATCH): the error message when it does not. */
  nonEmptyBody?: string;
  /**
   * The change would leave the object as it is (read through its GET route first,
   * current.ts): the command then says "nothing to change" and exits 0 without sending it.
   * A PATCH is compared field by field without this; a command whose body does not mirror
   * the object (`{resolved: true}` vs `status`) says how to tell here (a string: why, for the
   * message); `false` never reads first.
   */
  unchanged?: ((current: Record<string, unknown>, input: RawInput) => boolean | string) | false;
  examples?: string[];
}

/** A check command found problems (e.g. broken links): exit 1 after printing them. */
export class CheckFailedError extends DocsctlError {}

// ─── Building the commander tree ───────────────────────────────────────────

function findOrCreateGroup(parent: Command, name: string, description: string | undefined): Command {
  const existing = parent.commands.find((c) => c.name() === name);
  if (existing) return existing;
  const group = parent.command(name);
  if (description) group.description(description);
  return group;
}

export function registerOperationCommands(
  program: Command,
  specs: readonly OperationCommandSpec[],
  groupDescriptions: Record<string, string>,
  getSession: (command: Command) => Session,
): void {
  for (const spec of specs) {
    const words = spec.command.split(' ');
    const verb = words.pop() as string;
    let parent = program;
    for (const [index, word] of words.entries()) {
      parent = findOrCreateGroup(parent, word, groupDescriptions[words.slice(0, index + 1).join(' ')]);
    }
    const command = parent.command(verb).description(spec.summary);
    if (spec.aliases) command.aliases(spec.aliases);
    for (const arg of spec.args ?? []) {
      command.argument(arg.variadic ? (arg.variadic.optional ? `[${arg.name}...]` : `<${arg.name}...>`) : arg.optional ? `[${arg.name}]` : `<${arg.name}>`, arg.description);
    }
    if (spec.org) command.addOption(new Option('--org <organizationId>', 'organization (default: DOCSCTL_ORG, the profile, or your only one)'));
    for (const flag of spec.flags ?? []) {
      const option = new Option(flag.flags, flag.description);
      if (flag.choices) option.choices(flag.choices);
      command.addOption(option);
      for (const alias of flag.aliases ?? []) command.addOption(hiddenAlias(option, alias));
    }
    if (spec.output === 'list') {
      command.addOption(new Option('--limit <n>', `items per page, 0 to 1000 (default ${DEFAULT_PAGE_SIZE}; --all for every item)`));
      const cursor = new Option(`${CURSOR_FLAG} <cursor>`, 'start at this cursor (the next.page of a previous answer)');
      command.addOption(cursor);
      // `--page` was the cursor's name; where it does not name a content page, it still is (hidden).
      if (!command.options.some((o) => o.long === '--page')) command.addOption(hiddenAlias(cursor, '--page'));
      command.addOption(new Option('--all', 'follow pagination to the end (pages of 1000)'));
    }
    if (hasBody(spec) && spec.rawBody !== false) command.addOption(new Option('--body <json>', 'request body as JSON, or @FILE (flags override its fields)'));
    if (isMutating(spec)) command.addOption(new Option('--dry-run', 'print the request (method, path, body) instead of sending it; change nothing'));
    if (spec.web) command.addOption(new Option('--web', 'open it in the browser (its app URL; locally, the preview) instead of printing it'));
    if (spec.examples?.length) {
      command.addHelpText('after', `\nExamples:\n${spec.examples.map((e) => `  $ ${e}`).join('\n')}\n`);
    }
    command.action(async (...received: unknown[]) => {
      const cmd = received[received.length - 1] as Command;
      const positional = received.slice(0, (spec.args ?? []).length) as Array<string | string[]>;
      await runOperationCommand(getSession(cmd), spec, positional, cmd.opts());
    });
  }
}

/** The pagination cursor flag of every list (naming rule: commands/flags.ts). */
export const CURSOR_FLAG = '--cursor';

/** Items per page when `--limit` is not given: the CLI sends it, so it is the same against any server. */
export const DEFAULT_PAGE_SIZE = 50;

/**
 * A hidden option spelled `alias` that stores into `option`'s attribute: an old
 * spelling keeps working without showing in help or completion.
 */
export function hiddenAlias(option: Option, alias: string): Option {
  const flags = option.flags.replace(/--[a-z0-9-]+/i, alias).replace(/^-[a-z], /i, '');
  const hidden = new Option(flags, `alias of ${option.long}`).hideHelp();
  if (option.argChoices) hidden.choices(option.argChoices);
  const attribute = option.attributeName();
  hidden.attributeName = () => attribute;
  return hidden;
}

/** The command changes something: its route (or one of its routes) is not a GET. */
export function isMutating(spec: OperationCommandSpec): boolean {
  const routes = typeof spec.route === 'string' ? [spec.route] : [spec.route({}), spec.route({ cr: 'x' })];
  return routes.some((route) => routeInfo(route).method !== 'GET');
}

function hasBody(spec: OperationCommandSpec): boolean {
  return (
    (spec.flags ?? []).some((f) => f.to?.startsWith('body.')) ||
    (spec.args ?? []).some((a) => a.to?.startsWith('body.')) ||
    spec.build !== undefined ||
    spec.nonEmptyBody !== undefined
  );
}

// ─── Running one command ───────────────────────────────────────────────────

function setPath(input: RawInput, path: string, value: unknown): void {
  const [area, ...rest] = path.split('.');
  const root = input as Record<string, unknown>;
  let target = (root[area as string] ??= {}) as Record<string, unknown>;
  for (const key of rest.slice(0, -1)) target = (target[key] ??= {}) as Record<string, unknown>;
  target[rest[rest.length - 1] as string] = value;
}

/** The long flag name (`--title <title>` → `--title`). */
export function flagName(flags: string): string {
  return (/--[a-z0-9-]+/i.exec(flags)?.[0] ?? flags).replace(/^--no-/, '--');
}

function attributeName(flags: string): string {
  return new Option(flags).attributeName();
}

function convert(flag: FlagSpec, raw: unknown): unknown {
  const name = flagName(flag.flags);
  if (flag.noneIsNull && raw === 'none') return null;
  if (flag.nullAs !== undefined && raw === flag.nullAs) return null;
  switch (flag.type ?? 'string') {
    case 'number': {
      const value = Number(raw);
      if (typeof raw !== 'string' || raw.trim() === '' || Number.isNaN(value)) {
        throw new UsageError(`${name} expects a number, got "${String(raw)}"`);
      }
      return value;
    }
    case 'boolean':
      return raw === true || raw === 'true';
    case 'json':
      try {
        return JSON.parse(String(raw));
      } catch {
        throw new UsageError(`${name} expects JSON, got "${String(raw)}"`);
      }
    case 'list':
      return String(raw)
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    default:
      return raw;
  }
}

async function readBodyOption(value: string): Promise<Record<string, unknown>> {
  let text = value;
  if (value.startsWith('@')) {
    const { readFile } = await import('node:fs/promises');
    try {
      text = await readFile(value.slice(1), 'utf8');
    } catch (error) {
      throw new UsageError(`Cannot read --body file ${value.slice(1)}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
    return parsed as Record<string, unknown>;
  } catch {
    throw new UsageError('--body expects a JSON object (or @FILE containing one)');
  }
}

/** Resolves the organization: --org, DOCSCTL_ORG / profile, else the user's only organization. */
export async function resolveOrganization(session: Session, explicit: unknown): Promise<string> {
  if (typeof explicit === 'string' && explicit) return explicit;
  if (session.settings.org) return session.settings.org;
  const transport = await session.transport();
  // Two are enough to tell one organization from several. Locally a query would make the
  // call load the route's validation (zod: ~50 ms of start-up); the default page tells as well.
  const query = transport.mode === 'local' ? {} : { limit: 2 };
  const { body } = await transport.request('listOrganizationsForAuthenticatedUser', { query });
  const items = ((body as { items?: Array<{ id: string; title: string }> }).items ?? []);
  if (items.length === 1) return (items[0] as { id: string }).id;
  if (items.length === 0) throw new UsageError('You do not belong to any organization', { hint: 'run "docsctl init" or pass --org ID' });
  throw new UsageError('You belong to several organizations: pass --org ID (or set DOCSCTL_ORG)', {
    hint: 'run "docsctl org list" to see them',
  });
}

/** Offers the user's organizations (every page) to pick one from. */
async function askOrganization(session: Session, description: string): Promise<string> {
  const transport = await session.transport();
  const orgs: Array<{ id: string; title: string }> = [];
  let page: string | undefined;
  do {
    const query: Record<string, unknown> = { limit: 1000, ...(page ? { page } : {}) };
    const body = (await transport.request('listOrganizationsForAuthenticatedUser', { query })).body as {
      items?: Array<{ id: string; title: string }>;
      next?: { page?: string } | null;
    };
    orgs.push(...(body.items ?? []));
    page = body.next?.page;
  } while (page);
  if (orgs.length === 0) throw new UsageError('You do not belong to any organization', { hint: 'pass the organization id explicitly' });
  return session.ctx.prompter.select(`${description}:`, orgs.map((org) => ({ value: org.id, name: `${org.title} (${org.id})` })));
}

export async function buildInput(
  session: Session,
  spec: OperationCommandSpec,
  positional: Array<string | string[]>,
  options: Record<string, unknown>,
): Promise<RawInput> {
  const input: RawInput = { params: {}, query: {} };
  if (typeof options.body === 'string' && spec.rawBody !== false) input.body = await readBodyOption(options.body);
  (spec.args ?? []).forEach((arg, index) => {
    const value = positional[index];
    if (arg.variadic) {
      if (!arg.variadic.optional || (Array.isArray(value) && value.length > 0)) setPath(input, arg.variadic.to, value);
    } else if (arg.to) {
      if (value !== undefined || !arg.optional) setPath(input, arg.to, value);
    }
    else (input.params as Record<string, string>)[arg.param ?? arg.name] = value as string;
  });
  for (const flag of spec.flags ?? []) {
    let raw = options[attributeName(flag.flags)];
    if (raw === undefined && flag.required) {
      const name = flagName(flag.flags);
      if (!session.canPrompt) throw new UsageError(`Missing required flag ${name}`, { hint: `${spec.command} needs ${name}: ${flag.description}` });
      raw =
        flag.offer === 'organization'
          ? await askOrganization(session, flag.description)
          : await session.ctx.prompter.input(`${flag.description}:`, {
              validate: (value) => (value.trim() ? true : `${name} cannot be empty`),
            });
    }
    if (raw === undefined || flag.to === undefined) continue;
    setPath(input, flag.to, convert(flag, raw));
  }
  if (spec.org) (input.params as Record<string, string>).organizationId = await resolveOrganization(session, options.org);
  // Objects given by name (a space's title, a team's, a member's e-mail) become their ids;
  // not when the command will stop for want of --yes (exit 2, whatever the name names).
  if (!(spec.confirm && !options.dryRun && !session.flags.yes && !session.canPrompt)) {
    await resolveNamedParams(session, input.params as Record<string, string>, options, needsLookup);
    await resolveNamedFields(session, spec, input);
    await resolvePagePath(session, spec, input.params as Record<string, string>);
  }
  // A change names its object by the handle its route takes before it is sent (a delete by
  // id must not answer "nothing to delete"); a read tries the argument as given first.
  if (lookupsFirst(spec, options)) await lookUpArgs(session, spec, positional, input);
  await spec.build?.(options, input, session);
  if (spec.resolve) await spec.resolve(session, input);
  if (spec.output === 'list') {
    if (options.limit !== undefined) {
      const limit = Number(options.limit);
      if (!Number.isInteger(limit) || limit < 0 || limit > 1000) {
        throw new UsageError(`--limit expects an integer from 0 to 1000, got "${String(options.limit)}"`);
      }
      (input.query as Record<string, unknown>).limit = limit;
    }
    const query = input.query as Record<string, unknown>;
    const cursor = options[attributeName(`${CURSOR_FLAG} <cursor>`)];
    if (typeof cursor === 'string') query.page = cursor;
    if (query.limit === undefined && routeInfo(typeof spec.route === 'string' ? spec.route : spec.route(options)).paginated) {
      query.limit = options.all ? 1000 : DEFAULT_PAGE_SIZE;
    }
  }
  if (spec.nonEmptyBody && (input.body === undefined || Object.keys(input.body as object).length === 0)) {
    throw new UsageError(spec.nonEmptyBody);
  }
  return input;
}

// ─── Names wherever an id is expected (the lookups themselves: names.ts, loaded on demand) ───
/** Path parameter → the kind of object a name in it means. */
export const NAMED_PARAMS: Readonly<Record<string, NameKind>> = {
  spaceId: 'space',
  collectionId: 'collection',
  siteId: 'site',
  siteSectionId: 'section',
  siteSpaceId: 'variant',
  siteSectionGroupId: 'sectionGroup',
  teamId: 'team',
  userId: 'member',
};

/**
 * An id as docsctl and GitBook make them: one word of url-safe characters with a digit, or of
 * 16 or more with a capital past its first character (`0VcAbX3…`, `site_p4Xo…`, a test's
 * `x000011`). A title such as `Handbook` or `engineering-handbook` is not; an id-looking
 * title (`Roadmap2`) still works, after its lookup as an id answers 404 (paramsByName).
 */
export function looksLikeId(value: string): boolean {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(value)) return false;
  return /[0-9]/.test(value) || (value.length >= 16 && /[A-Z]/.test(value.slice(1)));
}

/** A value of `kind` that must be looked up before it is sent (a member: only an e-mail). */
export function needsLookup(kind: NameKind, value: string): boolean {
  if (value === '') return false;
  return kind === 'member' ? value.includes('@') : !looksLikeId(value);
}

/** The named parameters of `params` whose value `pick` selects, as [parameter, kind]. */
export function namedParams(params: Readonly<Record<string, unknown>>, pick: (kind: NameKind, value: string) => boolean): Array<[string, NameKind]> {
  const found: Array<[string, NameKind]> = [];
  for (const [key, value] of Object.entries(params)) {
    const kind = NAMED_PARAMS[key];
    if (kind !== undefined && typeof value === 'string' && pick(kind, value)) found.push([key, kind]);
  }
  return found;
}

/**
 * Replaces the path parameters `pick` selects that name their object by the ids they name;
 * names.ts loads only when there is one. True when one changed.
 */
export async function resolveNamedParams(
  session: Session,
  params: Record<string, string>,
  options: Record<string, unknown>,
  pick: (kind: NameKind, value: string) => boolean,
): Promise<boolean> {
  const named = namedParams(params, pick);
  if (named.length === 0) return false;
  const before = { ...params };
  const { resolveParams } = await import('./names.js');
  const organization = () => (params.organizationId ? Promise.resolve(params.organizationId) : resolveOrganization(session, options.org));
  await resolveParams(await session.transport(), organization, params, named);
  for (const [key] of named) if (params[key] !== before[key]) session.debug(`${key} ${String(before[key])} is ${String(params[key])}`);
  return named.some(([key]) => params[key] !== before[key]);
}

/**
 * The id of what a hand-written command's argument names (`param`: `spaceId`, `siteId`,
 * `teamId`…), given by id or by name; `scope` holds the parameters it depends on.
 */
export async function idOf(session: Session, param: string, value: string, scope: Record<string, string> = {}, options: Record<string, unknown> = {}): Promise<string> {
  const params = { ...scope, [param]: value };
  await resolveNamedParams(session, params, options, needsLookup);
  return params[param] as string;
}

/**
 * Body and query fields that name an object take names too: those named as a path parameter
 * (`body.spaceId` of `site space add SITE SPACE`) and flags whose value is named so
 * (`--parent <collectionId>`, `--space <spaceId...>`); the path parameters (already ids) are
 * their scope.
 */
async function resolveNamedFields(session: Session, spec: OperationCommandSpec, input: RawInput): Promise<void> {
  const fields = [...(spec.args ?? []).map((arg) => ({ to: arg.to, value: undefined })), ...(spec.flags ?? []).map((flag) => ({ to: flag.to, value: /<(\w+)(?:\.\.\.)?>/.exec(flag.flags)?.[1] }))];
  for (const { to, value: valueName } of fields) {
    if (!to || to.startsWith('params.')) continue;
    const [area, ...path] = to.split('.');
    const key = [path.at(-1), valueName].find((name) => name !== undefined && NAMED_PARAMS[name] !== undefined);
    if (key === undefined) continue;
    let holder = (input as Record<string, unknown>)[area as string] as Record<string, unknown> | undefined;
    for (const part of path.slice(0, -1)) holder = holder?.[part] as Record<string, unknown> | undefined;
    const field = path.at(-1) as string;
    const named = async (value: unknown) =>
      typeof value === 'string' && needsLookup(NAMED_PARAMS[key] as NameKind, value) ? idOf(session, key, value, input.params as Record<string, string>) : value;
    const value = holder?.[field];
    if (holder && value !== undefined) holder[field] = Array.isArray(value) ? await Promise.all(value.map(named)) : await named(value);
  }
}

/**
 * A page given by path (`guides/setup`) where the route takes its id, in a command whose
 * argument does not look pages up itself (lookups.ts): one request by path. A path that
 * names no page is sent as it is (the route answers 404).
 */
async function resolvePagePath(session: Session, spec: OperationCommandSpec, params: Record<string, string>): Promise<void> {
  const value = params.pageId;
  if (typeof value !== 'string' || params.spaceId === undefined || looksLikeId(value)) return;
  if ((spec.args ?? []).some((arg) => arg.lookup && (arg.param ?? arg.name) === 'pageId')) return;
  const { pageIdByPath } = await import('./lookups.js');
  params.pageId = (await pageIdByPath(await session.transport(), params, value)) ?? value;
}

/**
 * An id-looking argument that was not found (the 404 names it) may be a name after all
 * (a space titled `Release2024Handbook`): its object's id, or undefined (the 404 stands).
 */
async function paramsByName(session: Session, error: unknown, input: RawInput, options: Record<string, unknown>): Promise<Record<string, string> | undefined> {
  const { ApiError } = await import('../api/errors.js');
  if (!(error instanceof ApiError) || error.status !== 404) return undefined;
  const params = { ...(input.params as Record<string, string>) };
  const pick = (kind: NameKind, value: string) => kind !== 'member' && looksLikeId(value) && error.message.includes(value);
  try {
    return (await resolveNamedParams(session, params, options, pick)) ? params : undefined;
  } catch (lookupError) {
    const { NameError } = await import('./names.js');
    if (lookupError instanceof NameError && lookupError.problem === 'ambiguous') throw lookupError;
    return undefined;
  }
}

function routeOf(spec: OperationCommandSpec, options: Record<string, unknown>): RouteId {
  return typeof spec.route === 'string' ? spec.route : spec.route(options);
}

/** Arguments with a lookup are looked up before the request (a change), not only when not found (a read). */
function lookupsFirst(spec: OperationCommandSpec, options: Record<string, unknown>): boolean {
  return (spec.args ?? []).some((arg) => arg.lookup) && routeInfo(routeOf(spec, options)).method !== 'GET';
}

/**
 * Replaces each argument that names its object by its other name with the handle the
 * route takes (in `positional` and the path parameters). True when one changed.
 */
async function lookUpArgs(session: Session, spec: OperationCommandSpec, positional: Array<string | string[]>, input: RawInput): Promise<boolean> {
  let changed = false;
  for (const [index, arg] of (spec.args ?? []).entries()) {
    const value = positional[index];
    if (!arg.lookup || typeof value !== 'string' || arg.lookup.isHandle?.(value)) continue;
    const params = input.params as Record<string, string>;
    const found = await arg.lookup.find(await session.transport(), params, value);
    if (found === undefined || found === value) continue;
    session.debug(`${arg.lookup.noun} ${value} is ${found}`);
    positional[index] = found;
    params[arg.param ?? arg.name] = found;
    changed = true;
  }
  return changed;
}

/**
 * Sends the command's request. A read whose object is not found under the name given
 * is retried once with the object's other name, when an argument has one (lookups.ts).
 */
async function send(
  session: Session,
  spec: OperationCommandSpec,
  positional: Array<string | string[]>,
  options: Record<string, unknown>,
  input: RawInput,
  transport: Transport,
): Promise<ApiResponse> {
  const request = (built: RawInput) => (spec.request ? spec.request(transport, built) : transport.request(routeOf(spec, options), built));
  try {
    return await request(input);
  } catch (error) {
    const byName = await paramsByName(session, error, input, options);
    if (byName) return request({ ...input, params: byName });
    const { ApiError } = await import('../api/errors.js');
    const notFound = error instanceof ApiError && (error.status === 404 || error.status === 400);
    if (!notFound || lookupsFirst(spec, options) || !(spec.args ?? []).some((arg) => arg.lookup)) throw error;
    const retry = [...positional];
    const params = { ...(input.params as Record<string, string>) };
    if (!(await lookUpArgs(session, spec, retry, { ...input, params }))) throw error;
    return request(await buildInput(session, spec, retry, options));
  }
}

interface ListBody {
  items?: unknown[];
  next?: { page?: string } | null;
  count?: number;
}

export async function runOperationCommand(
  session: Session,
  spec: OperationCommandSpec,
  positional: Array<string | string[]>,
  options: Record<string, unknown>,
): Promise<void> {
  const input = await buildInput(session, spec, positional, options);
  const transport = await session.transport({ manyRequests: options.all === true });
  const route = routeOf(spec, options);
  const cols = columns[spec.columns];
  // --columns names columns of what is printed: checked before anything is sent.
  if (!spec.after && !spec.printItems && (spec.output === 'list' || spec.output === 'object')) session.chosenColumns(cols);
  // What is there now: its title for the confirmation, and whether a delete whose route
  // answers 204 either way (no 205) finds something to delete.
  const asks = spec.confirm !== undefined && !options.dryRun && !session.flags.yes;
  const deleteTellsNothing = spec.output === 'delete' && routeInfo(route).success !== 'delete';
  let before: unknown;
  if (asks || deleteTellsNothing) before = await (await import('./current.js')).readCurrent(transport, route, input);
  // A dry run changes nothing: no confirmation needed.
  if (spec.confirm && !options.dryRun) await session.confirm(withTitle(spec.confirm(input), subjectId(spec, input), before));

  if (spec.output === 'list') {
    const items: unknown[] = [];
    let body = (await send(session, spec, positional, options, input, transport)).body as ListBody;
    items.push(...(body.items ?? []));
    while (options.all && body.next?.page) {
      const query: Record<string, unknown> = { ...(input.query as Record<string, unknown>), page: body.next.page };
      if (query.limit === undefined) query.limit = 1000;
      body = (await transport.request(route, { ...input, query })).body as ListBody;
      items.push(...(body.items ?? []));
    }
    session.printsAnswerOf(route);
    if (spec.printItems) await spec.printItems(session, items, input);
    else await session.printList(items, cols);
    if (!options.all && body.next?.page) {
      const of = body.count !== undefined ? ` of ${body.count}` : '';
      await session.info(`note: showing ${items.length}${of}; pass --all for every item, or ${CURSOR_FLAG} ${body.next.page} for the next page`);
    } else if (items.length === 0) {
      await session.hint(spec.emptyHint?.(input) ?? `No ${spec.noun ?? 'item'}s found.`);
    }
    const failure = spec.failWhen?.(items, options);
    if (failure) throw new CheckFailedError(failure);
    return;
  }

  if (await changesNothing(session, spec, transport, route, input)) return;
  let response: ApiResponse;
  try {
    response = await send(session, spec, positional, options, input, transport);
  } catch (error) {
    // The API's "would not result in any update" (a move or transfer to where it already is).
    const { isNoUpdate } = await import('../api/errors.js');
    if (!isNoUpdate(error)) throw error;
    await nothingToChange(session, spec, transport, route, input, undefined, error.message);
    return;
  }
  if (spec.output === 'delete') {
    const id = subjectId(spec, input);
    const { readRouteOf } = await import('./current.js');
    const deleted = deleteTellsNothing ? before !== undefined || readRouteOf(route) === undefined : response.status !== 204;
    if (session.format === 'json' || session.format === 'yaml') await session.printObject({ id, deleted }, cols);
    const noun = spec.noun ?? 'item';
    await session.info(
      deleted ? `Deleted ${noun} ${id}` : `Nothing to delete: ${noun} ${id} is already deleted or does not exist`,
    );
    return;
  }
  if (spec.output === 'empty' || response.body === undefined) return;
  if (options.web === true && spec.web) {
    await spec.web(session, response.body, input);
    return;
  }
  if (spec.after) {
    await spec.after(session, response.body, input, options);
    return;
  }
  session.printsAnswerOf(route);
  await session.printObject(response.body, cols);
}

/**
 * A confirmation naming the object by its title as well as its id (`Delete space
 * "Handbook" (0VcA…)?`, as gh does), when the object was read and has one.
 */
function withTitle(question: string, id: string, object: unknown): string {
  if (typeof object !== 'object' || object === null || id === '' || !question.includes(id)) return question;
  const record = object as Record<string, unknown>;
  const title = [record.title, record.name, record.subject, record.label, record.displayName].find((v) => typeof v === 'string' && v !== '' && v !== id);
  return title === undefined ? question : question.replace(id, `"${sanitizeLine(title as string)}" (${id})`);
}

/** The id of the object a command acts on: its last positional argument (--org is filled in after them). */
function subjectId(spec: OperationCommandSpec, input: RawInput): string {
  const lastArg = spec.args?.at(-1);
  const params = (input.params ?? {}) as Record<string, string>;
  return (lastArg ? params[lastArg.param ?? lastArg.name] : undefined) ?? Object.values(params).pop() ?? '';
}

/**
 * True when the change would leave its object as it is (read first, current.ts): then it
 * is not sent, and the command says so and prints the object as it is. Only for a PATCH
 * (compared field by field) or a spec that says how to tell (`unchanged`).
 */
async function changesNothing(session: Session, spec: OperationCommandSpec, transport: Transport, route: RouteId, input: RawInput): Promise<boolean> {
  if (spec.unchanged === false || spec.output === 'list' || spec.output === 'delete' || spec.request) return false;
  const method = routeInfo(route).method;
  if (method === 'GET' || (method !== 'PATCH' && spec.unchanged === undefined)) return false;
  const { readCurrent, patchChangesNothing } = await import('./current.js');
  const current = await readCurrent(transport, route, input);
  if (typeof current !== 'object' || current === null) return false;
  const same = spec.unchanged ? spec.unchanged(current as Record<string, unknown>, input) : patchChangesNothing(current, input.body);
  if (same === false) return false;
  await nothingToChange(session, spec, transport, route, input, current, typeof same === 'string' ? same : undefined);
  return true;
}

/**
 * Reports a change that changes nothing: exit 0, "Nothing to change" on stderr, and on
 * stdout the object as it is (what the change would have printed), so a re-run script
 * reads the same answer.
 */
async function nothingToChange(
  session: Session,
  spec: OperationCommandSpec,
  transport: Transport,
  route: RouteId,
  input: RawInput,
  known: unknown,
  why?: string,
): Promise<void> {
  const noun = spec.noun ?? spec.command.split(' ').slice(0, -1).join(' ');
  const reason = why ? why.charAt(0).toLowerCase() + why.slice(1) : `${noun} ${subjectId(spec, input)} is already as asked`;
  await session.info(`Nothing to change: ${reason}`);
  if (spec.output !== 'object' || spec.after) return;
  const { readCurrent } = await import('./current.js');
  const current = known ?? (await readCurrent(transport, route, input));
  if (current === undefined) return;
  session.printsAnswerOf(route);
  await session.printObject(current, columns[spec.columns]);
}
