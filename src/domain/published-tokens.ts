/**
 * The short-lived content token of a published URL (0.202 `PublishedSiteContent.apiToken`, answered
 * by `getPublishedContentByUrl`/`resolvePublishedContentByUrl`): a bearer token that reads the
 * published content of the one space the URL resolved to, for an hour.
 *
 * Stateless, because the GET that makes it writes nothing: `gbpub_<payload>.<signature>`, the
 * payload `{s: site, p: space, o: organization, e: expiry in seconds}` (base64url JSON) signed with
 * HMAC-SHA256 under the store's own secret (`meta.contentTokenKey`: 32 random bytes made at `init`,
 * or by the layout upgrade for older stores; never in an answer). A changed payload fails the
 * signature (compared in constant time): its scope cannot be widened.
 *
 * What it may do (`checkPublishedScope`, run by executeOperation before the role check):
 * - Nothing once expired (401 with a one-line message), or once the site no longer publishes the
 *   space (401: the site was unpublished or deleted, or the space left it).
 * - Reads (GET) of that space's content only: the space, its pages, files, revisions and
 *   documents, and search in it. Any write is a 403; another space is a 404, as for someone who
 *   cannot see it; any other object (organizations, sites, change requests, comments,
 *   permissions…) a 403.
 * Within that it acts as a reader of the space (`published:<space>` has the `read` role there and
 * nowhere else: permissions.ts `spaceRoleOf`). `serve` never keeps its answers as bytes (execute.ts
 * `generational`): an expired token must not be answered from kept bytes.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ApiError, forbidden, notFound } from '../api/errors.js';
import type { StoreReader, StoreWriter } from '../store/types.js';
import { type PublishedTokenScope, Tables } from './core-records.js';
import { siteSpacesOfSpace } from './sites/site-records.js';

export const PUBLISHED_TOKEN_PREFIX = 'gbpub_';
const KEY_ROW = 'contentTokenKey';
/** A published token reads for an hour, as the real API's. */
export const PUBLISHED_TOKEN_LIFETIME_MS = 3600_000;
/** The user id such a token acts as: a reader of that one space. */
const READER_PREFIX = 'published:';


/** Makes the store's token secret when it has none (bootstrap, and the layout upgrade of older stores). */
export function ensureContentTokenKey(tx: StoreWriter): void {
  if (tx.get<string>(Tables.meta, KEY_ROW) === undefined) tx.put(Tables.meta, KEY_ROW, randomBytes(32).toString('hex'));
}

const sign = (key: string, payload: string) => createHmac('sha256', Buffer.from(key, 'hex')).update(payload).digest();

/** A token reading `space`'s published content until `now` + 1 hour; undefined on a store without its secret. */
export function mintPublishedToken(reader: StoreReader, scope: { site: string; space: string; organization: string }, now: Date): string | undefined {
  const key = reader.get<string>(Tables.meta, KEY_ROW);
  if (key === undefined) return undefined;
  const exp = Math.floor((now.getTime() + PUBLISHED_TOKEN_LIFETIME_MS) / 1000);
  const payload = Buffer.from(JSON.stringify({ s: scope.site, p: scope.space, o: scope.organization, e: exp })).toString('base64url');
  return `${PUBLISHED_TOKEN_PREFIX}${payload}.${sign(key, payload).toString('base64url')}`;
}

/** The actor of a well-signed published token (expiry is checked per request), else undefined. */
export function publishedTokenActor(reader: StoreReader, token: string): { userId: string; published: PublishedTokenScope } | undefined {
  if (!token.startsWith(PUBLISHED_TOKEN_PREFIX) || token.length > 2048) return undefined;
  const key = reader.get<string>(Tables.meta, KEY_ROW);
  const [payload, signature, extra] = token.slice(PUBLISHED_TOKEN_PREFIX.length).split('.');
  if (key === undefined || payload === undefined || signature === undefined || extra !== undefined) return undefined;
  const expected = sign(key, payload);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  let claims: { s?: unknown; p?: unknown; o?: unknown; e?: unknown };
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof claims;
  } catch {
    return undefined;
  }
  const { s, p, o, e } = claims;
  if (typeof s !== 'string' || typeof p !== 'string' || typeof o !== 'string' || typeof e !== 'number') return undefined;
  return { userId: `${READER_PREFIX}${p}`, published: { site: s, space: p, organization: o, expiresAt: new Date(e * 1000).toISOString() } };
}

/** The space a published token's user reads, or undefined for any other user id. */
export function publishedReaderSpace(userId: string): string | undefined {
  return userId.startsWith(READER_PREFIX) ? userId.slice(READER_PREFIX.length) : undefined;
}

/** The space's content reads a published token may make (paths under `/v1/spaces/{spaceId}`). */
const CONTENT_READ = /^\/v1\/spaces\/\{spaceId\}(?:\/(?:content|revisions|documents|search|files)(?:\/.*)?)?$/;

export function checkPublishedScope(
  reader: StoreReader,
  route: { id: string; method: string; path?: string; safe?: boolean | undefined },
  params: Readonly<Record<string, unknown>>,
  scope: PublishedTokenScope,
  now: Date,
): void {
  if (Date.parse(scope.expiresAt) <= now.getTime()) {
    throw new ApiError(401, `This published content token expired at ${scope.expiresAt}: resolve the URL again for a new one (getPublishedContentByUrl)`);
  }
  const site = reader.get<{ organization: string; published: boolean }>('sites', scope.site);
  const stillPublished = site !== undefined && site.published && site.organization === scope.organization && siteSpacesOfSpace.all(reader, scope.space).some((entry) => entry.value === scope.site);
  if (!stillPublished) throw new ApiError(401, `This published content token's site ${scope.site} no longer publishes space ${scope.space}`);
  const outside = () => forbidden(`A published content token only reads the content of space ${scope.space}: ${route.id} is outside it`);
  if (route.method !== 'GET' || route.safe === true) throw outside();
  if (typeof params.spaceId === 'string' && params.spaceId !== scope.space) throw notFound(`Space ${params.spaceId} not found`);
  if (typeof params.spaceId !== 'string' || route.path === undefined || !CONTENT_READ.test(route.path)) throw outside();
}
