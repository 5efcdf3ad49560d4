// Writes src/cli/generated/: the commands derived from the route table. Each route's
// `cli` declaration (src/api/route.ts, CommandDeclaration) says what differs from the
// derivation; the rest comes from the route: positional arguments from its path
// parameters, flags from its query and body fields (types, `choices` from enums, help
// from `.describe()`), the output from its shape, the help line from its summary.
// Hooks (src/cli/commands/*.ts `hooks`, keyed by command name) add behaviour data cannot
// say. One file per top-level group, loaded only when that group is invoked, plus
// `groups.ts` (which groups exist, and their loaders). Run by the build (scripts/build.mjs);
// the files are not committed. Errors name the route and what is wrong.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = new URL('..', import.meta.url).pathname;
const out = join(root, 'src/cli/generated');

const def = (schema) => schema?._zod?.def;
const kebab = (name) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
/** `spaceId` → `space id`, `siteSectionId` → `site section id`. */
const words = (name) => name.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`).replace(/_/g, ' ');

/** The schema under optional / nullable / default wrappers. */
function unwrap(schema) {
  let current = schema;
  for (;;) {
    const d = def(current);
    if (d && ['optional', 'nullable', 'default', 'prefault', 'readonly', 'nonoptional'].includes(d.type)) current = d.innerType;
    else return current;
  }
}

/** The string values of an enum, a literal, or a union of those; undefined for anything else. */
function enumChoices(schema) {
  const s = unwrap(schema);
  const d = def(s);
  if (!d) return undefined;
  if (d.type === 'enum') {
    const values = Object.values(d.entries);
    return values.every((v) => typeof v === 'string') ? values : undefined;
  }
  if (d.type === 'literal') return d.values.every((v) => typeof v === 'string') ? [...d.values] : undefined;
  if (d.type === 'union') {
    const parts = d.options.map(enumChoices);
    return parts.every(Boolean) ? [...new Set(parts.flat())] : undefined;
  }
  return undefined;
}

/** The description of a field (`.describe()`), looking through its wrappers. */
function description(schema) {
  let current = schema;
  for (;;) {
    if (current?.description) return current.description;
    const d = def(current);
    if (d && 'innerType' in d) current = d.innerType;
    else return undefined;
  }
}

/** The flag type of a field: `string` (with choices for an enum), `number`, `boolean`, `list`; undefined when a flag cannot say it. */
function fieldKind(schema, registry) {
  const known = registry.get(schema) ?? registry.get(unwrap(schema));
  if (known) {
    if (known.t === 'bool') return { type: 'boolean' };
    if (known.t === 'number') return { type: 'number' };
    if (known.t === 'list') return { type: 'list' };
  }
  const choices = enumChoices(schema);
  if (choices) return { type: 'string', choices };
  const d = def(unwrap(schema));
  if (!d) return undefined;
  if (d.type === 'string') return { type: 'string' };
  if (d.type === 'number' || d.type === 'int') return { type: 'number' };
  if (d.type === 'boolean') return { type: 'boolean' };
  if (d.type === 'pipe') return fieldKind(d.in, registry);
  if (d.type === 'array') {
    const item = def(unwrap(d.element));
    return item && (item.type === 'string' || item.type === 'enum') ? { type: 'list' } : undefined;
  }
  return undefined;
}

/** The fields of an object schema (through wrappers), or {}. */
function shapeOf(schema) {
  const d = def(schema && unwrap(schema));
  return d?.type === 'object' ? d.shape : {};
}

const PAGINATION = new Set(['page', 'limit']);

/**
 * Path parameters whose argument has another name: a change request is given by id or
 * number; the objects src/cli/operation.ts resolves by name (NAMED_PARAMS) say which names they take.
 */
const ARGUMENTS = {
  changeRequestId: { name: 'changeRequest', description: 'change request id or number' },
  spaceId: { description: 'space id, title or collection path (Collection/Space)' },
  collectionId: { description: 'collection id, title or title path (Parent/Child)' },
  siteId: { description: 'site id, title or hostname' },
  siteSectionId: { description: 'site section id, title or path' },
  siteSpaceId: { description: 'site variant (site space) id, title or path' },
  siteSectionGroupId: { description: 'section group id or title' },
  teamId: { description: 'team id or title' },
  userId: { description: 'user id or e-mail' },
};

function fail(route, command, message) {
  throw new Error(`${route.id} (${command}): ${message}`);
}

/** The derived spec (plain data) of one command declaration. */
export function deriveCommand(route, decl, registry) {
  const where = (message) => fail(route, decl.command, message);
  const pathNames = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  const output = decl.output ?? (route.paginated ? 'list' : route.method === 'DELETE' ? 'delete' : route.success === 204 ? 'empty' : 'object');
  const fields = [];
  for (const [area, schema] of [['query', route.query], ['body', route.body]]) {
    for (const [name, fieldSchema] of Object.entries(shapeOf(schema))) {
      if (area === 'query' && output === 'list' && PAGINATION.has(name)) continue;
      fields.push({ area, name, schema: fieldSchema });
    }
  }
  for (const name of pathNames) fields.push({ area: 'params', name, schema: undefined });
  const declared = decl.flags ?? {};
  const find = (key) => {
    // A field whose own name has dots (0.202's `format.markdown.refs` query parameter).
    const dotted = key.includes('.') ? fields.filter((f) => f.name === key && f.area !== 'params') : [];
    if (dotted.length === 1) return dotted[0];
    const parts = key.split('.');
    if (parts.length > 2) {
      // A nested body or query field (`body.adaptiveContent.enabled`): through the object schemas.
      const [area, ...path] = parts;
      let schema = area === 'body' ? route.body : area === 'query' ? route.query : undefined;
      for (const name of path) schema = shapeOf(schema)[name];
      if (!schema) where(`flags names "${key}", which is no field of the route`);
      const nested = { area, name: path.join('.'), schema };
      fields.push(nested);
      return nested;
    }
    const [area, name] = parts.length === 2 ? parts : [undefined, key];
    const matches = fields.filter((f) => f.name === name && (area === undefined ? f.area !== 'params' : f.area === area));
    if (matches.length === 0) where(`flags names "${key}", which is no field of the route (query: ${Object.keys(shapeOf(route.query)).join(', ') || 'none'}; body: ${Object.keys(shapeOf(route.body)).join(', ') || 'none'})`);
    if (matches.length > 1) where(`flags names "${key}", a field of both query and body: write query.${name} or body.${name}`);
    return matches[0];
  };
  const named = new Map(Object.keys(declared).map((key) => [find(key), declared[key]]));
  const flagParams = new Set([...named.keys()].filter((f) => f.area === 'params').map((f) => f.name));
  // Arguments that fill a body or query field (`site space add SITE SPACE`: the space goes in the body).
  const argFields = new Set((decl.args ?? []).filter((a) => typeof a === 'object' && (a.to || a.variadic)).map((a) => find(a.to ?? a.variadic.to)));

  // Positional arguments: the path parameters in order, without organizationId (`--org`) or those given as flags.
  const argDecls = decl.args ?? pathNames.filter((n) => n !== 'organizationId' && !flagParams.has(n));
  const args = argDecls.map((a) => {
    const arg = typeof a === 'string' ? (ARGUMENTS[a]?.name ? { name: ARGUMENTS[a].name, param: a } : { name: a }) : a;
    const param = arg.param ?? arg.name;
    if (!arg.variadic && !arg.to && !arg.byHook && !pathNames.includes(param)) where(`argument ${arg.name} fills "${param}", which is not a parameter of ${route.path}`);
    const text = arg.description ?? decl.argHelp?.[arg.name] ?? ARGUMENTS[param]?.description ?? words(arg.name);
    return {
      name: arg.name,
      ...(arg.param && arg.param !== arg.name ? { param: arg.param } : {}),
      description: text,
      ...(arg.variadic ? { variadic: arg.variadic } : {}),
      ...(arg.to ? { to: arg.to } : {}),
      ...(arg.to && arg.optional ? { optional: true } : {}),
    };
  });
  const filled = new Set([...args.filter((a) => !a.to).map((a) => a.param ?? a.name), ...flagParams]);
  const org = pathNames.includes('organizationId') && !filled.has('organizationId');
  for (const name of pathNames) if (!filled.has(name) && !(name === 'organizationId' && org)) where(`path parameter ${name} is neither an argument nor a flag`);

  const flags = [];
  const ordered = [...named.keys(), ...(decl.onlyNamedFlags ? [] : fields.filter((f) => f.area !== 'params' && !named.has(f) && !argFields.has(f)))];
  for (const field of ordered) {
    const given = named.get(field);
    if (given === false) continue;
    const options = typeof given === 'string' ? { description: given } : (given ?? {});
    const kind = options.type ? { type: options.type } : field.area === 'params' ? { type: 'string' } : fieldKind(field.schema, registry);
    if (!kind) {
      if (named.has(field)) where(`field ${field.area}.${field.name} has no flag type (an object or a union): say \`type: 'json'\`, or leave it to --body`);
      continue;
    }
    const flag = options.flag ?? `--${kebab(field.name)}${kind.type === 'boolean' ? '' : ` <${field.name}>`}`;
    // A boolean flag that takes a value (`--published <bool>`) offers the two a boolean has.
    if (kind.type === 'boolean' && flag.includes('<') && !options.type) kind.choices = ['true', 'false'];
    const text = options.description ?? (field.schema && description(field.schema)) ?? words(field.name);
    flags.push({
      flags: flag,
      description: text,
      to: `${field.area}.${field.name}`,
      ...(kind.type === 'string' ? {} : { type: kind.type }),
      ...(kind.choices && !options.type ? { choices: options.nullAs ? [...kind.choices, options.nullAs] : kind.choices } : {}),
      ...(options.required ? { required: true } : {}),
      ...(options.noneIsNull ? { noneIsNull: true } : {}),
      ...(options.nullAs ? { nullAs: options.nullAs } : {}),
      ...(options.offer ? { offer: options.offer } : {}),
      ...(options.aliases ? { aliases: options.aliases } : {}),
    });
    // A boolean that can also be turned off (`--no-draft`), described apart.
    if (options.negate) flags.push({ flags: flag.replace(/^--/, '--no-'), description: options.negate, to: `${field.area}.${field.name}`, type: 'boolean' });
  }
  const longs = flags.map((f) => /--[a-z0-9-]+/i.exec(f.flags)?.[0]);
  const twice = longs.find((long, i) => longs.indexOf(long) !== i);
  if (twice) where(`two flags are ${twice} (a renamed flag meets a field's own): hide one with false, or name the flags (onlyNamedFlags)`);
  return {
    command: decl.command,
    route: route.id,
    summary: decl.summary ?? route.summary,
    ...(decl.aliases ? { aliases: decl.aliases } : {}),
    ...(args.length ? { args } : {}),
    ...(org ? { org: true } : {}),
    ...(flags.length ? { flags } : {}),
    output,
    columns: decl.columns,
    ...(decl.noun ? { noun: decl.noun } : {}),
    ...(decl.confirm ? { confirm: decl.confirm } : {}),
    ...(decl.nonEmptyBody ? { nonEmptyBody: decl.nonEmptyBody } : {}),
    ...(decl.rawBody === false ? { rawBody: false } : {}),
    ...(decl.examples ? { examples: decl.examples } : {}),
  };
}

