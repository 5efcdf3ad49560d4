/**
 * Creating a store's first state (`docsctl init`): an organization, its admin
 * user, an API token, and `meta.store`. Also issues further tokens.
 *
 * Tokens: only their SHA-256 is stored (`tokens` table); the plain token is
 * returned once and cannot be recovered from the store.
 */
import { conflict } from '../api/errors.js';
import { markLayout } from './layout.js';
import type { StoreWriter } from '../store/types.js';
import type { Clock } from '../util/clock.js';
import type { IdGenerator } from '../util/ids.js';
import { checkEmail, issueToken } from './accounts.js';
import { checkOrganizationTitle, newOrganization } from './orgs.js';
import { type StoreMeta, Tables, ensureUser, getMeta } from './core-records.js';
import { type OrganizationView, type UserView, organizationView, userView } from './views.js';

export interface BootstrapOptions {
  organizationTitle: string;
  userName: string;
  email: string;
  clock: Clock;
  ids: IdGenerator;
  origin: string;
}

export interface BootstrapResult {
  organization: OrganizationView;
  user: UserView;
  token: string;
}

export function bootstrap(tx: StoreWriter, opts: BootstrapOptions): BootstrapResult {
  const meta = getMeta(tx);
  if (meta) {
    throw conflict(`This store is already initialized (created ${meta.createdAt}); nothing was changed`);
  }
  checkOrganizationTitle(opts.organizationTitle);
  const email = checkEmail(opts.email);

  const now = opts.clock().toISOString();
  const orgId = opts.ids();
  const { user } = ensureUser(tx, { email, displayName: opts.userName }, opts.ids, now);
  const org = newOrganization(tx, { id: orgId, title: opts.organizationTitle, emailDomains: [], admin: user.id, now });
  const token = createToken(tx, user.id, 'init', opts.clock);
  const storeMeta: StoreMeta = { createdAt: now, owner: user.id };
  tx.put(Tables.meta, 'store', storeMeta);
  markLayout(tx);

  const view = { origin: opts.origin };
  return { organization: organizationView(view, org, 'admin'), user: userView(view, user), token };
}

/** Issues a new API token for `userId` and returns it (only its hash is stored; see accounts.ts). */
export function createToken(tx: StoreWriter, userId: string, label: string, clock: Clock): string {
  return issueToken(tx, userId, label, clock).token;
}
