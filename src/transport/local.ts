/**
 * LocalTransport: runs operations in process against the local store, through
 * the same `executeOperation` that `serve` uses, so local output is what the
 * server would send. The acting user is the store's owner, or the user of
 * `--token` when one is given.
 */
import { ApiError } from '../api/errors.js';
import { lightInput } from '../api/light-input.js';
import { loadRoute, matchRouteInfo, methodsForPathInfo, routeInfo } from '../api/catalog.js';
import type { RouteId } from '../api/route-id.js';
import type { RawInput } from '../api/validate.js';
import { actorForToken, storeOwner } from '../domain/auth.js';
import type { Actor } from '../domain/handler.js';
import { executeLight, executeOperation } from '../domain/execute.js';
import type { ArtifactSink } from '../domain/handler.js';
import type { GitSettings } from '../git/settings.js';
import type { Store, StoreReader } from '../store/types.js';
import type { Clock } from '../util/clock.js';
import type { IdGenerator } from '../util/ids.js';
import { directoryArtifacts } from './artifacts.js';
import type { ApiResponse, RawOptions, RequestOptions, Transport } from './types.js';

export interface LocalTransportOptions {
  store: Store;
  clock: Clock;
  ids: IdGenerator;
  origin: string;
  token?: string | undefined;
  /** Where generated files (PDF exports) go; default: `docsctl-artifacts` in the temp directory, as `file://` URLs. */
  artifacts?: ArtifactSink | undefined;
  /** How git runs for Git Sync (git/settings.ts); default: from this process's environment. */
  git?: GitSettings | undefined;
}

export class LocalTransport implements Transport {
  readonly mode = 'local' as const;
  private readonly artifacts: ArtifactSink;
  constructor(private readonly options: LocalTransportOptions) {
    this.artifacts = options.artifacts ?? directoryArtifacts();
  }

  private actor(reader: StoreReader): Actor {
    if (this.options.token !== undefined) {
      const actor = actorForToken(reader, this.options.token);
      if (!actor) throw new ApiError(401, 'Invalid API token for this store', { hint: 'Check --token / DOCSCTL_TOKEN.' });
      return actor;
    }
    const owner = storeOwner(reader);
    if (!owner) {
      throw new ApiError(401, `The store at ${this.options.store.location} has no owner`, {
        hint: 'Run "docsctl init" to initialize it.',
      });
    }
    return { userId: owner };
  }

  async request(routeId: RouteId, input: RawInput, options: RequestOptions = {}): Promise<ApiResponse> {
    const { store, clock, ids, origin } = this.options;
    // One snapshot for the token and a read operation (as serve takes one per request): a write commits on the newest state.
    const reader = store.read();
    const actor = this.actor(reader);
    const env = { store, reader, actor: input.partnerKey === undefined ? actor : { ...actor, partnerKey: input.partnerKey }, clock, ids, origin, artifacts: this.artifacts, progress: options.progress, git: this.options.git };
    const info = routeInfo(routeId);
    // Most reads, and the common writes, carry input the manifest describes: they skip loading zod
    // and the route's schemas (start-up cost).
    const light = lightInput(info, input);
    const result = light
      ? await executeLight(env, info, input.params ?? {}, light)
      : await executeOperation(env, await loadRoute(routeId), input);
    return { status: result.status, body: result.body };
  }

  async raw(method: string, pathAndQuery: string, body?: unknown, options?: RawOptions): Promise<ApiResponse> {
    const url = new URL(pathAndQuery, 'http://local');
    const match = matchRouteInfo(method, url.pathname);
    if (!match) {
      const allowed = methodsForPathInfo(url.pathname);
      if (allowed.length) throw new ApiError(405, `${method.toUpperCase()} is not allowed on ${url.pathname} (allowed: ${allowed.join(', ')})`);
      throw new ApiError(404, `No operation matches ${method.toUpperCase()} ${url.pathname}`, {
        hint: 'Run "docsctl api --list" to see the operations.',
      });
    }
    const query: Record<string, string | string[]> = {};
    for (const key of new Set(url.searchParams.keys())) {
      const values = url.searchParams.getAll(key);
      query[key] = values.length === 1 ? (values[0] as string) : values;
    }
    return this.request(match.item.id, { params: match.params, query, body, ...(options?.partnerKey !== undefined ? { partnerKey: options.partnerKey } : {}) });
  }

  /**
   * The store's generation: it changes with every commit (`site preview` reloads on it;
   * one `stat` when nothing changed).
   */
  generation(): number {
    return this.options.store.read().gen;
  }

  /**
   * The bytes behind a content file's `downloadURL` (`${origin}/files/<data hash>/<name>`),
   * which no server answers in local mode: read from the store, as `serve` does. Undefined
   * for any other URL or a missing object.
   */
  download(url: string): Uint8Array | undefined {
    const match = /^\/files\/([0-9a-f]{64})\/[^/]+$/.exec(url.startsWith(this.options.origin) ? url.slice(this.options.origin.length) : '');
    if (!match) return undefined;
    try {
      const object = this.options.store.read().getObject<{ base64?: unknown }>(match[1] as string);
      return typeof object?.base64 === 'string' ? Buffer.from(object.base64, 'base64') : undefined;
    } catch {
      return undefined;
    }
  }

  async close(): Promise<void> {
    await this.options.store.close();
  }
}
