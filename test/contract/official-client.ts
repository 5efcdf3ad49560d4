/** Calling the official GitBook client (`GitBookAPI` of @gitbook/api) by operationId, in the contract tests. */
import { GitBookAPI, GitBookAPIError } from '@gitbook/api';
import { expect } from 'vitest';
import { bootstrap } from '../../src/domain/bootstrap.js';
import { startServer } from '../../src/server/server.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import { manualClock } from '../../src/util/clock.js';
import { sequentialIds } from '../../src/util/ids.js';
import { responseValidator } from './openapi.js';

// The client's answers are typed per operation; tests read them loosely.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each test reads the fields of its own operation's answer
export type ClientCall = (...args: unknown[]) => Promise<{ status: number; data: any }>;

/** The client's error for an operation the server refuses: its status code and message. */
export async function refusalOf(api: GitBookAPI, operationId: string, ...args: unknown[]): Promise<{ code: number; message: string }> {
  const error = await clientOperation(api, operationId)(...args).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(GitBookAPIError);
  return { code: (error as GitBookAPIError).code, message: (error as GitBookAPIError).message };
}

/** An operation of the client by its operationId, whichever namespace (orgs, spaces, …) holds it, or the client itself. */
export function clientOperation(api: GitBookAPI, operationId: string): ClientCall {
  const root = (api as unknown as Record<string, unknown>)[operationId];
  if (typeof root === 'function') return (root as ClientCall).bind(api);
  for (const namespace of Object.values(api as unknown as Record<string, unknown>)) {
    const fn = (namespace as Record<string, unknown> | null)?.[operationId];
    if (typeof fn === 'function') return fn as ClientCall;
  }
  throw new Error(`the client has no operation ${operationId}`);
}

/**
 * Calls the client's operation, expects `status`, and checks the answer against the pinned
 * spec's schema for it (an empty body, as a 204 gives, is checked as no body).
 */
export async function checkedCall(api: GitBookAPI, operationId: string, status: number, ...args: unknown[]) {
  const response = await clientOperation(api, operationId)(...args);
  expect(response.status, operationId).toBe(status);
  const body: unknown = response.data === undefined || response.data === null || response.data === '' ? undefined : response.data;
  const check = responseValidator(operationId, status)(body);
  expect(check.errors, `${operationId} ${status} vs the 0.202 schema`).toEqual([]);
  return response.data;
}

/**
 * Compiles the response validators a test file checks, before its server starts: one compiled
 * between two requests can outlast serve's keep-alive on a loaded machine (the test and `serve`
 * share one thread), and the client's next request on that socket meets ECONNRESET ("fetch failed").
 */
export function compileValidators(checked: ReadonlyArray<readonly [string, number]>): void {
  for (const [operationId, status] of checked) responseValidator(operationId, status);
}

/** `serve` of a MemoryStore with one organization (Acme) and its admin (Ada), and the client with her token. */
export async function servedOrganization() {
  const store = new MemoryStore();
  const clock = manualClock('2026-03-01T10:00:00.000Z');
  const ids = sequentialIds('c');
  const boot = await store.transact((tx) =>
    bootstrap(tx, { organizationTitle: 'Acme', userName: 'Ada', email: 'ada@example.com', clock, ids, origin: 'http://unused' }),
  );
  const server = await startServer({ store, host: '127.0.0.1', port: 0, clock, ids });
  const api = new GitBookAPI({ endpoint: server.url, authToken: boot.token });
  return { store, clock, ids, boot, server, api };
}

/**
 * A new member of `org` with `role` and a client with their own token, made through docsctl's
 * extensions (x-docsctl: the official client has no operation for them) as the admin.
 */
export async function memberClient(server: { url: string }, adminToken: string, org: string, member: { email: string; displayName: string; role: string }): Promise<GitBookAPI> {
  const extension = async (path: string, body: unknown): Promise<Record<string, unknown>> => {
    const response = await fetch(`${server.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(response.status, await response.clone().text()).toBe(201);
    return (await response.json()) as Record<string, unknown>;
  };
  const user = await extension(`/v1/x-docsctl/orgs/${org}/users`, member);
  const { token } = (await extension(`/v1/x-docsctl/users/${String(user.id)}/tokens`, { label: member.displayName.toLowerCase() })) as { token: string };
  return new GitBookAPI({ endpoint: server.url, authToken: token });
}
