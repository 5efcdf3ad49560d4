/**
 * Calling operations in contract tests: the request body checked against the real
 * spec (unless the test sends an invalid one on purpose), the answer (an `ApiError`
 * becomes its error body) checked against the operation's declared response for its
 * status, and error bodies against `Error`.
 */
import { expect } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import type { RouteId } from '../../src/api/route-id.js';
import { getRoute } from '../../src/api/table.js';
import type { RawInput } from '../../src/api/validate.js';
import { bootstrap } from '../../src/domain/bootstrap.js';
import { type ExecuteEnv, type OperationResult, executeOperation } from '../../src/domain/execute.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import { manualClock } from '../../src/util/clock.js';
import { sequentialIds } from '../../src/util/ids.js';
import { errorBodyValidator, requestBodyValidator, responseValidator } from './openapi.js';

export async function callOperation(env: ExecuteEnv, id: RouteId, raw: RawInput, options: { invalidRequest?: boolean } = {}): Promise<OperationResult> {
  if (raw.body !== undefined && !options.invalidRequest) expect(requestBodyValidator(id)(raw.body).errors, `request body of ${id}`).toEqual([]);
  try {
    return await executeOperation(env, getRoute(id), raw);
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, body: error.toBody(), json: JSON.stringify(error.toBody()), headers: {} };
    throw error;
  }
}

/** The answer's body, after checking its status and its schema; success ids are added to `validated`. */
export async function expectAnswer<T>(env: ExecuteEnv, id: RouteId, raw: RawInput, status: number, validated: Set<string>): Promise<T> {
  const result = await callOperation(env, id, raw, { invalidRequest: status === 400 });
  expect(result.status, `${id} status (body: ${JSON.stringify(result.body)})`).toBe(status);
  expect(responseValidator(id, result.status)(result.body).errors, `${id} ${status} body vs schema`).toEqual([]);
  if (status >= 400) expect(errorBodyValidator(status)(result.body).errors).toEqual([]);
  else validated.add(id);
  return result.body as T;
}

/** A MemoryStore with one organization and its admin (Ada), sequential ids and a manual clock: the admin's env. */
export async function bootstrappedEnv(origin: string): Promise<{ env: ExecuteEnv; orgId: string }> {
  const store = new MemoryStore();
  const clock = manualClock('2026-02-01T09:00:00.000Z');
  const ids = sequentialIds('id');
  const boot = await store.transact((tx) =>
    bootstrap(tx, { organizationTitle: 'Acme Docs', userName: 'Ada', email: 'ada@acme.example', clock, ids, origin }),
  );
  return { env: { store, actor: { userId: boot.user.id }, clock, ids, origin }, orgId: boot.organization.id };
}