/** Loads the route table and the hook modules (bundled once, so schemas are the ones the registry knows). */
async function load() {
  const hookFiles = readdirSync(join(root, 'src/cli/commands'))
    .filter((f) => f.endsWith('.ts') && /export const hooks\b/.test(readFileSync(join(root, 'src/cli/commands', f), 'utf8')))
    .sort();
  // Inside the checkout, so the bundle's imports of dependencies resolve from node_modules.
  mkdirSync(join(root, 'node_modules/.cache'), { recursive: true });
  const dir = mkdtempSync(join(root, 'node_modules/.cache/docsctl-commands-'));
  try {
    const outfile = join(dir, 'table.mjs');
    const hookImports = hookFiles.map((f, i) => `import { hooks as h${i} } from './src/cli/commands/${f}';`).join('\n');
    await build({
      stdin: {
        contents: `export { handWrittenModules } from './src/api/route-modules.ts'; export { lightQueryParams } from './src/api/schemas/common.ts'; export { columns } from './src/output/columns.ts';
${hookImports}
export const hookModules = { ${hookFiles.map((f, i) => `${JSON.stringify(f.replace(/\.ts$/, ''))}: h${i}`).join(', ')} };`,
        resolveDir: root,
        loader: 'ts',
      },
      outfile, bundle: true, platform: 'node', format: 'esm', logLevel: 'error', packages: 'external',
    });
    return await import(pathToFileURL(outfile).href);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Commands in help order: list, get, create, edit, delete first, the others in route-table order. */
const VERB_RANK = ['list', 'get', 'create', 'edit', 'delete'];
const rank = (command) => {
  const verb = command.split(' ').at(-1);
  const i = VERB_RANK.indexOf(verb);
  return i === -1 ? VERB_RANK.length : i;
};

export async function renderCommands() {
  const { handWrittenModules, lightQueryParams, columns, hookModules } = await load();
  const specs = [];
  const seen = new Map();
  for (const mod of Object.values(handWrittenModules)) {
    for (const route of Object.values(mod)) {
      if (!route || typeof route !== 'object' || !('id' in route) || !route.cli) continue;
      for (const decl of route.cli) {
        if (seen.has(decl.command)) fail(route, decl.command, `command already declared by ${seen.get(decl.command)}`);
        seen.set(decl.command, route.id);
        if (!decl.columns || !(decl.columns in columns)) fail(route, decl.command, `columns "${decl.columns}" is not a column set of src/output/columns.ts`);
        specs.push(deriveCommand(route, decl, lightQueryParams));
      }
    }
  }
  const hookOf = new Map();
  for (const [file, hooks] of Object.entries(hookModules)) {
    for (const command of Object.keys(hooks)) {
      if (!seen.has(command)) throw new Error(`src/cli/commands/${file}.ts: hooks for "${command}", which no route declares (cli.command)`);
      if (hookOf.has(command)) throw new Error(`hooks for "${command}" in both ${hookOf.get(command)}.ts and ${file}.ts`);
      hookOf.set(command, file);
    }
  }
  const groups = new Map();
  for (const spec of specs) {
    const group = spec.command.split(' ')[0];
    if (!groups.has(group)) groups.set(group, []);
    groups.get(group).push(spec);
  }
  const files = new Map();
  const header = '// AUTO-GENERATED by scripts/gen-commands.mjs from the route table (src/api/routes/*.ts `cli`). Do not edit.\n';
  for (const [group, list] of groups) {
    list.sort((a, b) => a.command.split(' ').length - b.command.split(' ').length || rank(a.command) - rank(b.command));
    const used = [...new Set(list.map((s) => hookOf.get(s.command)).filter(Boolean))];
    const imports = used.map((file, i) => `import { hooks as hooks${i} } from '../commands/${file}.js';`).join('\n');
    const body = list
      .map((spec) => {
        const file = hookOf.get(spec.command);
        const data = JSON.stringify(spec);
        return file ? `  withHooks(${data}, hooks${used.indexOf(file)}[${JSON.stringify(spec.command)}]),` : `  withHooks(${data}),`;
      })
      .join('\n');
    files.set(
      `${group}.ts`,
      `${header}import { withHooks } from '../derive.js';
import type { OperationCommandSpec } from '../operation.js';
${imports}

export const specs: readonly OperationCommandSpec[] = [
${body}
];
`,
    );
  }
  const names = [...groups.keys()].sort();
  files.set(
    'groups.ts',
    `${header}import type { OperationCommandSpec } from '../operation.js';

/** The top-level groups of the derived commands, each loaded on demand. */
export const derivedGroups: Record<string, () => Promise<readonly OperationCommandSpec[]>> = {
${names.map((g) => `  ${JSON.stringify(g)}: async () => (await import('./${g}.js')).specs,`).join('\n')}
};
`,
  );
  return files;
}

export async function writeCommands() {
  const files = await renderCommands();
  mkdirSync(out, { recursive: true });
  for (const name of readdirSync(out)) if (!files.has(name)) rmSync(join(out, name));
  for (const [name, text] of files) {
    let current = '';
    try {
      current = readFileSync(join(out, name), 'utf8');
    } catch {
      // new file
    }
    if (current !== text) writeFileSync(join(out, name), text);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await writeCommands();
