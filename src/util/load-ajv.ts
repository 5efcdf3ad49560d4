/**
 * ajv's class, loaded on demand. Node's ESM view of the package has a named `Ajv`
 * export, but the esbuild bundle's chunk for this CommonJS module exports only
 * `default` (its `module.exports`, which carries `Ajv`): `const { Ajv } = await
 * import('ajv')` worked under vitest and threw "not a constructor" in the binary.
 */
import type { Ajv } from 'ajv';

type AjvClass = typeof Ajv;

export async function loadAjv(): Promise<AjvClass> {
  const loaded = (await import('ajv')) as unknown as { Ajv?: AjvClass; default?: { Ajv?: AjvClass } };
  const found = loaded.Ajv ?? loaded.default?.Ajv;
  if (typeof found !== 'function') throw new Error('ajv did not load: no Ajv class in the module');
  return found;
}
