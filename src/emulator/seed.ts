/**
 * `serve --seed FILE`: a fresh store made into the organization an apply file describes
 * (src/orgcode/, the same planner and applier as `docsctl apply`, through a LocalTransport on
 * the new store), a token for its owner and one for each member the file names, and the
 * result saved as the `@seed` snapshot that `serve reset` goes back to.
 *
 * The file is parsed before anything is created (parseSeed): a wrong key is a one-line
 * error naming its line, and no store is left behind. A step that fails leaves a store the
 * caller removes (serve.ts creates it only in a directory it owns: new, or temporary).
 */
import { type Located, parseOrgFile } from '../orgcode/parse.js';
import { applyPlan } from '../orgcode/apply.js';
import { planOrganization } from '../orgcode/plan.js';
import { OrgState } from '../orgcode/state.js';
import { bootstrap } from '../domain/bootstrap.js';
import { SEED_SNAPSHOT, saveSnapshot } from '../domain/emulator.js';
import { LocalTransport } from '../transport/local.js';
import type { Store } from '../store/types.js';
import type { Clock } from '../util/clock.js';
import type { IdGenerator } from '../util/ids.js';

/** The seeded organization's title when the file gives none (`organization: {title}`), and its owner (the user `DOCSCTL_TOKEN` acts as). */
export const SEED_ORGANIZATION = 'Emulator';
export const SEED_OWNER = { name: 'Emulator Owner', email: 'owner@emulator.docsctl.test' };

export interface SeededUser {
  email: string;
  id: string;
  /** Their organization role (`guest` for the API's null). */
  role: string;
  token: string;
}

export interface Seeded {
  organizationId: string;
  owner: { id: string; email: string; token: string };
  users: SeededUser[];
}

export interface SeedOptions {
  /** Reads a file the seed names (an OpenAPI specification's source), relative to the seed file. */
  readSource?: ((path: string) => Promise<string>) | undefined;
  clock: Clock;
  ids: IdGenerator;
  origin: string;
}

/** The seed file checked whole (YAML or JSON, as `apply -f`): exit 2 naming the line on a mistake. */
export async function parseSeed(text: string, source: string): Promise<Located> {
  const seed = await parseOrgFile(text, source);
  await seed.lines(); // serve runs long: a planning error names its line at once
  return seed;
}

/** Makes the empty `store` the organization `seed` describes; see the module comment. */
export async function seedStore(store: Store, seed: Located, options: SeedOptions): Promise<Seeded> {
  const boot = await store.transact(
    (tx) =>
      bootstrap(tx, {
        organizationTitle: seed.file.organization?.title ?? SEED_ORGANIZATION,
        userName: SEED_OWNER.name,
        email: SEED_OWNER.email,
        clock: options.clock,
        ids: options.ids,
        origin: options.origin,
      }),
    { command: 'serve --seed' },
  );
  const organizationId = boot.organization.id;
  const transport = new LocalTransport({ store, clock: options.clock, ids: options.ids, origin: options.origin, token: boot.token });
  const plan = await planOrganization(seed, await OrgState.read(transport, organizationId), { prune: false, selfId: boot.user.id, readSource: options.readSource });
  await applyPlan(transport, plan, async () => undefined);

  const users: SeededUser[] = [];
  const members = (await OrgState.read(transport, organizationId)).members;
  for (const wanted of seed.file.members ?? []) {
    const member = members.find((m) => m.email.toLowerCase() === wanted.email.toLowerCase());
    if (!member) continue;
    const issued = await transport.request('createTokenForUser', { params: { userId: member.id }, body: { label: 'serve --seed' } });
    users.push({ email: member.email, id: member.id, role: member.role ?? 'guest', token: (issued.body as { token: string }).token });
  }
  await store.transact((tx) => saveSnapshot(tx, SEED_SNAPSHOT, options.clock().toISOString()), { command: 'serve --seed', alone: true });
  return { organizationId, owner: { id: boot.user.id, email: SEED_OWNER.email, token: boot.token }, users };
}
