/**
 * Validates a request's params, query and body with the route's zod schemas and
 * turns a failure into a one-line 400 naming the field.
 */
import type { z } from 'zod';
import { ApiError } from './errors.js';
import type { AnyRoute, RouteInput } from './route.js';

export interface RawInput {
  params?: Record<string, string>;
  query?: Record<string, unknown>;
  body?: unknown;
  /** The ad partner's key, sent as the `X-GitBook-Partner-Key` header (adsListSites, adsUpdateSite). */
  partnerKey?: string | undefined;
}

function describeIssue(where: string, issue: z.core.$ZodIssue): string {
  const path = issue.path.map(String).join('.');
  const field = path ? `${where} field "${path}"` : where;
  return `Invalid ${field}: ${issue.message}`;
}

function check<T extends z.ZodType>(schema: T, value: unknown, where: string): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const first = result.error.issues[0];
  throw new ApiError(400, first ? describeIssue(where, first) : `Invalid ${where}`);
}

export function validateInput<R extends AnyRoute>(route: R, raw: RawInput): RouteInput<R> {
  const params = check(route.params, raw.params ?? {}, 'path parameter');
  const query = check(route.query, stripUndefined(raw.query ?? {}), 'query parameter');
  let body: unknown = undefined;
  if (route.body) {
    if (raw.body === undefined && route.bodyRequired) {
      throw new ApiError(400, `${route.id} needs a JSON request body`);
    }
    body = check(route.body, raw.body ?? {}, 'body');
  }
  return { params, query, body } as RouteInput<R>;
}

function stripUndefined(object: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(object)) if (value !== undefined) out[key] = value;
  return out;
}
