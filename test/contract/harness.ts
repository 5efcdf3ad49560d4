/**
 * Calling operations for a contract test: `executeOperation` on a MemoryStore seeded
 * by `bootstrap()`, request bodies checked against the real spec first (so the inputs
 * are ones the real API accepts), every answer (errors included) validated against
 * the real response schema, and each operation answered with a success recorded.
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

export const ORIGIN = 'http://127.0.0.1:4000';

export async function contractHarness(start: string) {
  const store = new MemoryStore();
  const clock = manualClock(start);
  const ids = sequentialIds('id');
  const boot = await store.transact((tx) =>
    bootstrap(tx, { organizationTitle: 'Acme Docs', userName: 'Ada', email: 'ada@acme.example', clock, ids, origin: ORIGIN }),
  );
  const env: ExecuteEnv = { store, actor: { userId: boot.user.id }, clock, ids, origin: ORIGIN };
  /** Operations answered with a success, their body validated. */
  const validated = new Set<string>();

  async function call(id: RouteId, raw: RawInput = {}, options: { invalidRequest?: boolean } = {}): Promise<OperationResult> {
    if (raw.body !== undefined && !options.invalidRequest) {
      expect(requestBodyValidator(id)(raw.body).errors, `request body of ${id}`).toEqual([]);
    }
    try {
      return await executeOperation(env, getRoute(id), raw);
    } catch (error) {
      if (error instanceof ApiError) return { status: error.status, body: error.toBody(), json: JSON.stringify(error.toBody()), headers: {} };
      throw error;
    }
  }

  /** Calls `id` and expects `status` (a 400 may send what the spec refuses), the body valid against the real schema. */
  async function expectContract<T = Record<string, unknown> & { id: string }>(id: RouteId, raw: RawInput, status: number): Promise<T> {
    const result = await call(id, raw, { invalidRequest: status === 400 });
    expect(result.status, `${id} status (body: ${JSON.stringify(result.body)})`).toBe(status);
    expect(responseValidator(id, result.status)(result.body).errors, `${id} ${status} body vs schema`).toEqual([]);
    if (status >= 400) expect(errorBodyValidator(status)(result.body).errors).toEqual([]);
    else validated.add(id);
    return result.body as T;
  }

  return { env, store, clock, ids, orgId: boot.organization.id, validated, call, expectContract };
}
