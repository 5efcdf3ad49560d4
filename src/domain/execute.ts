/**
 * Runs one operation against the store: the core shared by LocalTransport (CLI in
 * local mode) and `serve`. Validation, the 501 of unimplemented operations, the
 * transaction and the success status all happen here, once.
 */
import { checkPublishedScope } from './published-tokens.js';
import { ApiError } from '../api/errors.js';
import type { RouteInfo } from '../api/catalog.js';
import type { LightInput } from '../api/light-input.js';
import type { AnyRoute, RouteInput } from '../api/route.js';
import { type RawInput, validateInput } from '../api/validate.js';
import type { ObjectStager, ScanOptions, Store, StoreReader, StoreWriter } from '../store/types.js';
import type { Clock } from '../util/clock.js';
import type { IdGenerator } from '../util/ids.js';
import type { GitSettings } from '../git/settings.js';
import type { InstallationTokenScope } from './core-records.js';
import type { Actor, AnswerCache, ArtifactSink, Handler, HandlerContext, ProgressListener } from './handler.js';
import { ExactJson, Reply, transactOptionsOf } from './handler.js';
import { type ResolvedAccess, checkAccess } from './access.js';
import { findHandler } from './handler-registry.js';
import { type InputPolicy, LOCAL_POLICY } from './input-policy.js';
import type { AuditSource } from './audit-records.js';

export interface ExecuteEnv {
  store: Store;
  actor: Actor;
  clock: Clock;
  ids: IdGenerator;
  origin: string;
  /** Where generated files go; operations that produce one answer 501 without it. */
  artifacts?: ArtifactSink;
  /** What the input may reach on this machine (default: everything, as in local mode). */
  policy?: InputPolicy;
  /**
   * A snapshot the caller already took (serve takes one per request, for the token and
   * the operation): read operations use it instead of taking another.
   */
  reader?: StoreReader;
  /** Progress of long operations (git import/export), for the CLI in local mode. */
  progress?: ProgressListener | undefined;
  /** How git runs here (cache, timeout, environment, committer, --debug trace); absent: from this process's environment. */
  git?: GitSettings | undefined;
  /** Answers kept for the generation of `reader` (serve): given to read operations only. */
  answers?: AnswerCache | undefined;
  /** Where the call entered, for the audit log: `api` (serve); absent: `script` (the CLI on its store). */
  source?: AuditSource | undefined;
}

const noArtifacts: ArtifactSink = {
  save: async () => {
    throw new ApiError(501, 'This server cannot store generated files');
  },
};

export interface OperationResult {
  status: number;
  /** Undefined for 204/205. A JSON-safe value (plain objects, arrays, strings, numbers, booleans, null), parsed from `json` on first use. */
  readonly body: unknown;
  /** The body serialized once: what `serve` sends as is. Undefined for 204/205. */
  readonly json: string | undefined;
  headers: Record<string, string>;
  /**
   * Set (under `serve`) when the answer depends only on the request's snapshot, the caller
   * and the input: a synchronous read that asked neither the clock nor for new ids. Such an
   * answer stays right for as long as the store stays at that generation (server/served-answers.ts).
   */
  generational?: true;
}

export { isImplemented } from './handler-registry.js';

/**
 * Wraps a snapshot so a GET handler that tries to write fails loudly instead of silently
 * dropping it. A class, not an object of closures: one is made per served read.
 */
class ReadOnly implements StoreWriter {
  constructor(private readonly reader: StoreReader) {}
  get gen(): number {
    return this.reader.gen;
  }
  get<T>(table: string, key: string): T | undefined {
    return this.reader.get<T>(table, key);
  }
  has(table: string, key: string): boolean {
    return this.reader.has(table, key);
  }
  entries<T>(table: string): Array<[string, T]> {
    return this.reader.entries<T>(table);
  }
  scan<T>(table: string, options?: ScanOptions): Array<[string, T]> {
    return this.reader.scan<T>(table, options);
  }
  getObject<T>(hash: string): T {
    return this.reader.getObject<T>(hash);
  }
  sharedObject<T>(hash: string, walk?: boolean): T {
    return this.reader.sharedObject ? this.reader.sharedObject<T>(hash, walk) : this.reader.getObject<T>(hash);
  }
  put(): never {
    return refuseWrite();
  }
  delete(): never {
    return refuseWrite();
  }
  putObject(): never {
    return refuseWrite();
  }
  adopt(): never {
    return refuseWrite();
  }
}

function refuseWrite(): never {
  throw new Error('a read operation tried to write to the store');
}

export async function executeOperation(env: ExecuteEnv, route: AnyRoute, raw: RawInput): Promise<OperationResult> {
  const found = findHandler(route.id);
  const handler = found instanceof Promise ? await found : found;
  if (!handler) throw new ApiError(501, `${route.id} is not implemented yet`);
  // Who may call it, before validation: a denied call learns nothing and changes nothing.
  if (env.actor.installation) await checkTokenScope(env, route, raw.params ?? {});
  if (env.actor.published) checkPublishedScope(accessReader(env, route), route, raw.params ?? {}, env.actor.published, env.clock());
  const access = checkAccess(accessReader(env, route), route, raw.params ?? {}, env.actor.userId);
  return run(env, route, handler, validateInput(route, raw), access);
}

