/**
 * Who is calling `serve`: the bearer token of a request → the user it belongs to.
 * The lookup itself is the domain's (`userIdForToken`: sha256 of the token in
 * the `tokens` table, and the user must still exist), so `serve` and
 * `LocalTransport --token` accept exactly the same tokens.
 */
import { actorForToken } from '../domain/auth.js';
import type { Actor } from '../domain/handler.js';
import { Tables } from '../domain/core-records.js';
import type { StoreReader } from '../store/types.js';

export { hashToken } from '../domain/auth.js';

/** The server's default `resolveActor`: a user, or an installation token's narrowed user. */
export function resolveTokenUser(token: string, reader: StoreReader): Actor | undefined {
  return actorForToken(reader, token);
}

/**
 * What `resolveTokenUser`'s answer depends on: the versions of the `tokens` and `users`
 * tables (undefined when the reader cannot tell). Same value, same answer for a token.
 */
export function tokenTablesVersion(reader: StoreReader): string | undefined {
  const tokens = reader.tableVersion?.(Tables.tokens);
  const users = reader.tableVersion?.(Tables.users);
  return tokens === undefined || users === undefined ? undefined : `${tokens} ${users}`;
}

/** The token of an `Authorization: Bearer <token>` header, or undefined when absent or another scheme. */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^\s*Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : undefined;
}
