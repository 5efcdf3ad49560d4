/**
 * Users (real API: `getUserById`, `updateUserById`) and docsctl's local accounts: users
 * and API tokens created on a store (the one `serve` serves included). GitBook makes
 * accounts in its app, so its API has no such operations: these are docsctl extensions
 * (`source: 'docsctl'`, paths under `/v1/x-docsctl/`), which only docsctl's local mode and
 * `serve` answer; against another server the commands say so in one line
 * (src/cli/missing-operation.ts). Who may call them is declared here like everywhere:
 * one's own tokens, anyone; another user's tokens and a user outside any organization,
 * the store's owner; a user made a member of an organization, its admins.
 */
import * as z from 'zod';
import { defineRoute } from '../route.js';
import { MemberRoleOrGuest, Url, listQuery, noQuery, pathParams } from '../schemas/common.js';

export const getUserById = defineRoute({
  id: 'getUserById',
  method: 'GET',
  path: '/v1/users/{userId}',
  summary: 'Get a user',
  source: 'real-api',
  access: 'none',
  params: pathParams('userId'),
  query: z.object({}),
});

export const updateUserById = defineRoute({
  id: 'updateUserById',
  method: 'PATCH',
  path: '/v1/users/{userId}',
  summary: 'Update a user by its ID',
  source: 'real-api',
  // One's own account; the store's owner administers the store's accounts.
  access: { role: 'owner', or: 'self' },
  params: pathParams('userId'),
  query: noQuery(),
  body: z
    .object({
      displayName: z.string().min(1).max(64).describe('full name (1 to 64 characters)'),
      photoURL: Url.describe("URL of the user's profile picture"),
    })
    .partial(),
  bodyRequired: true,
  cli: {
    command: 'user edit',
    summary: "Change a user's name or picture (your own; the store's owner: anyone's)",
    flags: { displayName: { flag: '--name <name>', description: 'display name (1 to 64 characters)' }, photoURL: { flag: '--photo-url <url>', description: "URL of the user's profile picture" } },
    nonEmptyBody: 'Nothing to change: pass --name or --photo-url',
    columns: 'user',
    examples: ['docsctl user edit 0VcD93aySsBg --name "Ada Lovelace"'],
  },
});

export const createUserNotificationsToken = defineRoute({
  id: 'createUserNotificationsToken',
  method: 'POST',
  path: '/v1/user/notifications/token',
  summary: 'Create a JWT to access the in-app notifications service',
  source: 'real-api',
  access: 'none',
  params: z.object({}),
  query: noQuery(),
  cli: {
    command: 'user notifications-token',
    summary: "Create a one-hour JWT naming you for the notifications service (HS256, signed with this store's key; docsctl runs no such service)",
    columns: 'temporaryToken',
    examples: ['docsctl user notifications-token --format ids'],
  },
});

// ─── docsctl extensions: local accounts ────────────────────────────────────

/** A new user of the store: an e-mail unique in the store, a display name (default: the e-mail's name part). */
const newUser = {
  email: z.string().describe('e-mail address (unique in the store)'),
  displayName: z.string().optional().describe('display name (default: the part of the e-mail before @)'),
};

export const createUser = defineRoute({
  id: 'createUser',
  method: 'POST',
  path: '/v1/x-docsctl/users',
  summary: 'Create a user of the store, member of no organization (docsctl extension)',
  source: 'docsctl',
  access: 'owner',
  params: z.object({}),
  query: noQuery(),
  body: z.object(newUser),
  bodyRequired: true,
  success: 201,
});

export const createUserInOrganization = defineRoute({
  id: 'createUserInOrganization',
  method: 'POST',
  path: '/v1/x-docsctl/orgs/{organizationId}/users',
  summary: 'Create a user of the store as a member of an organization (docsctl extension)',
  source: 'docsctl',
  access: 'admin',
  params: pathParams('organizationId'),
  query: noQuery(),
  body: z.object({ ...newUser, role: MemberRoleOrGuest.optional().describe('organization role (default read)') }),
  bodyRequired: true,
  success: 201,
  cli: {
    // Without --org and --role the command calls createUser (its hook, src/cli/commands/accounts.ts).
    command: 'user create',
    summary: 'Create a user in the local store, optionally as a member of an organization',
    flags: {
      email: { required: true },
      displayName: { flag: '--name <name>' },
      'params.organizationId': {
        flag: '--org <organizationId>',
        description: 'make the user a member of this organization (you must be its admin); with --role, default: your only organization',
      },
      role: { description: 'organization role (default read)', nullAs: 'guest' },
    },
    rawBody: false,
    columns: 'accountUser',
    examples: [
      'docsctl user create --email ada@acme.io --name "Ada Lovelace" --org 9fXk2hQ --role edit',
      'docsctl token create --user "$(docsctl user create --email ci@acme.io --org 9fXk2hQ --format ids)"',
    ],
  },
});

