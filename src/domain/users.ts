/**
 * `getUserById`: a user you share an organization with (or yourself). Anyone
 * else is "not found", as the real API hides users a caller cannot see.
 * `updateUserById`: one's own name and picture (the store's owner: anyone's; the
 * route's access). The store's local accounts (users, tokens): accounts.ts.
 */
import type * as routes from '../api/routes/users.js';
import { badRequest, notFound } from '../api/errors.js';
import { createHmac } from 'node:crypto';
import type { StoreReader, StoreWriter } from '../store/types.js';
import { newToken } from '../util/ids.js';
import { implementer } from './handler.js';
import { refreshTeamRows } from './teams-records.js';
import { roleIn } from './permissions.js';
import { Tables, type UserRecord, getUser, putUser, requireUser, userIdByEmail, userOrgList } from './core-records.js';
import { userView } from './views.js';

const on = implementer<typeof routes>();

/** How long a notifications token works. */
const NOTIFICATIONS_TOKEN_TTL_S = 60 * 60;
/** The store's key for notifications tokens (meta row, made on first use). */
const NOTIFICATIONS_KEY = 'notificationsKey';

const base64url = (data: string | Buffer) => Buffer.from(data).toString('base64url');

/**
 * The real API hands the in-app notifications client a JWT naming the user. docsctl runs
 * no notifications service: the token is a standard HS256 JWT (`sub` the user, `aud`
 * "notifications", one hour), signed with a key this store keeps, so a service of one's
 * own can check it (the key is the meta row `notificationsKey`).
 */
function notificationsToken(tx: StoreWriter, userId: string, now: Date, jti: string, issuer: string): string {
  let key = tx.get<string>(Tables.meta, NOTIFICATIONS_KEY);
  if (key === undefined) {
    key = newToken();
    tx.put(Tables.meta, NOTIFICATIONS_KEY, key);
  }
  const iat = Math.floor(now.getTime() / 1000);
  const head = `${base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${base64url(JSON.stringify({ sub: userId, aud: 'notifications', iss: issuer, iat, exp: iat + NOTIFICATIONS_TOKEN_TTL_S, jti }))}`;
  return `${head}.${createHmac('sha256', key).update(head).digest('base64url')}`;
}

export const userHandlers = {
  ...on('createUserNotificationsToken', (ctx) => {
    const user = requireUser(ctx.tx, ctx.actor.userId);
    return { token: notificationsToken(ctx.tx, user.id, ctx.clock(), ctx.ids(), ctx.origin) };
  }),

  ...on('getUserById', (ctx, { params }) => {
    const user = getUser(ctx.tx, params.userId);
    const visible =
      user !== undefined &&
      (user.id === ctx.actor.userId ||
        userOrgList.all(ctx.tx, ctx.actor.userId).map((entry) => entry.id).some((orgId) => roleIn(ctx.tx, orgId, ctx.actor.userId) !== undefined && roleIn(ctx.tx, orgId, user.id) !== undefined));
    if (!user || !visible) throw notFound(`User ${params.userId} not found`);
    return userView(ctx, user);
  }),

  ...on('updateUserById', (ctx, { params, body }) => {
    if (body.displayName === undefined && body.photoURL === undefined) throw badRequest('Nothing to update: pass displayName or photoURL');
    const user = findUser(ctx.tx, params.userId);
    const updated: UserRecord = { ...user };
    if (body.displayName !== undefined) {
      const name = body.displayName.trim();
      if (name.length === 0) throw badRequest('Invalid displayName: it must be 1 to 64 characters long');
      updated.displayName = name;
    }
    if (body.photoURL !== undefined) updated.photoURL = body.photoURL;
    putUser(ctx.tx, updated);
    // Team rows copy the user record (teams-records.ts): refreshed in each of their (few) organizations.
    for (const { id: orgId } of userOrgList.all(ctx.tx, user.id)) refreshTeamRows(ctx.tx, orgId, user.id);
    return userView(ctx, updated);
  }),
};

/** A user of the store by id or e-mail (docsctl's account routes take either); 404 naming what was looked for. */
export function findUser(tx: StoreReader, idOrEmail: string): UserRecord {
  const byId = idOrEmail.includes('@') ? undefined : getUser(tx, idOrEmail);
  const id = byId ? byId.id : userIdByEmail(tx, idOrEmail);
  const user = id === undefined ? undefined : getUser(tx, id);
  if (!user) throw notFound(`User ${idOrEmail} not found in this store`);
  return user;
}
