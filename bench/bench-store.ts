/**
 * The start of every bench store generator: a fresh store (not durable: generation
 * speed, not crash safety; the measured commands do fsync) with a bootstrapped
 * organization, and `run` to call an operation in process as its admin.
 */
import type { RouteId } from '../src/api/route-id.js';
import { getRoute } from '../src/api/table.js';
import { bootstrap } from '../src/domain/bootstrap.js';
import { executeOperation } from '../src/domain/execute.js';
import { createStore } from '../src/store/index.js';
import { systemClock } from '../src/util/clock.js';
import { timeOrderedIds } from '../src/util/ids.js';

export async function benchStore(dir: string) {
  const store = createStore(dir, { durable: false });
  const ids = timeOrderedIds(); // as the CLI and serve make them
  const clock = systemClock;
  const origin = 'http://127.0.0.1:4000';
  const { user, organization, token } = await store.transact((tx) =>
    bootstrap(tx, { organizationTitle: 'Bench', userName: 'Bench', email: 'bench@example.com', clock, ids, origin }),
  );
  const env = { store, actor: { userId: user.id }, clock, ids, origin };
  const run = async (id: RouteId, input: object) => (await executeOperation(env, getRoute(id), input)).body as Record<string, unknown>;
  return { store, ids, clock, origin, user, organization, token, env, run };
}
