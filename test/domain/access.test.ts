/**
 * Roles, table-driven: for every implemented operation, a caller one role below
 * what its route declares (`access`) gets 403 naming the role and changes nothing; a
 * caller from another organization gets 404 (204 "nothing to delete" for a
 * DELETE) and changes nothing; a caller with exactly the role is
 * not refused. Locally (executeOperation, and LocalTransport with --token) and
 * against `serve` (HttpTransport with each user's token).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import type { RouteId } from '../../src/api/route-id.js';
import { getRoute, routeModules, routes } from '../../src/api/table.js';
import { type Access, accessOf } from '../../src/domain/access.js';
import { issueToken } from '../../src/domain/accounts.js';
import { bootstrap } from '../../src/domain/bootstrap.js';
import { executeOperation } from '../../src/domain/execute.js';
import { isImplemented } from '../../src/domain/handler-registry.js';
import { MEMBER_ROLES, type MemberRole, addMember, ensureUser, putOrg } from '../../src/domain/core-records.js';
import { createStore, openStore } from '../../src/store/index.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import type { Store } from '../../src/store/types.js';
import { HttpTransport } from '../../src/transport/http.js';
import { LocalTransport } from '../../src/transport/local.js';
import type { Transport } from '../../src/transport/types.js';
import { manualClock } from '../../src/util/clock.js';
import { sequentialIds } from '../../src/util/ids.js';
import { cleanupTempDirs, serveStore, tempDir } from '../helpers/stores.js';

const ORIGIN = 'http://127.0.0.1:4000';
type Level = MemberRole | 'guest';
const LEVELS: Level[] = [...MEMBER_ROLES, 'guest'];

/** The role just below `role` (read → guest). */
function below(role: MemberRole): Level {
  return LEVELS[LEVELS.indexOf(role) + 1] as Level;
}

/**
 * Who is refused a route: one role below it, naming the role; for `owner` (the store's
 * owner: organization A's admin, who ran init), a member who is neither the owner nor the
 * `{userId}` the fixture names (`read`).
 */
function refused(access: Access): { caller: Level; message: string } {
  return access.role === 'owner' ? { caller: 'create', message: "store's owner" } : { caller: below(access.role as MemberRole), message: `"${access.role}" role` };
}

/** Who exactly has the route's role. */
function holder(access: Access): Level {
  return access.role === 'owner' ? 'admin' : (access.role as Level);
}

interface Fixture {
  store: Store;
  /** User id per role in organization A, and an admin of organization B only. */
  users: Record<Level | 'outsider', string>;
  params: Record<string, string>;
  tokens: Record<Level | 'outsider', string>;
}

/** Organization A with one member per role, a collection, a space with a change request, a team; organization B with its own admin. */
async function buildFixture(store: Store): Promise<Fixture> {
  const clock = manualClock('2026-02-01T00:00:00.000Z');
  const ids = sequentialIds('f');
  const boot = await store.transact((tx) =>
    bootstrap(tx, { organizationTitle: 'Acme', userName: 'Admin', email: 'admin@a.test', clock, ids, origin: ORIGIN }),
  );
  const orgA = boot.organization.id;
  const users = { admin: boot.user.id } as Fixture['users']; // the store's owner too (init made them)
  const tokens = { admin: boot.token } as Fixture['tokens'];
  const orgB = ids();
  await store.transact((tx) => {
    const now = clock().toISOString();
    for (const level of [...LEVELS.slice(1), 'outsider'] as const) {
      const { user } = ensureUser(tx, { email: `${level}@a.test` }, ids, now);
      users[level] = user.id;
      tokens[level] = issueToken(tx, user.id, 'test', clock).token;
      if (level !== 'outsider') addMember(tx, orgA, user.id, { role: level === 'guest' ? null : level, joinedAt: now, sso: false, disabled: false });
    }
    putOrg(tx, { id: orgB, title: 'Other', createdAt: now, type: 'business', plan: 'free', emailDomains: [], inviteLinks: false, mergeRules: { type: 'none' } });
    addMember(tx, orgB, users.outsider, { role: 'admin', joinedAt: now, sso: false, disabled: false });
  });
  const env = { store, actor: { userId: users.admin }, clock, ids, origin: ORIGIN };
  const ok = async (id: RouteId, raw: Parameters<typeof executeOperation>[2]) =>
    (await executeOperation(env, getRoute(id), raw)).body as { id: string };
  const collection = await ok('createCollection', { params: { organizationId: orgA }, body: { title: 'C' } });
  const space = await ok('createSpace', { params: { organizationId: orgA }, body: { title: 'S' } });
  const cr = await ok('createChangeRequest', { params: { spaceId: space.id }, body: {} });
  const team = await ok('createOrganizationTeam', { params: { organizationId: orgA }, body: { title: 'T', members: [users.read] } });
  const installation = await ok('installGitSyncProviderOnTarget', { body: { provider: 'github', target: { type: 'space', spaceId: space.id } } });
  // A custom hostname names its site's organization only through its row (`/custom-hostnames/{hostname}`).
  const site = await ok('createSite', { params: { organizationId: orgA }, body: { title: 'Web', type: 'ultimate' } });
  await ok('updateSiteById', { params: { organizationId: orgA, siteId: site.id }, body: { hostname: 'docs.acme.test' } });
  const params = {
    organizationId: orgA,
    collectionId: collection.id,
    spaceId: space.id,
    changeRequestId: cr.id,
    teamId: team.id,
    installationId: installation.id,
    hostname: 'docs.acme.test',
    userId: users.read,
    pageId: 'p',
    fileId: 'f',
    revisionId: 'r',
    pagePath: 'x',
  };
  return { store, users, params, tokens };
}