/**
 * Runs a call whose input needs no zod validation: params are non-empty strings, and
 * the query is empty (`plainGet` in the catalog) or was checked by `lightParse` against
 * the route's `lightQuery`, and a write's body by `lightParseBody` against its
 * `lightBody` (a write without a body schema, `noBody`, has none). The same as executeOperation without loading the route's schemas.
 */
export async function executeLight(
  env: ExecuteEnv,
  info: RouteInfo,
  params: Record<string, string>,
  input: LightInput = { query: {}, body: undefined },
): Promise<OperationResult> {
  const queried = Object.keys(input.query).length > 0;
  const described =
    info.method === 'GET'
      ? (queried ? info.lightQuery : info.plainGet) && input.body === undefined
      : info.lightQuery && (info.noBody ? input.body === undefined : info.lightBody && input.body);
  if (!described || Object.values(params).some((value) => typeof value !== 'string' || value === '')) {
    throw new Error(`executeLight cannot run ${info.id} with this input`);
  }
  const found = findHandler(info.id);
  const handler = found instanceof Promise ? await found : found;
  if (!handler) throw new ApiError(501, `${info.id} is not implemented yet`);
  if (env.actor.installation) await checkTokenScope(env, info, params);
  if (env.actor.published) checkPublishedScope(accessReader(env, info), info, params, env.actor.published, env.clock());
  const access = checkAccess(accessReader(env, info), info, params, env.actor.userId);
  return run(env, info, handler, { params, query: input.query, body: input.body } as RouteInput<AnyRoute>, access);
}

type Runnable = Pick<AnyRoute, 'id' | 'method' | 'success'> & { readonly safe?: boolean };

/** An integration installation's token reaches only what its installation covers (loaded only for such tokens). */
async function checkTokenScope(env: ExecuteEnv, route: Runnable, params: Readonly<Record<string, unknown>>): Promise<void> {
  const { checkInstallationScope } = await import('./installation-scope.js');
  checkInstallationScope(accessReader(env, route), route, params, env.actor.installation as InstallationTokenScope, env.clock());
}

/**
 * The snapshot the access check reads: a read checks on the request's own snapshot (the
 * one its token was looked up in and its handler reads: one revalidation per request, not
 * two), a write on the newest state.
 */
function accessReader(env: ExecuteEnv, route: Runnable): StoreReader {
  const reads = route.method === 'GET' || route.safe === true;
  return (reads ? env.reader : undefined) ?? env.store.read();
}

async function run(env: ExecuteEnv, route: Runnable, handler: Handler, input: RouteInput<AnyRoute>, access: ResolvedAccess): Promise<OperationResult> {
  const snapshot = () => env.reader ?? env.store.read();
  // A GET, or a route declared safe (a preview with a body), reads a snapshot and cannot write.
  const reads = route.method === 'GET' || route.safe === true;
  if (reads && typeof handler === 'function') {
    // The common served read, built without spreads (a few objects fewer per request).
    // Kept answers are those of the snapshot the server took (`reader`), which only reads see.
    // Under serve (kept answers given), the clock and the id generator tell whether the answer used them.
    const used = env.reader && env.answers ? new UsedTimeOrIds(env.clock, env.ids) : undefined;
    const ctx: HandlerContext = {
      tx: new ReadOnly(snapshot()),
      actor: env.actor,
      access,
      clock: used ? used.clock : env.clock,
      ids: used ? used.ids : env.ids,
      origin: env.origin,
      artifacts: env.artifacts ?? noArtifacts,
      policy: env.policy ?? LOCAL_POLICY,
      progress: env.progress,
      git: env.git,
      answers: env.reader ? env.answers : undefined,
    };
    const value = handler(ctx, input);
    if (value instanceof Promise) return toResult(route, await value);
    const result = toResult(route, value);
    // Tokens that expire (installation and published content tokens) are never answered from kept bytes.
    // Nor is an answer to the ad partner's key (kept bytes are keyed by token and URL, not by that header).
    if (used !== undefined && !used.asked && env.actor.installation === undefined && env.actor.published === undefined && env.actor.partnerKey === undefined) {
      result.generational = true;
    }
    return result;
  }
  const base = { actor: env.actor, access, clock: env.clock, ids: env.ids, origin: env.origin, artifacts: env.artifacts ?? noArtifacts, policy: env.policy ?? LOCAL_POLICY, progress: env.progress, git: env.git };
  const context = (tx: StoreWriter): HandlerContext => ({ tx, ...base });
  // Every write records its audit event in its own transaction (audit-records.ts), after the handler.
  const loaded = reads ? undefined : auditRecorder();
  const audited = loaded === undefined ? undefined : auditHook(env, route, input, access, loaded instanceof Promise ? await loaded : loaded);
  if (typeof handler !== 'function') {
    const stagers: ObjectStager[] = [];
    const store = env.store;
    const stage = reads || store.stage === undefined ? undefined : () => stagers[stagers.push((store.stage as () => ObjectStager)()) - 1] as ObjectStager;
    try {
      const prepared = await handler.prepare({ reader: reads ? snapshot() : env.store.read(), ...base, stage }, input);
      const value = reads
        ? await handler.run(context(new ReadOnly(snapshot())), input, prepared)
        : await env.store.transact((tx) => then(handler.run(context(tx), input, prepared), (answer) => (audited as AuditHook)(tx, answer)), { command: route.id });
      return toResult(route, value);
    } finally {
      for (const stager of stagers) stager.release(); // what no commit adopted goes
    }
  }
  const value = await env.store.transact((tx) => then(handler(context(tx), input), (answer) => (audited as AuditHook)(tx, answer)), transactOptionsOf(handler, route.id));
  return toResult(route, value);
}

