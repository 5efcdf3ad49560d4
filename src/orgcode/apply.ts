/**
 * Carries a plan out through the transport, step by step in the plan's order, resolving the
 * references to objects created earlier in the run. The first failure stops the run: the error
 * says which step failed, how many were applied and how many were not, and keeps the failing
 * request's exit code. Nothing needs undoing: a second `apply` plans from what exists, so it
 * continues where this one stopped.
 */
import { DocsctlError, type ExitCode, exitCodeFor } from '../api/errors.js';
import type { Transport } from '../transport/types.js';
import type { Plan, PlannedRequest, Ref, Step } from './plan.js';

export class ApplyStepError extends DocsctlError {
  constructor(
    readonly failed: Step,
    readonly applied: number,
    readonly total: number,
    override readonly cause: unknown,
  ) {
    super(
      `step ${applied + 1} of ${total} failed (${failed.op} ${failed.kind} ${failed.name}): ${cause instanceof Error ? cause.message : String(cause)}; ${applied} applied, ${total - applied} not applied`,
      { hint: 'fix the cause and run apply again: it continues from what exists' },
    );
  }
  override get exitCode(): ExitCode {
    return exitCodeFor(this.cause);
  }
}

const isRef = (value: unknown): value is Ref => typeof value === 'object' && value !== null && typeof (value as Ref).$ref === 'string' && Object.keys(value).length === 1;

/** `value` with every reference replaced by the id it names now. */
function resolveRefs(value: unknown, ids: ReadonlyMap<string, string>): unknown {
  if (isRef(value)) {
    const id = ids.get(value.$ref);
    if (id === undefined) throw new Error(`no id for ${value.$ref} (a step that creates it did not run)`);
    return id;
  }
  if (Array.isArray(value)) return value.map((item) => resolveRefs(item, ids));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, resolveRefs(item, ids)]));
  return value;
}

function pick(answer: unknown, path: string): unknown {
  let value = answer;
  for (const part of path.split('.')) value = (value as Record<string, unknown> | undefined)?.[part];
  return value;
}

/** `base` with `patch` laid over it, object by object (anything else replaced; a JSON document is a value, replaced whole). */
export function deepMerge(base: unknown, patch: unknown): unknown {
  if (!patch || typeof patch !== 'object' || Array.isArray(patch) || !base || typeof base !== 'object' || Array.isArray(base)) return patch;
  if ((patch as { object?: unknown }).object === 'document') return patch;
  const merged: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [key, value] of Object.entries(patch)) merged[key] = deepMerge(merged[key], value);
  return merged;
}

function onlyKeys(answer: unknown, keys: string[] | undefined): unknown {
  if (!keys || !answer || typeof answer !== 'object') return answer;
  return Object.fromEntries(keys.filter((key) => key in answer).map((key) => [key, (answer as Record<string, unknown>)[key]]));
}

async function send(transport: Transport, request: PlannedRequest, ids: Map<string, string>): Promise<void> {
  const params = resolveRefs(request.params, ids) as Record<string, string>;
  let body = resolveRefs(request.body, ids);
  if (request.mergeWith) body = deepMerge(onlyKeys((await transport.request(request.mergeWith, { params })).body, request.mergeKeys), body);
  const answer = await transport.request(request.route, { params, ...(body === undefined ? {} : { body }) });
  for (const [key, path] of Object.entries(request.bind ?? {})) {
    const id = pick(answer.body, path);
    if (typeof id === 'string') ids.set(key, id);
  }
}

/**
 * Runs every step; `done` is told of each one applied (to print it as it happens).
 * `ids` holds the ids the references may name (the plan's known objects are resolved already).
 */
export async function applyPlan(transport: Transport, plan: Plan, done: (step: Step, index: number) => Promise<void>): Promise<void> {
  const ids = new Map<string, string>();
  for (const [index, step] of plan.steps.entries()) {
    try {
      for (const request of step.requests) await send(transport, request, ids);
    } catch (error) {
      throw new ApplyStepError(step, index, plan.steps.length, error);
    }
    await done(step, index);
  }
}
