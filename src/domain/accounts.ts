/**
 * Local accounts: organizations, users and API tokens created on a local store
 * (the store `serve` serves included). These are not /v1 operations — the real
 * API has no route for them — so the CLI calls these functions directly inside
 * a store transaction (`docsctl org create`, `user create`, `token …`).
 *
 * Who may do what (the actor is the `--token` user, or the store's owner):
 * - anyone may create an organization; they become its admin;
 * - creating a user as a member of an organization needs the `admin` role there
 *   (another organization's id answers 404, as everywhere);
 * - a user manages their own tokens; the store's owner (who holds the store's
 *   files anyway) may issue, list and revoke tokens of any user.
 *
 * A token is printed once; the store keeps its SHA-256 (`tokens`) and, per user,
 * a row per token (`userTokens`, a KeyedSet) holding its public id, label and
 * date, so listing a user's tokens reads only their rows.
 *
 * Local accounts
 *
 * `src/domain/accounts.ts` creates organizations, users and tokens of a local store. The real API
 * has no such operations, so they are not routes: `src/cli/commands/accounts.ts` (`org create`,
 * `user create`, `token …`) runs them in one store transaction as the `--token` user or the store's
 * owner. A token's SHA-256 keys `tokens` (what `serve` and `--token` check); a `userTokens`
 * KeyedSet row per token (`${userId}/${tokenId}`, id = the hash's first 16 hex characters) lets
 * `token list` read only that user's rows and `token revoke` find the token by id.
 */
import { badRequest, conflict, forbidden, notFound } from '../api/errors.js';
import type { StoreReader, StoreWriter } from '../store/types.js';
import type { Clock } from '../util/clock.js';
import { type IdGenerator, newToken } from '../util/ids.js';
import { hashToken, storeOwner } from './auth.js';
import { KeyedSet } from './ordered.js';
import { orgAccess, requireRole } from './permissions.js';
import {
  MEMBER_ROLES,
  type OrgRecord,
  type Role,
  Tables,
  type TokenRecord,
  type UserRecord,
  addMember,
  ensureUser,
  getUser,
  putOrg,
  userIdByEmail,
} from './core-records.js';
import { type OrganizationView, type UserView, organizationView, userView } from './views.js';

export interface AccountContext {
  tx: StoreWriter;
  /** The acting user. */
  actor: string;
  clock: Clock;
  ids: IdGenerator;
  origin: string;
}

/** One row per token of a user: `${userId}/${tokenId}`. */
export interface UserTokenRow {
  id: string;
  label: string;
  createdAt: string;
}

export interface TokenInfo extends UserTokenRow {
  user: string;
}

export const userTokens = new KeyedSet<UserTokenRow>('userTokens');

const EMAIL = /^[^\s@]+@[^\s@]+$/;
/** Hex characters of the token hash shown as its public id. */
const TOKEN_ID_LENGTH = 16;

export function checkEmail(email: string): string {
  const trimmed = email.trim();
  if (!EMAIL.test(trimmed)) throw badRequest(`Invalid e-mail address "${email}": expected name@domain`);
  return trimmed;
}

export function checkOrganizationTitle(title: string): string {
  const trimmed = title.trim();
  if (trimmed.length < 2 || trimmed.length > 255) {
    throw badRequest('Invalid organization title: it must be 2 to 255 characters long');
  }
  return trimmed;
}

/** A role name as typed on the command line: one of MEMBER_ROLES, or `guest` (null). */
export function parseRole(value: string): Role {
  if (value === 'guest') return null;
  if ((MEMBER_ROLES as readonly string[]).includes(value)) return value as Role;
  throw badRequest(`Invalid role "${value}": use one of ${[...MEMBER_ROLES, 'guest'].join(', ')}`);
}

/** A user by id or e-mail; 404 naming what was looked for. */
export function findUser(tx: StoreReader, idOrEmail: string): UserRecord {
  const byId = idOrEmail.includes('@') ? undefined : getUser(tx, idOrEmail);
  const id = byId ? byId.id : userIdByEmail(tx, idOrEmail);
  const user = id === undefined ? undefined : getUser(tx, id);
  if (!user) throw notFound(`User ${idOrEmail} not found in this store`);
  return user;
}

// ─── Organizations and users ──────────────────────────────────────────────

export function createOrganization(ctx: AccountContext, input: { title: string }): OrganizationView {
  const title = checkOrganizationTitle(input.title);
  getUserOrThrow(ctx.tx, ctx.actor);
  const now = ctx.clock().toISOString();
  const org: OrgRecord = {
    id: ctx.ids(),
    title,
    createdAt: now,
    type: 'business',
    plan: 'free',
    emailDomains: [],
    inviteLinks: false,
    mergeRules: { type: 'none' },
  };
  putOrg(ctx.tx, org);
  addMember(ctx.tx, org.id, ctx.actor, { role: 'admin', joinedAt: now, sso: false, disabled: false });
  return organizationView(ctx, org, 'admin');
}

