/**
 * `getUserById`: a user you share an organization with (or yourself). Anyone
 * else is "not found", as the real API hides users a caller cannot see.
 */
import type * as routes from '../api/routes/users.js';
import { notFound } from '../api/errors.js';
import { implementer } from './handler.js';
import { roleIn } from './permissions.js';
import { getUser, userOrgList } from './core-records.js';
import { userView } from './views.js';

const on = implementer<typeof routes>();

export const userHandlers = {
  ...on('getUserById', (ctx, { params }) => {
    const user = getUser(ctx.tx, params.userId);
    const visible =
      user !== undefined &&
      (user.id === ctx.actor.userId ||
        userOrgList.all(ctx.tx, ctx.actor.userId).map((entry) => entry.id).some((orgId) => roleIn(ctx.tx, orgId, ctx.actor.userId) !== undefined && roleIn(ctx.tx, orgId, user.id) !== undefined));
    if (!user || !visible) throw notFound(`User ${params.userId} not found`);
    return userView(ctx, user);
  }),
};
