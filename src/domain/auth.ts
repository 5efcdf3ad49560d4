/**
 * Who is calling: API tokens are looked up by their SHA-256 (plain tokens are
 * never stored), and the local CLI acts as the store's owner unless a token is
 * given (`serve` always requires one).
 */
import { createHash } from 'node:crypto';
import type { StoreReader } from '../store/types.js';
import type { Actor } from './handler.js';
import { PUBLISHED_TOKEN_PREFIX, publishedTokenActor } from './published-tokens.js';
import { Tables, type TokenRecord, getMeta, getUser } from './core-records.js';

/** The key of a token in the `tokens` table. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * The user a token belongs to, or undefined when the token is unknown (or its user is
 * gone), or is an installation token: those act only through `actorForToken`, so a
 * caller that does not narrow what a token may reach refuses them.
 */
export function userIdForToken(reader: StoreReader, token: string): string | undefined {
  const actor = actorForToken(reader, token);
  return actor && !actor.installation && !actor.published ? actor.userId : undefined;
}

/** Who calls with this token: a user, or a user narrowed to an integration installation (installation-scope.ts). */
export function actorForToken(reader: StoreReader, token: string): Actor | undefined {
  if (token.startsWith(PUBLISHED_TOKEN_PREFIX)) return publishedTokenActor(reader, token);
  const hash = hashToken(token);
  const record = reader.get<TokenRecord>(Tables.tokens, hash);
  if (!record || !getUser(reader, record.userId)) return undefined;
  // The token's public id is its hash's first 16 hex digits (accounts.ts), as `token list` shows it.
  const tokenId = hash.slice(0, 16);
  return record.installation ? { userId: record.userId, installation: record.installation, tokenId } : { userId: record.userId, tokenId };
}

/** The user created by `docsctl init` (`meta.store.owner`), or undefined on an uninitialized store. */
export function storeOwner(reader: StoreReader): string | undefined {
  return getMeta(reader)?.owner;
}
