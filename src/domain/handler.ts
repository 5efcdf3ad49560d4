/**
 * What a domain handler is and what it receives.
 *
 * A handler implements one route (same id) against the store. It gets the
 * validated input and a context, returns a plain JSON value (or a `Reply` to pick
 * another success status), or throws `ApiError`. It never touches `process`, the
 * terminal, or HTTP: the same handler serves the CLI in local mode and `serve`.
 */
import type { AnyRoute, RouteInput } from '../api/route.js';
import type { ObjectStager, StoreReader, StoreWriter } from '../store/types.js';
import type { Clock } from '../util/clock.js';
import type { IdGenerator } from '../util/ids.js';
import type { GitSettings } from '../git/settings.js';
import type { ResolvedAccess } from './access.js';
import type { InstallationTokenScope, PublishedTokenScope } from './core-records.js';
import type { InputPolicy } from './policy.js';

/** Who is calling. */
export interface Actor {
  userId: string;
  /** Set for an integration installation's token: the calls it may make are narrowed (installation-scope.ts). */
  installation?: InstallationTokenScope | undefined;
  /** Set for a published URL's content token: reads of one space's content only (published-tokens.ts). */
  published?: PublishedTokenScope | undefined;
  /** The public id of the token that authenticated the call (`token list`'s ID), recorded in audit events; absent for the store owner without a token. */
  tokenId?: string | undefined;
  /** The request's `X-GitBook-Partner-Key` (the ad partner's key), checked by the operations that need it (sites/ads.ts). */
  partnerKey?: string | undefined;
}

/**
 * Where an operation puts a generated file (a PDF…) and gets a URL for it: a
 * `file://` URL in local mode, a URL that `serve` answers in server mode.
 */
export interface ArtifactSink {
  save(name: string, data: Uint8Array, contentType: string): Promise<string>;
}

export interface HandlerContext {
  /** The transaction (write routes) or a read-only snapshot that throws on writes (GET routes). */
  tx: StoreWriter;
  actor: Actor;
  /**
   * The caller's access, resolved once from the route's declared role before the
   * handler runs (src/domain/access.ts): the handler does not check that role again.
   */
  access: ResolvedAccess;
  clock: Clock;
  ids: IdGenerator;
  /** Origin used to build `urls` (e.g. `http://127.0.0.1:4000`); API URLs are `${origin}/v1/...`. */
  origin: string;
  artifacts: ArtifactSink;
  /** What local paths and network addresses the input may reach (policy.ts): everything locally, little under `serve`. */
  policy: InputPolicy;
  /** Where a long operation reports how far it got (the CLI draws it on a terminal, in local mode); absent under `serve`. */
  progress?: ProgressListener | undefined;
  /** How git runs on this machine (git/settings.ts); absent: from this process's environment. */
  git?: GitSettings | undefined;
  /** Answers kept while the store stays at this snapshot's generation (`serve`, read operations only); absent in local mode. */
  answers?: AnswerCache | undefined;
}

/**
 * Answers a long-running `serve` keeps for the generation it reads: a read whose answer
 * is costly and the same for every caller allowed to ask (checked before the lookup)
 * computes it once per generation (any commit starts a new one). Keys name the
 * operation and everything of the request the answer depends on.
 */
export interface AnswerCache {
  get<T>(key: string, compute: () => T): T;
  /**
   * A value derived from content-addressed objects only (its key names their hash), so
   * it never goes stale: kept across generations, the least recently used leaving first
   * once the `size` of what is kept adds up past the bound. Nobody may change it.
   */
  lasting<T>(key: string, compute: () => T, size: (value: T) => number): T;
}

/** How far a long operation got: a stage (`receiving`, `converting`…), counts and bytes when known. */
export interface ProgressEvent {
  stage: string;
  processed?: number;
  total?: number;
  bytes?: number;
}

export type ProgressListener = (event: ProgressEvent) => void;

/**
 * What the first phase of a two-phase handler gets: a snapshot to read, no writes, and
 * (when the store can) `stage` to write objects ahead of the transaction, outside the
 * lock (a big import's pages and files; `run` adopts them). Stagers are released once
 * the operation ends, whatever happened.
 */
export type PrepareContext = Omit<HandlerContext, 'tx'> & { reader: StoreReader; stage?: (() => ObjectStager) | undefined };

/** A success answer other than the route's default status, or with headers. */
export class Reply {
  constructor(
    readonly status: number,
    readonly body?: unknown,
    readonly headers: Record<string, string> = {},
  ) {}
}

/**
 * An answer that is already JSON-exact: plain objects and arrays, strings, finite
 * numbers, booleans and null, no undefined member, nothing anyone will change. Local
 * mode hands it to the CLI as it is, instead of serializing it and parsing it back
 * (for a 40,000-page site tree that round trip was a fifth of the command); `serve`
 * serializes it once, as any answer. test/domain/site-tree.test.ts checks that such an
 * answer equals its JSON round trip.
 */
export class ExactJson {
  private text: string | undefined;
  constructor(readonly value: unknown) {}
  /** The value serialized, once: an answer kept in `answers` is sent again as it is. */
  get json(): string {
    this.text ??= JSON.stringify(this.value);
    return this.text;
  }
}

export type HandlerFn<R extends AnyRoute = AnyRoute> = (ctx: HandlerContext, input: RouteInput<R>) => unknown | Promise<unknown>;

/**
 * A handler whose slow work (fetching a URL, reading files, rendering) runs in
 * `prepare`, outside the store's writer lock; `run` then applies the result in the
 * transaction (and may be re-run, so it must be cheap and pure).
 */
export interface TwoPhaseHandler<R extends AnyRoute = AnyRoute, P = unknown> {
  prepare(ctx: PrepareContext, input: RouteInput<R>): Promise<P>;
  // Method syntax on purpose: a handler with a specific P is still a TwoPhaseHandler<R, unknown>.
  run(ctx: HandlerContext, input: RouteInput<R>, prepared: P): unknown;
}

export type Handler<R extends AnyRoute = AnyRoute> = HandlerFn<R> | TwoPhaseHandler<R>;

/**
 * Marks handlers (`committingAlone(on('id', …))`) whose transaction must commit alone, on the
 * newest state, with nothing grouped before it (`TransactOptions.alone`): those that read or
 * replace the whole state (emulator snapshots, src/domain/emulator.ts).
 */
export function committingAlone(handlers: Record<string, Handler>): Record<string, Handler> {
  for (const handler of Object.values(handlers)) Object.assign(handler, { alone: true as const });
  return handlers;
}

/** The store options of a handler's transaction. */
export const transactOptionsOf = (handler: Handler, command: string): { command: string; alone?: true } =>
  (handler as { alone?: true }).alone ? { command, alone: true } : { command };

/** Answers for DELETE routes: 205 when deleted, 204 when there was nothing to delete. */
export const deleted = () => new Reply(205);
export const nothingToDelete = () => new Reply(204);

/**
 * Pairs a route id with its handler; the handler's input is typed from the route's
 * schemas. Domain modules import their route module *as a type only*
 * (`import type * as routes from '../api/routes/spaces.js'`), so loading a handler
 * never builds zod schemas: `const on = implementer<typeof routes>()`, then
 * `...on('getSpaceById', (ctx, { params }) => …)`. Route constants are named after
 * their ids (test/api/routes.test.ts checks it), so the id is checked by the compiler.
 */
export function implementer<M>() {
  return <K extends keyof M & string>(id: K, handler: M[K] extends AnyRoute ? Handler<M[K]> : never): Record<string, Handler> => ({
    [id]: handler as Handler,
  });
}