function paramsFor(routeId: RouteId, all: Record<string, string>): Record<string, string> {
  const names = [...getRoute(routeId).path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
  return Object.fromEntries(names.map((name) => [name, all[name] ?? 'x']));
}

async function statusOf(promise: Promise<{ status: number }>): Promise<{ status: number; message: string }> {
  try {
    return { status: (await promise).status, message: '' };
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, message: error.message };
    throw error;
  }
}

/**
 * What another organization's caller may get: 404, or for a DELETE also "nothing to
 * delete" (204, as the real API); a route for the store's owner is about no organization: 403.
 */
function hiddenStatus(routeId: RouteId): number[] {
  if (declared(routeId)?.role === 'owner') return [403];
  return getRoute(routeId).method === 'DELETE' ? [204, 404] : [404];
}

let implemented: RouteId[] = [];

/** The access an implemented route declares (every one declares one: checked below). */
function declared(routeId: RouteId): Access | undefined {
  const access = getRoute(routeId).access;
  return access === undefined ? undefined : accessOf(access);
}

beforeAll(async () => {
  implemented = [];
  for (const route of routes) if (await isImplemented(route.id)) implemented.push(route.id);
});
afterAll(cleanupTempDirs);

describe('the access declared with each route', () => {
  it('is declared by every implemented operation, and every hand-written route', () => {
    expect(implemented.length).toBeGreaterThan(70);
    expect(implemented.filter((id) => getRoute(id).access === undefined)).toEqual([]);
    const declaredOnly = new Set(Object.keys(routeModules.declared));
    expect(routes.filter((route) => !declaredOnly.has(route.id) && route.access === undefined).map((route) => route.id)).toEqual([]);
  });

  it('in process: one role below → 403 naming the role, nothing changed; another organization → 404; the role itself passes', async () => {
    const fx = await buildFixture(new MemoryStore());
    const clock = manualClock('2026-02-02T00:00:00.000Z');
    const call = (userId: string, routeId: RouteId) =>
      executeOperation({ store: fx.store, actor: { userId }, clock, ids: sequentialIds('c'), origin: ORIGIN }, getRoute(routeId), {
        params: paramsFor(routeId, fx.params),
      });
    for (const routeId of implemented) {
      const access = declared(routeId);
      if (!access || access.role === 'none') continue;
      const gen = fx.store.read().gen;
      if (access.role !== 'guest') {
        const { caller, message } = refused(access);
        const denied = await statusOf(call(fx.users[caller], routeId));
        expect(denied, routeId).toEqual({ status: 403, message: expect.stringContaining(message) });
        expect(fx.store.read().gen, `${routeId} changed the store`).toBe(gen);
      }
      const hidden = await statusOf(call(fx.users.outsider, routeId));
      expect(hidden.status, `${routeId} for another organization: ${hidden.message}`).toBeOneOf(hiddenStatus(routeId));
      expect(fx.store.read().gen, `${routeId} changed the store`).toBe(gen);
    }
  });

  it('the role named in the table is enough (each operation on a fresh store)', async () => {
    for (const routeId of implemented) {
      const access = declared(routeId);
      if (!access || access.role === 'none') continue;
      const fx = await buildFixture(new MemoryStore());
      const clock = manualClock('2026-02-02T00:00:00.000Z');
      const result = await statusOf(
        executeOperation(
          { store: fx.store, actor: { userId: fx.users[holder(access)] }, clock, ids: sequentialIds('c'), origin: ORIGIN },
          getRoute(routeId),
          { params: paramsFor(routeId, fx.params) },
        ),
      );
      expect(result.status, `${routeId} as ${access.role}: ${result.message}`).not.toBe(403);
    }
  });
});