export interface CreateUserInput {
  email: string;
  name?: string | undefined;
  /** Make the user a member of this organization… */
  organization?: string | undefined;
  /** …with this role (default `read`). */
  role?: Role | undefined;
}

export function createUser(ctx: AccountContext, input: CreateUserInput): UserView & { organization?: string; role?: Role } {
  const email = checkEmail(input.email);
  if (input.role !== undefined && input.organization === undefined) {
    throw badRequest('A role needs an organization: pass --org ORG with --role');
  }
  const existing = userIdByEmail(ctx.tx, email);
  if (existing !== undefined) {
    throw conflict(`A user with the e-mail ${email} already exists (${existing}); use "member invite" to add them to an organization`);
  }
  let org: OrgRecord | undefined;
  if (input.organization !== undefined) {
    const access = orgAccess(ctx.tx, input.organization, ctx.actor);
    requireRole(access.role, 'admin', access.org.id, 'add users to it');
    org = access.org;
  }
  const now = ctx.clock().toISOString();
  const { user } = ensureUser(ctx.tx, { email, displayName: input.name }, ctx.ids, now);
  const view = userView(ctx, user);
  if (!org) return view;
  const role: Role = input.role === undefined ? 'read' : input.role;
  addMember(ctx.tx, org.id, user.id, { role, joinedAt: now, sso: false, disabled: false });
  return { ...view, organization: org.id, role };
}

function getUserOrThrow(tx: StoreReader, id: string): UserRecord {
  const user = getUser(tx, id);
  if (!user) throw notFound(`User ${id} not found in this store`);
  return user;
}

// ─── Tokens ───────────────────────────────────────────────────────────────

/** The user whose tokens the actor manages: themselves, or anyone when the actor owns the store. */
function tokenSubject(ctx: Pick<AccountContext, 'tx' | 'actor'>, user: string | undefined): UserRecord {
  const subject = user === undefined ? getUserOrThrow(ctx.tx, ctx.actor) : findUser(ctx.tx, user);
  if (subject.id !== ctx.actor && storeOwner(ctx.tx) !== ctx.actor) {
    throw forbidden(`Only ${subject.email === undefined ? 'the user' : subject.email} or the store's owner can manage these tokens`);
  }
  return subject;
}

/** Stores a new token for `userId` and returns it with its public id (the plain token exists only in the answer). */
export function issueToken(tx: StoreWriter, userId: string, label: string, clock: Clock): { token: string; row: UserTokenRow } {
  const token = newToken();
  const hash = hashToken(token);
  const createdAt = clock().toISOString();
  const record: TokenRecord = { userId, createdAt, label };
  tx.put(Tables.tokens, hash, record);
  const row: UserTokenRow = { id: hash.slice(0, TOKEN_ID_LENGTH), label, createdAt };
  userTokens.put(tx, userId, row.id, row);
  return { token, row };
}

export function createTokenFor(
  ctx: AccountContext,
  input: { user?: string | undefined; label?: string | undefined },
): TokenInfo & { token: string } {
  const subject = tokenSubject(ctx, input.user);
  const label = (input.label ?? 'cli').trim();
  if (label.length === 0 || label.length > 100) throw badRequest('Invalid token label: it must be 1 to 100 characters long');
  const { token, row } = issueToken(ctx.tx, subject.id, label, ctx.clock);
  return { ...row, user: subject.id, token };
}

export function listTokens(ctx: Pick<AccountContext, 'tx' | 'actor'>, input: { user?: string | undefined }): TokenInfo[] {
  const subject = tokenSubject(ctx, input.user);
  return userTokens.all(ctx.tx, subject.id).map(({ value }) => ({ ...value, user: subject.id }));
}

/** Revokes a token by its public id (a token's own user, or the store's owner). */
export function revokeToken(ctx: Pick<AccountContext, 'tx' | 'actor'>, tokenId: string): TokenInfo {
  if (!/^[0-9a-f]{16}$/.test(tokenId)) {
    throw badRequest(`Invalid token id "${tokenId}": pass the ID column of "docsctl token list" (16 hex characters)`);
  }
  const found = ctx.tx.scan<TokenRecord>(Tables.tokens, { prefix: tokenId, limit: 2 });
  const isOwner = storeOwner(ctx.tx) === ctx.actor;
  const match = found.find(([, record]) => isOwner || record.userId === ctx.actor);
  // Someone else's token is "not found" too: ids of other users' tokens do not leak.
  if (!match) throw notFound(`Token ${tokenId} not found (see "docsctl token list")`);
  const [hash, record] = match;
  ctx.tx.delete(Tables.tokens, hash);
  const row = userTokens.get(ctx.tx, record.userId, tokenId);
  userTokens.remove(ctx.tx, record.userId, tokenId);
  return { id: tokenId, label: row?.label ?? record.label, createdAt: record.createdAt, user: record.userId };
}
