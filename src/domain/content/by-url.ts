/**
 * getContentByUrl: an app URL back to what it shows, the inverse of the `urls.app` values the
 * views build (src/domain/urls.ts, content/views.ts): `…/o/ORG/c/COLLECTION` is a collection;
 * `…/o/ORG/s/SPACE` a space, followed by `~/changes/CR` (a change request, by id or number) or
 * `~/revisions/REV` (a past revision), then a page path. GitBook's own app URLs have the same
 * shape, with or without the `/o/ORG` prefix; the host and anything before `/o/` or `/s/` are
 * ignored, so a URL from another docsctl server or from app.gitbook.com resolves the same ids.
 *
 * The URL is the caller's input: it is parsed, never fetched; an object the caller cannot read
 * (or an organization that does not match the object's) answers 404 like a missing one.
 */
import { badRequest, notFound } from '../../api/errors.js';
import type * as routes from '../../api/routes/content.js';
import { implementer } from '../handler.js';
import { collectionAccess } from '../permissions.js';
import { collectionView, spaceView } from '../views.js';
import { changeRequestFor, primaryRevision, scopeOf, spaceFor } from './common.js';
import { requireRevisionRecord } from './change-request-records.js';
import { crView, pageByPathAnswer, revisionById } from './revisions.js';

const on = implementer<typeof routes>();

interface AppLocation {
  organization?: string;
  collection?: string;
  space?: string;
  changeRequest?: string;
  revision?: string;
  /** The page path, without leading or trailing slashes ('' for none). */
  pagePath: string;
}

/**
 * An http(s) URL a caller gives and its decoded path segments, or a 400 naming what is wrong;
 * `example` shows a URL of the kind expected (getContentByUrl here, published URLs in
 * sites/published-urls.ts). The URL is parsed, never fetched.
 */
export function parseUrlPath(raw: string, example: string): { url: URL; segments: string[] } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badRequest(`Invalid query field "url": "${raw.slice(0, 100)}" is not an absolute URL; pass ${example}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badRequest(`Invalid query field "url": only http and https URLs name content, not ${url.protocol}`);
  try {
    return { url, segments: url.pathname.split('/').filter((segment) => segment !== '').map((segment) => decodeURIComponent(segment)) };
  } catch {
    throw badRequest('Invalid query field "url": its path has a malformed percent-encoding');
  }
}

/** Where in the app `raw` points, or a 400 when it is not an app URL of a space or collection. */
export function parseAppUrl(raw: string): AppLocation {
  const parts = parseUrlPath(raw, 'an app URL such as https://app.gitbook.com/o/ORG/s/SPACE/page').segments;
  // The first `o/ORG/s|c/` (or, in older GitBook URLs, `s/`): what comes before it (`/app`, a base path) is the server's.
  let at = parts.findIndex((segment, i) => (segment === 'o' && (parts[i + 2] === 's' || parts[i + 2] === 'c')) || segment === 's');
  if (at < 0) throw badRequest('Invalid query field "url": it names no space or collection (expected …/o/ORG/s/SPACE… or …/o/ORG/c/COLLECTION)');
  const out: AppLocation = { pagePath: '' };
  if (parts[at] === 'o') {
    out.organization = parts[at + 1];
    at += 2;
  }
  const kind = parts[at];
  const id = parts[at + 1];
  if (id === undefined || id === '') throw badRequest(`Invalid query field "url": the ${kind === 'c' ? 'collection' : 'space'} id is missing after /${kind}/`);
  if (kind === 'c') {
    if (parts.length > at + 2) throw badRequest('Invalid query field "url": a collection URL ends with its id');
    out.collection = id;
    return out;
  }
  out.space = id;
  let rest = parts.slice(at + 2);
  if (rest[0] === '~') {
    const [, what, which] = rest;
    if (which === undefined || (what !== 'changes' && what !== 'revisions')) {
      throw badRequest('Invalid query field "url": after /~/ expected changes/CR or revisions/REVISION');
    }
    if (what === 'changes') out.changeRequest = which;
    else out.revision = which;
    rest = rest.slice(3);
  }
  out.pagePath = rest.join('/');
  return out;
}

export const contentByUrlHandlers = {
  ...on('getContentByUrl', (ctx, { query }) => {
    const where = parseAppUrl(query.url);
    if (where.collection !== undefined) {
      const { collection, role } = collectionAccess(ctx.tx, where.collection, ctx.actor.userId);
      if (where.organization !== undefined && where.organization !== collection.organization) throw notFound(`Collection ${where.collection} not found`);
      return { collection: collectionView(ctx, collection, role) };
    }
    const spaceId = where.space as string;
    const { space, role } = spaceFor(ctx.tx, ctx, spaceId);
    if (where.organization !== undefined && where.organization !== space.organization) throw notFound(`Space ${spaceId} not found`);
    const answer: Record<string, unknown> = { space: spaceView(ctx, space, role) };
    let revision = primaryRevision(ctx.tx, space);
    let scope = scopeOf(ctx, space);
    if (where.changeRequest !== undefined) {
      const { cr } = changeRequestFor(ctx.tx, ctx, space.id, where.changeRequest);
      answer.changeRequest = crView(ctx.tx, ctx, space, cr);
      revision = requireRevisionRecord(ctx.tx, space.id, cr.revision);
      scope = scopeOf(ctx, space, cr);
    } else if (where.revision !== undefined) {
      revision = revisionById(ctx.tx, space, where.revision);
    }
    if (where.pagePath !== '') answer.page = pageByPathAnswer(ctx.tx, revision, scope, where.pagePath, {});
    return answer;
  }),
};
