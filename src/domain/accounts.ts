/**
 * Local accounts: users and API tokens of a store (the store `serve` serves included),
 * as docsctl's own routes (`src/api/routes/users.ts`, paths under `/v1/x-docsctl/`):
 * `user create` and `token create|list|revoke` go through the transport like every
 * command, so `serve` can seed users and tokens for CI over HTTP. Organizations are
 * created by the real API's `createOrganization` (src/domain/orgs.ts).
 *
 * Who may call what is declared with each route (src/domain/access.ts checks it): one's
 * own tokens, anyone; another user's tokens and a user outside any organization, the
 * store's owner (who holds the store's files anyway); a user made a member of an
 * organization, its admins. What depends on data stays here: revoking a token by id
 * finds it among the caller's own (every token, for the store's owner).
 *
 * A token is printed once; the store keeps its SHA-256 (`tokens`, what `serve` and
 * `--token` check) and, per user, a row per token (`userTokens`, a KeyedSet keyed
 * `${userId}/${tokenId}`, id = the hash's first 16 hex characters) holding its public id,
 * label and date, so listing a user's tokens reads only their rows and a page of them.
 */
import { badRequest, conflict, notFound } from '../api/errors.js';
import type * as routes from '../api/routes/users.js';
import type { StoreReader, StoreWriter } from '../store/types.js';
import type { Clock } from '../util/clock.js';
import { newToken } from '../util/ids.js';
import { hashToken, storeOwner } from './auth.js';
import { type Handler, type HandlerContext, implementer } from './handler.js';
import { KeyedSet } from './ordered.js';
import { type Role, Tables, type TokenRecord, type UserRecord, addMember, ensureUser, getUser, userIdByEmail } from './core-records.js';
import { findUser } from './users.js';
import { userView } from './views.js';

/** One row per token of a user: `${userId}/${tokenId}`. */
export interface UserTokenRow {
  id: string;
  label: string;
  createdAt: string;
}

/** A token as answers show it: never the token itself, but in the answer that issues it. */
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

// ─── Users ────────────────────────────────────────────────────────────────

/** A new user of the store (`createUser`), and as a member of an organization (`createUserInOrganization`). */
function newUser(ctx: HandlerContext, input: { email: string; displayName?: string | undefined }): UserRecord {
  const email = checkEmail(input.email);
  const existing = userIdByEmail(ctx.tx, email);
  if (existing !== undefined) {
    throw conflict(`A user with the e-mail ${email} already exists (${existing}); use "member invite" to add them to an organization`);
  }
  return ensureUser(ctx.tx, { email, displayName: input.displayName }, ctx.ids, ctx.clock().toISOString()).user;
}

// ─── Tokens ───────────────────────────────────────────────────────────────

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

function checkLabel(label: string | undefined): string {
  const trimmed = (label ?? 'cli').trim();
  if (trimmed.length === 0 || trimmed.length > 100) throw badRequest('Invalid token label: it must be 1 to 100 characters long');
  return trimmed;
}

const on = implementer<typeof routes>();

export const accountHandlers: Record<string, Handler> = {
  ...on('createUser', (ctx, { body }) => userView(ctx, newUser(ctx, body))),

  ...on('createUserInOrganization', (ctx, { params, body }) => {
    const organization = ctx.access.organizationId;
    if (organization === undefined) throw notFound(`Organization ${params.organizationId} not found`);
    const user = newUser(ctx, body);
    const role: Role = body.role === undefined ? 'read' : body.role;
    addMember(ctx.tx, organization, user.id, { role, joinedAt: ctx.clock().toISOString(), sso: false, disabled: false });
    return { ...userView(ctx, user), organization, role };
  }),

  ...on('createTokenForAuthenticatedUser', (ctx, { body }) => newTokenAnswer(ctx, requireUserById(ctx.tx, ctx.actor.userId), body.label)),
  // The caller is the user named, or the store's owner (the route's access).
  ...on('createTokenForUser', (ctx, { params, body }) => newTokenAnswer(ctx, findUser(ctx.tx, params.userId), body.label)),

  ...on('listTokensForAuthenticatedUser', (ctx, { query }) => tokenPage(ctx.tx, ctx.actor.userId, query)),
  ...on('listTokensForUser', (ctx, { params, query }) => tokenPage(ctx.tx, findUser(ctx.tx, params.userId).id, query)),

  ...on('revokeToken', (ctx, { params }) => {
    const tokenId = params.tokenId;
    if (!/^[0-9a-f]{16}$/.test(tokenId)) {
      throw badRequest(`Invalid token id "${tokenId}": pass the ID column of "docsctl token list" (16 hex characters)`);
    }
    const found = ctx.tx.scan<TokenRecord>(Tables.tokens, { prefix: tokenId, limit: 2 });
    // Data-dependent: one's own token, or any as the store's owner.
    const isOwner = storeOwner(ctx.tx) === ctx.actor.userId;
    const match = found.find(([, record]) => isOwner || record.userId === ctx.actor.userId);
    // Someone else's token is "not found" too: ids of other users' tokens do not leak.
    if (!match) throw notFound(`Token ${tokenId} not found (see "docsctl token list")`);
    const [hash, record] = match;
    ctx.tx.delete(Tables.tokens, hash);
    const row = userTokens.get(ctx.tx, record.userId, tokenId);
    userTokens.remove(ctx.tx, record.userId, tokenId);
    return { id: tokenId, label: row?.label ?? record.label, createdAt: record.createdAt, user: record.userId } satisfies TokenInfo;
  }),
};

function requireUserById(tx: StoreReader, id: string): UserRecord {
  const user = getUser(tx, id);
  if (!user) throw notFound(`User ${id} not found in this store`);
  return user;
}

function newTokenAnswer(ctx: HandlerContext, subject: UserRecord, label: string | undefined): TokenInfo & { token: string } {
  const { token, row } = issueToken(ctx.tx, subject.id, checkLabel(label), ctx.clock);
  return { ...row, user: subject.id, token };
}

function tokenPage(tx: StoreReader, userId: string, query: { page?: string | undefined; limit?: number | undefined }) {
  return userTokens.page(tx, userId, query, ({ value }): TokenInfo => ({ ...value, user: userId }));
}
