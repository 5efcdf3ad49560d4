/**
 * Invite links of an organization: a secret link whose holder joins the organization
 * with the link's role (`joinOrganizationWithInvite`).
 *
 * Rules decided here:
 * - The invite's id is its secret: two ids (time-ordered: 8 characters of creation
 *   time, then ~71 random bits each, ≈ 142 random bits), so a link cannot be guessed,
 *   and links still sort by creation time. Only admins list, create, change and delete
 *   links; anyone holding a link may read it (`redundant` then tells them whether
 *   joining would give them anything) and join with it.
 * - A missing organization and a missing link give the same 404 to a caller who is
 *   not a member, so a link never tells whether an organization exists.
 * - Links work only while the organization's `inviteLinks` setting is on: creating
 *   one is a 409 and joining a 403 while it is off (`docsctl org edit --invite-links`).
 * - Joining makes the caller a member with the link's role. A member who joins again
 *   keeps their membership: only a higher role than theirs raises it (joining twice
 *   changes nothing); a disabled member stays disabled (403).
 * - Invites to a space or a collection (`level` with `space`/`collection`) need
 *   per-space permissions, which docsctl does not have: 501, naming what works.
 *
 * Invite links, custom fonts, the API's information
 *
 * Invite links (`src/domain/invite-links.ts`) are rows of the `orgInviteLinks` KeyedSet (owner the
 * organization, id the link's id). The id is the link's secret: two time-ordered ids (≈ 142 random
 * bits), so links cannot be guessed and still list in creation order. Their routes give their
 * management to admins, and `getOrganizationInviteLink`/`joinOrganizationWithInvite` to anyone
 * (`none`): holding the id is the permission, and an unknown organization or link is the same 404.
 * Joining adds the caller with the link's role (`addMember`), or raises an existing member's lower
 * role (`putMember`, which refreshes their team rows); joining again writes nothing. Links work while
 * the organization's `inviteLinks` is on. Links to a space or a collection answer 501 (no per-space
 * permissions yet). Custom fonts (`src/domain/fonts.ts`) are rows of `orgFonts`, one per font with its
 * faces (at most 100, one per weight, always a 400). docsctl has no file storage, so a face's
 * `storageKey` is the font file's URL: https (http on a loopback host), .woff2/.woff, no credentials,
 * checked and never fetched. `getApiInformation` (`GET /v1/`) answers the package version and the
 * build date `scripts/build.mjs` injects (the built commit's date, or `SOURCE_DATE_EPOCH`; running
 * from the sources, `development`).
 */
import { ApiError, badRequest, conflict, forbidden, notFound } from '../api/errors.js';
import type * as routes from '../api/routes/invite-links.js';
import type { StoreReader } from '../store/types.js';
import { type Handler, Reply, deleted, implementer, nothingToDelete } from './handler.js';
import { putMember } from './members.js';
import { KeyedSet } from './ordered.js';
import { orgAccess, rank, roleIn } from './permissions.js';
import { type OrgRecord, type Role, addMember, getMember, getOrg } from './core-records.js';

export interface InviteLinkRecord {
  id: string;
  /** The role a member who joins with the link gets (null: guest). */
  role: Role;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
}

/** An organization's invite links, by id (creation order: ids start with their creation time). */
export const orgInviteLinks = new KeyedSet<InviteLinkRecord>('orgInviteLinks');

export interface InviteLinkView {
  object: 'invite';
  id: string;
  role: Role;
  redundant: boolean;
}

/** The link as `InviteLinkToOrganization`; redundant when the caller's role already reaches the link's. */
export function inviteLinkView(link: InviteLinkRecord, callerRole: Role | undefined): InviteLinkView {
  return { object: 'invite', id: link.id, role: link.role, redundant: callerRole !== undefined && rank(callerRole) >= rank(link.role) };
}

/** The same answer for an unknown organization and an unknown link: a link never tells that an organization exists. */
const noSuchLink = (orgId: string) =>
  notFound(`Invite link not found in organization ${orgId}: it was deleted, or the link is incomplete`);

/** The organization and the link named by a request, whoever the caller is. */
function findLink(tx: StoreReader, orgId: string, inviteId: string): { org: OrgRecord; link: InviteLinkRecord } {
  const org = getOrg(tx, orgId);
  const link = org ? orgInviteLinks.get(tx, org.id, inviteId) : undefined;
  if (!org || !link) throw noSuchLink(orgId);
  return { org, link };
}

