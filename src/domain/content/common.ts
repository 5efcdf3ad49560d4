/**
 * What the content handlers share: access checks (a space and, optionally, one
 * of its change requests), the revision a request reads, and its scope for URLs.
 *
 * Access: reading content needs membership of the space's organization (any role,
 * `read` included); creating and editing change requests, importing, merging and
 * updating need `edit` (the role the space's `permissions.edit`/`merge` reflect).
 * A soft-deleted space answers 404 with a hint to restore it.
 */
import type { Role, RevisionRecord, SpaceRecord } from '../core-records.js';
import type { HandlerContext, PrepareContext } from '../handler.js';
import { activeSpaceAccess } from '../permissions.js';
import type { StoreReader } from '../../store/types.js';
import { type ChangeRequestRecord, requireChangeRequest, requireRevisionRecord } from './change-request-records.js';
import type { ContentScope } from './views.js';

export interface SpaceContentAccess {
  space: SpaceRecord;
  role: Role;
}

type AnyContext = Pick<HandlerContext, 'actor' | 'clock' | 'origin'>;

/**
 * The (active) space and the caller's role in its organization. The role the route
 * needs was checked before the handler ran (src/domain/access.ts): this finds the
 * space (404 when absent, expired or soft-deleted) and checks nothing more.
 */
export function spaceFor(tx: StoreReader, ctx: AnyContext, spaceId: string): SpaceContentAccess {
  const { space, role } = activeSpaceAccess(tx, spaceId, ctx.actor.userId, ctx.clock());
  return { space, role };
}

export interface ChangeRequestAccess extends SpaceContentAccess {
  cr: ChangeRequestRecord;
}

export function changeRequestFor(
  tx: StoreReader,
  ctx: AnyContext,
  spaceId: string,
  crParam: string,
): ChangeRequestAccess {
  const access = spaceFor(tx, ctx, spaceId);
  return { ...access, cr: requireChangeRequest(tx, access.space.id, crParam) };
}

export function primaryRevision(tx: StoreReader, space: SpaceRecord): RevisionRecord {
  return requireRevisionRecord(tx, space.id, space.revision);
}

export function scopeOf(ctx: Pick<HandlerContext, 'origin'>, space: SpaceRecord, cr?: ChangeRequestRecord): ContentScope {
  return {
    origin: ctx.origin,
    organization: space.organization,
    space: space.id,
    ...(cr ? { changeRequest: cr.id } : {}),
  };
}

/** `metadata` query (default true). */
export const metadataOf = (query: { metadata?: boolean | undefined }): boolean => query.metadata ?? true;

export type AnyHandlerContext = HandlerContext | PrepareContext;
