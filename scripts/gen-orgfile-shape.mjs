// Writes src/orgcode/file-shape.ts: the organization file's zod schema (src/orgcode/schema.ts)
// described as plain data, which src/orgcode/file-check.ts checks a file against without
// loading zod (zod's module, its schemas and a cold parse of a 1,000-space file cost `diff -f`
// ~45 ms). Written by scripts/generate.mjs before type-checking; not committed;
// test/orgcode/file-check.test.ts fails when it is out of date and holds the check to zod's output.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { writeIfChanged } from './gen-manifest.mjs';

const root = new URL('..', import.meta.url).pathname;

const def = (schema) => schema._zod.def;

/**
 * The FileShape (src/orgcode/file-check.ts) of a zod schema: strings (lengths, formats and
 * regexes), numbers, booleans, string enums and literals, strict objects, arrays, records,
 * unions, nullable, optional (object fields), defaults, unknown, and lazy schemas (as named
 * definitions, so recursion stays data). Anything else throws: extend the describer and the
 * checker together rather than let a check go missing.
 */
export function describeOrgFile(schema) {
  const defs = {};
  const lazyNames = new Map();
  const fail = (what) => {
    throw new Error(`gen-orgfile-shape: cannot describe ${what} (extend scripts/gen-orgfile-shape.mjs and src/orgcode/file-check.ts)`);
  };
  const pattern = (re) => [re.source, re.flags];
  const describe = (s) => {
    const d = def(s);
    switch (d.type) {
      case 'string': {
        const out = { t: 'string' };
        const patterns = [];
        if (d.format !== undefined) {
          if (!(d.pattern instanceof RegExp)) fail(`the string format ${d.format}`);
          patterns.push(pattern(d.pattern));
        }
        for (const check of d.checks ?? []) {
          const c = def(check);
          if (c.check === 'min_length') out.min = Math.max(out.min ?? 0, c.minimum);
          else if (c.check === 'max_length') out.max = Math.min(out.max ?? Infinity, c.maximum);
          else if (c.check === 'string_format' && c.pattern instanceof RegExp) patterns.push(pattern(c.pattern));
          else fail(`the string check ${c.check}/${c.format}`);
        }
        if (patterns.length) out.patterns = patterns;
        return out;
      }
      case 'number': {
        const out = { t: 'number' };
        for (const check of d.checks ?? []) {
          const c = def(check);
          if (c.check === 'number_format' && c.format === 'safeint') out.int = true;
          else if (c.check === 'greater_than' && c.inclusive) out.min = c.value;
          else if (c.check === 'less_than' && c.inclusive) out.max = c.value;
          else fail(`the number check ${c.check}`);
        }
        return out;
      }
      case 'boolean':
        return { t: 'boolean' };
      case 'enum':
      case 'literal': {
        const values = d.type === 'enum' ? Object.values(d.entries) : d.values;
        if (!values.every((v) => typeof v === 'string')) fail('an enum of values other than strings');
        return { t: 'enum', values };
      }
      case 'object': {
        if ((d.checks ?? []).length || def(d.catchall ?? s)?.type !== 'never') fail('an object that is not strict, or has refinements');
        const fields = {};
        for (const [key, field] of Object.entries(d.shape)) {
          fields[key] = def(field).type === 'optional' ? { ...describe(def(field).innerType), optional: true } : describe(field);
        }
        return { t: 'object', fields };
      }
      case 'array': {
        const out = { t: 'array', item: describe(d.element) };
        for (const check of d.checks ?? []) {
          const c = def(check);
          if (c.check === 'min_length') out.min = c.minimum;
          else if (c.check === 'max_length') out.max = c.maximum;
          else fail(`the array check ${c.check}`);
        }
        return out;
      }
      case 'record': {
        const key = def(d.keyType);
        if (key.type !== 'string' || (key.checks ?? []).length || key.format !== undefined || (d.checks ?? []).length) fail('a record whose keys are not plain strings');
        return { t: 'record', value: describe(d.valueType) };
      }
      case 'union':
        return { t: 'union', options: d.options.map(describe) };
      case 'nullable':
        return { t: 'nullable', inner: describe(d.innerType) };
      case 'default': {
        const value = typeof d.defaultValue === 'function' ? d.defaultValue() : d.defaultValue;
        if (typeof value !== 'string') fail('a default that is not a string');
        return { t: 'default', inner: describe(d.innerType), value };
      }
      case 'unknown':
      case 'any':
        return { t: 'unknown' };
      case 'lazy': {
        let name = lazyNames.get(s);
        if (name === undefined) {
          name = `L${lazyNames.size}`;
          lazyNames.set(s, name);
          defs[name] = describe(d.getter());
        }
        return { t: 'ref', name };
      }
      default:
        return fail(`a ${d.type} schema`);
    }
  };
  const rootShape = describe(schema);
  return { root: rootShape, defs };
}

export async function renderOrgFileShape() {
  const dir = mkdtempSync(join(tmpdir(), 'docsctl-orgfile-'));
  try {
    const outfile = join(dir, 'schema.mjs');
    await build({ entryPoints: [join(root, 'src/orgcode/schema.ts')], outfile, bundle: true, platform: 'node', format: 'esm', logLevel: 'error' });
    const { OrgFileSchema } = await import(pathToFileURL(outfile).href);
    const shape = describeOrgFile(OrgFileSchema);
    return `// AUTO-GENERATED by scripts/gen-orgfile-shape.mjs from src/orgcode/schema.ts (run by the build). Do not edit.
// An OrgFileShape (src/orgcode/file-check.ts), as JSON parsed at load (V8 reads a JSON string
// faster than the same object literal).
export const ORG_FILE_SHAPE: unknown = JSON.parse(
  ${JSON.stringify(JSON.stringify(shape))},
);
`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function writeOrgFileShape() {
  writeIfChanged(join(root, 'src/orgcode/file-shape.ts'), await renderOrgFileShape());
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await writeOrgFileShape();