/** A link of the caller's organization (the routes that use this need `admin`: checked before the handler). */
function adminLink(tx: StoreReader, orgId: string, inviteId: string, userId: string) {
  const { org, role } = orgAccess(tx, orgId, userId);
  const link = orgInviteLinks.get(tx, org.id, inviteId);
  return { org, role, link };
}

// The message says what works: an error body carries no hint.
const perSpaceInvites = () =>
  new ApiError(
    501,
    'Invite links to a space or a collection are not implemented (docsctl has no per-space permissions yet): create an organization invite link, {"role": ROLE}',
  );

const on = implementer<typeof routes>();

export const inviteLinkHandlers: Record<string, Handler> = {
  ...on('listOrganizationInviteLinks', (ctx, { params, query }) => {
    const { org, role } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    return orgInviteLinks.page(ctx.tx, org.id, query, ({ value }) => inviteLinkView(value, role));
  }),

  ...on('createOrganizationInvite', (ctx, { params, body }) => {
    const { org, role } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    if (body.space !== undefined || body.collection !== undefined) throw perSpaceInvites();
    if (body.level !== undefined) throw badRequest('"level" goes with "space" or "collection": an organization invite takes "role"');
    if (body.role === undefined) throw badRequest('Missing "role": the role members who join with the link get (null for guests)');
    if (!org.inviteLinks) {
      throw conflict(`Invite links are disabled in organization ${org.id}: enable them first (docsctl org edit ${org.id} --invite-links)`);
    }
    const now = ctx.clock().toISOString();
    // Two ids: the secret (see the module's rules); handlers take randomness from ctx.ids only.
    const link: InviteLinkRecord = { id: `${ctx.ids()}${ctx.ids()}`, role: body.role, createdAt: now, createdBy: ctx.actor.userId, updatedAt: now };
    orgInviteLinks.put(ctx.tx, org.id, link.id, link);
    return new Reply(201, inviteLinkView(link, role));
  }),

  ...on('getOrganizationInviteLink', (ctx, { params }) => {
    const { org, link } = findLink(ctx.tx, params.organizationId, params.inviteId);
    return inviteLinkView(link, roleIn(ctx.tx, org.id, ctx.actor.userId));
  }),

  ...on('updateOrganizationInviteById', (ctx, { params, body }) => {
    const { org, role, link } = adminLink(ctx.tx, params.organizationId, params.inviteId, ctx.actor.userId);
    if (!link) throw noSuchLink(org.id);
    if (body.level !== undefined) throw badRequest('This is an organization invite link: pass "role", not "level"');
    if (body.role === undefined) throw badRequest('Nothing to update: pass "role" (null for guests)');
    if (body.role === link.role) return inviteLinkView(link, role);
    const updated: InviteLinkRecord = { ...link, role: body.role, updatedAt: ctx.clock().toISOString() };
    orgInviteLinks.put(ctx.tx, org.id, link.id, updated);
    return inviteLinkView(updated, role);
  }),

  ...on('deleteOrganizationInviteById', (ctx, { params }) => {
    const { org, link } = adminLink(ctx.tx, params.organizationId, params.inviteId, ctx.actor.userId);
    if (!link) return nothingToDelete();
    orgInviteLinks.remove(ctx.tx, org.id, link.id);
    return deleted();
  }),

  ...on('joinOrganizationWithInvite', (ctx, { params }) => {
    const { org, link } = findLink(ctx.tx, params.organizationId, params.inviteId);
    if (!org.inviteLinks) throw forbidden(`Invite links are disabled in organization ${org.id}: ask one of its admins to enable them`);
    const userId = ctx.actor.userId;
    const member = getMember(ctx.tx, org.id, userId);
    if (!member) {
      addMember(ctx.tx, org.id, userId, { role: link.role, joinedAt: ctx.clock().toISOString(), sso: false, disabled: false });
      return {};
    }
    if (member.disabled) throw forbidden(`Your membership of organization ${org.id} is disabled: one of its admins must enable it`);
    if (rank(link.role) > rank(member.role)) putMember(ctx.tx, org.id, userId, { ...member, role: link.role });
    return {};
  }),
};