/**
 * The clock and id generator of a served read, noting whether the handler asked either:
 * an answer that did not, from a synchronous handler (no I/O), is a function of the
 * snapshot, the caller and the input alone (`OperationResult.generational`).
 */
class UsedTimeOrIds {
  asked = false;
  constructor(
    private readonly realClock: Clock,
    private readonly realIds: IdGenerator,
  ) {}
  readonly clock: Clock = () => {
    this.asked = true;
    return this.realClock();
  };
  readonly ids: IdGenerator = () => {
    this.asked = true;
    return this.realIds();
  };
}

type AuditHook = (tx: StoreWriter, answer: unknown) => unknown;
type Recorder = typeof import('./audit-records.js').recordAudit;

let recorder: Recorder | Promise<Recorder> | undefined;

/** The audit recorder, loaded by the first write (reads never load it). */
function auditRecorder(): Recorder | Promise<Recorder> {
  recorder ??= import('./audit-records.js').then((module) => (recorder = module.recordAudit));
  return recorder;
}

/** Records the write's audit event from the handler's answer, then hands the answer on. */
function auditHook(env: ExecuteEnv, route: Runnable, input: RouteInput<AnyRoute>, access: ResolvedAccess, record: Recorder): AuditHook {
  const { params, body } = input as { params?: Record<string, unknown>; body?: unknown };
  const actor = env.actor;
  const source: AuditSource = actor.installation ? 'integration' : (env.source ?? 'script');
  return (tx, answer) => {
    // A write that changed nothing (a re-run, "nothing to change") records nothing and still commits nothing.
    if ((tx as { dirty?: boolean }).dirty === false) return answer;
    const reply = answer instanceof Reply ? answer : undefined;
    const value = reply ? reply.body : answer instanceof ExactJson ? answer.value : answer;
    const status = reply ? reply.status : successStatus(route);
    record(tx, env.clock, { routeId: route.id, method: route.method, params: params ?? {}, body, answer: value, status, actor, access, source });
    return answer;
  };
}

/** `fn(value)`, after `value` settles when it is a promise (a synchronous handler stays synchronous). */
function then<T>(value: T | Promise<T>, fn: (settled: T) => unknown): unknown {
  return value instanceof Promise ? value.then(fn) : fn(value);
}

function successStatus(route: Runnable): number {
  return route.success === 'delete' ? 205 : route.success === 'upsert' ? 200 : route.success;
}

function toResult(route: Runnable, value: unknown): OperationResult {
  if (value instanceof Reply) {
    const json = value.status === 204 || value.status === 205 ? undefined : serialize(value.body);
    return result(value.status, json, { ...value.headers });
  }
  const status = successStatus(route);
  if (status === 204 || status === 205) return result(status, undefined, {});
  if (value instanceof ExactJson) return exactResult(status, value);
  return result(status, serialize(value), {});
}

/** The result of an ExactJson answer: its value as the body, serialized only when asked (`serve`), once. */
function exactResult(status: number, answer: ExactJson): OperationResult {
  return {
    status,
    headers: {},
    body: answer.value,
    get json(): string | undefined {
      return answer.value === undefined ? undefined : answer.json;
    },
  };
}

/**
 * Serializes the answer once: `serve` sends this text, and the local mode parses it
 * back (on first use of `body`), so local output is byte-identical to what `serve` sends.
 */
function serialize(value: unknown): string | undefined {
  return value === undefined ? undefined : JSON.stringify(value);
}

function result(status: number, json: string | undefined, headers: Record<string, string>): OperationResult {
  let parsed: { value: unknown } | undefined;
  return {
    status,
    json,
    headers,
    get body(): unknown {
      parsed ??= { value: json === undefined ? undefined : (JSON.parse(json) as unknown) };
      return parsed.value;
    },
  };
}
