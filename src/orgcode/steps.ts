/**
 * The plan's steps (plan.ts makes them, plan-grants.ts too, apply.ts carries them out): what
 * changes, shown as `+ ~ -` lines, and the API requests that make it so.
 */
import type { RouteId } from '../api/route-id.js';

/** The id of an object created earlier in the run (or found when planning). */
export interface Ref {
  $ref: string;
}

export interface PlannedRequest {
  route: RouteId;
  params: Record<string, string | Ref>;
  body?: unknown;
  /** Answer fields naming objects later requests refer to: ref key → dotted path in the answer (`id`). */
  bind?: Record<string, string>;
  /** The body is merged into what this read answers (same params) and the result sent: a full replace (PUT) of settings the file gives part of. */
  mergeWith?: RouteId;
  /** With mergeWith: the fields of the read's answer the request takes (the others, such as `urls`, are the answer's own). */
  mergeKeys?: string[];
}

export interface FieldChange {
  field: string;
  from?: unknown;
  to?: unknown;
}

export type StepOp = '+' | '~' | '-';

export interface Step {
  op: StepOp;
  kind: string;
  /** How the file names it: `Engineering/Handbook`, `ada@acme.io`, `Developer Portal/Guides`. */
  name: string;
  changes: FieldChange[];
  requests: PlannedRequest[];
}

/** Whether two field values are the same as the API holds them (JSON; undefined and null alike). */
export const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
