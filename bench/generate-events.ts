/**
 * Generates the integration-events benchmark: a file store with one published integration
 * installed on a space, and EVENTS events recorded for it (as the operations record them,
 * `recordEvent`, in batches of 1,000 per commit).
 * Usage (bundled by bench/run.mjs): node generate-events.mjs DIR EVENTS
 * Prints JSON: {organizationId, spaceId, installationId, token, seconds}.
 */
import { join } from 'node:path';
import { bootstrap } from '../src/domain/bootstrap.js';
import { addContentInstallation, addTarget, integrationInstallations } from '../src/domain/integration-records.js';
import { recordEvent } from '../src/domain/integration-events.js';
import { createStore } from '../src/store/index.js';
import { systemClock } from '../src/util/clock.js';
import { timeOrderedIds } from '../src/util/ids.js';

const [dir, eventsArg] = process.argv.slice(2);
if (!dir) throw new Error('usage: generate-events DIR EVENTS');
const events = Number(eventsArg ?? 10);
const started = Date.now();
const store = createStore(join(dir, 'store'), { durable: false });
const ids = timeOrderedIds();
const clock = systemClock;
const origin = 'http://127.0.0.1:4000';
const { organization, user, token } = await store.transact((tx) =>
  bootstrap(tx, { organizationTitle: 'Bench', userName: 'Bench', email: 'bench@example.com', clock, ids, origin }),
);
const spaceId = ids();
const installationId = ids();
const now = clock().toISOString();
await store.transact((tx) => {
  tx.put('integrations', 'notify', {
    name: 'notify', owner: organization.id, version: 1, title: 'Notify', description: 'Bench', runtime: 'v1', visibility: 'private', target: 'all',
    scopes: ['space:content:read'], categories: [], previewImages: [], blocks: [], contentSources: [], externalLinks: [], hasIcon: false,
    script: { bytes: 0, sha256: '' }, secretNames: [], createdAt: now, updatedAt: now,
  });
  integrationInstallations.put(tx, 'notify', installationId, {
    id: installationId, organization: organization.id, status: 'active', space_selection: 'selected', site_selection: 'selected', spaces: 1, sites: 0,
    configuration: {}, externalIds: [], installedBy: user.id, createdAt: now, updatedAt: now,
  });
  addTarget(tx, organization.id, 'organization', organization.id, 'notify', installationId);
  addContentInstallation(tx, 'space', organization.id, {
    integration: 'notify', installation: installationId, target: spaceId, status: 'active', configuration: {}, externalIds: [], createdAt: now, updatedAt: now,
  });
});
for (let start = 0; start < events; start += 1000) {
  await store.transact((tx) => {
    for (let i = start; i < Math.min(events, start + 1000); i++) {
      recordEvent({ clock, ids }, tx, 'notify', { type: 'space_content_updated', installationId, spaceId, revisionId: ids(), updatedBy: [] });
    }
  });
}
await store.close?.();
console.log(JSON.stringify({ organizationId: organization.id, spaceId, installationId, token, seconds: (Date.now() - started) / 1000 }));
