/**
 * A deep copy of a JSON value (what JSON.parse produces: plain objects, arrays,
 * strings, numbers, booleans, null). Several times faster than structuredClone on
 * the small objects a store hands out by the thousand (structuredClone has a high
 * fixed cost per call). Keys keep their order; an own `__proto__` key stays a key.
 */
export function copyJson<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = copyJson(value[i]);
    return out as T;
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = copyJson((value as Record<string, unknown>)[key]);
    // Assigning `__proto__` would set the prototype instead of a key.
    if (key === '__proto__') Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
    else out[key] = item;
  }
  return out as T;
}