describe('handlers', () => {
  it('do not check the declared role again: the role checks left depend on data, each named here', () => {
    const checks = readdirSync('src/domain', { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !['access.ts', 'permissions.ts'].includes(entry.name))
      .flatMap((entry) => {
        const file = join(entry.parentPath, entry.name);
        return readFileSync(file, 'utf8')
          .split('\n')
          .filter((line) => /\brequireRole\(|\batLeast\(/.test(line) && !/^import|^export function/.test(line.trim()))
          .map((line) => `${relative('src/domain', file)}: ${line.trim()}`);
      });
    expect(checks.sort()).toEqual(
      [
        // A transfer needs admin in the organization it goes to, named by the body.
        "collections.ts: requireRole(target.role, 'admin', target.org.id, 'transfer collections into it');",
        "spaces.ts: requireRole(target.role, 'admin', targetOrg, 'transfer spaces into it');",
        // Git Sync is installed on the space or site its body names.
        "git/installations.ts: requireRole(role, min, organization, 'install Git Sync on it');",
        // Only the author of a comment or an admin edits or deletes it.
        "comments/handlers.ts: if (author === ctx.actor.userId || atLeast(thread.role, 'admin')) return;",
        // Only the author of a change request's conversation or an admin deletes it.
        "content/conversations.ts: if (record.createdBy !== ctx.actor.userId && !atLeast(role, 'admin')) {",
        // Only the creator of a conversation with the organization's agent or an admin renames or deletes it.
        "org-conversations.ts: if (record.createdBy !== ctx.actor.userId && !atLeast(ctx.access.role ?? null, 'admin')) {",
        // A section or site space on a new space (`spaceId: null` in the body) makes a space: `create` in the organization, beside the site's admin.
        "sites/site-space-source.ts: requireRole(roleIn(ctx.tx, site.organization, ctx.actor.userId) ?? null, 'create', site.organization, 'make a new space for a site');",
        // A site's style guide is a new space: `create` in the organization, beside the site's admin (when it has none yet).
        "styleguides.ts: requireRole(roleIn(ctx.tx, org.id, ctx.actor.userId) ?? null, 'create', org.id, \"make a site's style guide space\");",
        // An integration's organization is its owner, not a path parameter.
        "integrations.ts: atLeast(roleIn(tx, integration.owner, userId) ?? null, 'admin');",
        "integrations.ts: if (!atLeast(roleIn(ctx.tx, org.id, ctx.actor.userId) ?? null, 'admin')) {",
        // An installation's organization is on its record; installing names the organization in the body.
        "integration-installations.ts: const orgAdmin = atLeast(role ?? null, 'admin');",
        "integration-installations.ts: if (!atLeast(role, 'admin')) {",
        // Who may manage a team (an admin or one of its owners), for `permissions` and the `owner` filter.
        "teams-records.ts: return atLeast(role, 'admin') || teamMembers.get(tx, team.id, userId)?.role === 'owner';",
        // The `permissions` objects of answers.
        "comments/views.ts: const mine = author === view.actor || atLeast(view.role, 'admin');",
        "comments/views.ts: return { view: true, edit: mine, reply: atLeast(view.role, 'comment'), delete: mine };",
        "fonts.ts: permissions: { edit: atLeast(role, 'admin') },",
        "openapi-specs.ts: permissions: { view: true, edit: atLeast(role, 'create') },",
        // A font file is an admin setting (fonts need admin); other uploads need the route's edit.
        "storage.ts: if (body.kind === 'customization_font' && !atLeast(role, 'admin')) throw new ApiError(403, 'Uploading a font needs the admin role in this organization (fonts are admin settings)');",
        "translations.ts: const permissionsOf = (role: Role) => ({ view: true, edit: atLeast(role, 'admin') });",
      ].sort(),
    );
  });
});

describe('roles with tokens, locally and against serve', () => {
  let fx: Fixture;
  let dir: string;
  let server: Awaited<ReturnType<typeof serveStore>>;
  const clock = manualClock('2026-02-02T00:00:00.000Z');

  beforeAll(async () => {
    dir = join(tempDir('docsctl-access-'), 'store');
    const store = createStore(dir);
    fx = await buildFixture(store);
    await store.close();
    server = await serveStore(dir, { clock, ids: sequentialIds('s') });
  });
  afterAll(async () => {
    await server?.close();
  });

  async function check(transportFor: (token: string) => Transport, mode: string): Promise<void> {
    const reader = openStore(dir);
    try {
      for (const routeId of implemented) {
        const access = declared(routeId);
        if (!access || access.role === 'none') continue;
        const gen = reader.read().gen;
        const input = { params: paramsFor(routeId, fx.params) };
        if (access.role !== 'guest') {
          const { caller, message } = refused(access);
          const transport = transportFor(fx.tokens[caller]);
          const denied = await statusOf(transport.request(routeId, input));
          await transport.close();
          expect(denied, `${mode} ${routeId}`).toEqual({ status: 403, message: expect.stringContaining(message) });
        }
        const transport = transportFor(fx.tokens.outsider);
        const hidden = await statusOf(transport.request(routeId, input));
        await transport.close();
        expect(hidden.status, `${mode} ${routeId} for another organization: ${hidden.message}`).toBeOneOf(hiddenStatus(routeId));
        expect(reader.read().gen, `${mode} ${routeId} changed the store`).toBe(gen);
      }
    } finally {
      await reader.close();
    }
  }

  it('local mode with --token', async () => {
    // Each transport opens (and closes) its own handle on the store, as one CLI invocation does.
    await check((token) => new LocalTransport({ store: openStore(dir), clock, ids: sequentialIds('l'), origin: ORIGIN, token }), 'local');
  });

  it('serve', async () => {
    await check((token) => new HttpTransport({ endpoint: server.url, token, retries: 0 }), 'serve');
  });
});
