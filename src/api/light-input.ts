/**
 * Which calls skip zod: the input of a call is checked by the manifest's light descriptions
 * (light-query.ts, light-body.ts) when they describe it, in local mode and in `serve` alike.
 */
import type { RouteInfo } from './manifest.js';
import { lightParseBody } from './light-body.js';
import { lightParse } from './light-query.js';
import type { RawInput } from './validate.js';

/** A call's query and body as checked without zod. */
export interface LightInput {
  query: Record<string, unknown>;
  body: Record<string, unknown> | undefined;
}

/**
 * The validated query and body of a call that needs no zod, else undefined: params are plain
 * non-empty strings, and the query is empty or one the manifest's light description accepts;
 * for a GET the body is absent, for a write the manifest's light body description accepts it.
 * Undefined also when the input is wrong: zod then decides, and writes the error message.
 */
export function lightInput(info: RouteInfo, input: RawInput): LightInput | undefined {
  if (!Object.values(input.params ?? {}).every((value) => typeof value === 'string' && value !== '')) return undefined;
  const raw = input.query ?? {};
  const queried = Object.values(raw).some((value) => value !== undefined);
  if (info.method === 'GET') {
    if (input.body !== undefined) return undefined;
    if (!queried) return info.plainGet ? { query: {}, body: undefined } : undefined;
    const query = info.lightQuery ? lightParse(info.lightQuery, raw) : undefined;
    return query && { query, body: undefined };
  }
  if (info.noBody && info.lightQuery) {
    // As validate.ts: a route without a body schema ignores the body it is sent.
    const query = lightParse(info.lightQuery, queried ? raw : {});
    return query && { query, body: undefined };
  }
  if (!info.lightBody || !info.lightQuery) return undefined;
  const query = lightParse(info.lightQuery, queried ? raw : {});
  const body = lightParseBody(info.lightBody, input.body);
  return query && body && { query, body };
}