const tokenLabel = { label: z.string().optional().describe('what the token is for (default: cli)') };
/** A user by id or e-mail (the store's e-mails are unique). */
const tokenUser = pathParams('userId');

export const createTokenForAuthenticatedUser = defineRoute({
  id: 'createTokenForAuthenticatedUser',
  method: 'POST',
  path: '/v1/x-docsctl/user/tokens',
  summary: 'Issue an API token for the authenticated user; the answer is the only place it is shown (docsctl extension)',
  source: 'docsctl',
  access: 'none',
  params: z.object({}),
  query: noQuery(),
  body: z.object(tokenLabel),
  success: 201,
});

export const createTokenForUser = defineRoute({
  id: 'createTokenForUser',
  method: 'POST',
  path: '/v1/x-docsctl/users/{userId}/tokens',
  summary: 'Issue an API token for a user (id or e-mail); the answer is the only place it is shown (docsctl extension)',
  source: 'docsctl',
  access: { role: 'owner', or: 'self' },
  params: tokenUser,
  query: noQuery(),
  body: z.object(tokenLabel),
  success: 201,
  cli: {
    // Without --user the command calls createTokenForAuthenticatedUser (its hook).
    command: 'token create',
    summary: 'Issue an API token for you (or, as the store owner, for --user); it is printed once',
    flags: { 'params.userId': { flag: '--user <user>', description: 'user id or e-mail (default: you)' } },
    rawBody: false,
    columns: 'newToken',
    examples: ['docsctl token create --label laptop', 'export DOCSCTL_TOKEN="$(docsctl token create --user ci@acme.io --label ci --format ids)"'],
  },
});

export const listTokensForAuthenticatedUser = defineRoute({
  id: 'listTokensForAuthenticatedUser',
  method: 'GET',
  path: '/v1/x-docsctl/user/tokens',
  summary: "List the authenticated user's API tokens: ids and labels, never the tokens (docsctl extension)",
  source: 'docsctl',
  access: 'none',
  params: z.object({}),
  query: listQuery(),
  paginated: true,
});

export const listTokensForUser = defineRoute({
  id: 'listTokensForUser',
  method: 'GET',
  path: '/v1/x-docsctl/users/{userId}/tokens',
  summary: "List a user's API tokens: ids and labels, never the tokens (docsctl extension)",
  source: 'docsctl',
  access: { role: 'owner', or: 'self' },
  params: tokenUser,
  query: listQuery(),
  paginated: true,
  cli: {
    command: 'token list',
    summary: "List your tokens (or, as the store owner, --user's): ids and labels, never the tokens",
    aliases: ['ls'],
    flags: { 'params.userId': { flag: '--user <user>', description: 'user id or e-mail (default: you)' } },
    columns: 'token',
    noun: 'token',
    examples: ['docsctl token list', 'docsctl token list --user ci@acme.io --json'],
  },
});

export const revokeToken = defineRoute({
  id: 'revokeToken',
  method: 'DELETE',
  path: '/v1/x-docsctl/tokens/{tokenId}',
  summary: "Revoke an API token by its id: one's own, or as the store's owner anyone's (docsctl extension)",
  source: 'docsctl',
  // Whose token it is depends on the data: the handler answers 404 for another user's (unless the caller owns the store).
  access: 'none',
  params: pathParams('tokenId'),
  query: noQuery(),
  // The revoked token's id, label and user: what the command prints.
  success: 200,
  cli: {
    command: 'token revoke',
    summary: 'Revoke a token by its id (see "token list"); it stops working at once',
    argHelp: { tokenId: 'token id (16 hex characters)' },
    output: 'object',
    columns: 'token',
    examples: ['docsctl token revoke 3f9a0c1d2e4b5a69'],
  },
});
