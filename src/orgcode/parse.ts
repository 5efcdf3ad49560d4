/**
 * The organization file's text → a checked `OrgFile`, or one usage error (exit 2) naming the
 * file, the line and the key, before anything is read or changed:
 *
 *   org.yaml:12: spaces[2].visibilty: unknown field; did you mean visibility?
 *
 * YAML or JSON (JSON is YAML): JSON.parse for JSON, yaml-block.ts for the block style export writes,
 * js-yaml (fast) for other YAML without aliases, and
 * `yaml` (eemeli/yaml: YAML 1.2, keeps source ranges for the line numbers, bounds alias expansion)
 * for the rest and for every error's line. `yaml` (115 KB that every plan would compile) loads only
 * then: an error found while planning, before the file's lines are loaded, is found again with
 * them (`withLines`). The value is checked against the file's shape without
 * zod (file-check.ts); zod and the schema load only for a file that check does not accept, to
 * give its error. Hostile files are bounded: the text's size,
 * the number of alias dereferences (a "billion laughs" file fails at the limit instead of
 * expanding), and duplicate keys are errors. The `Located` answer maps a field path back to
 * its line, so the planner's reference errors name lines too.
 */
import type { Document } from 'yaml';
import type * as z from 'zod';
import { UsageError } from '../api/errors.js';
import { checkOrgFile } from './file-check.js';
import { readBlockYaml } from './yaml-block.js';
import type { FilePermission, FileSectionGroup, OrgFile } from './schema.js';

/** Largest file accepted: far above any real organization (1,000 spaces take ~100 KiB). */
export const MAX_FILE_BYTES = 8 * 1024 * 1024;
/** Alias dereferences allowed while building the value: enough for shared snippets, not for an exponential expansion. */
export const MAX_ALIASES = 1000;

export type FieldPath = ReadonlyArray<string | number>;

export interface Located {
  file: OrgFile;
  /** `org.yaml:12` for the node at `path` (the nearest ancestor that exists), or the source alone (also before `lines`). */
  where(path: FieldPath): string;
  /** Loads what `where` needs to name lines (the `yaml` package and the file's document). */
  lines(): Promise<void>;
}

type Yaml = typeof import('yaml');
let yamlModule: Yaml | undefined;

/** The `yaml` package, loaded on first need (a CommonJS module: its exports may come as `default`). */
export async function loadYaml(): Promise<Yaml> {
  if (!yamlModule) {
    const loaded = (await import('yaml')) as Yaml & { default?: Yaml };
    yamlModule = typeof loaded.parseDocument === 'function' ? loaded : (loaded.default as Yaml);
  }
  return yamlModule;
}

/**
 * Runs `run` (planning a file, say); when it fails with a usage error before the file's lines
 * were loaded, loads them and runs it again, so the error names its line. Planning is
 * deterministic, so the second run fails the same way (a run that changes nothing: a plan).
 */
export async function withLines<T>(located: Located, run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof UsageError) || yamlModule) throw error;
    await located.lines();
    return await run();
  }
}

/** `spaces[2].visibility` */
export function formatPath(path: FieldPath): string {
  return path.map((part, index) => (typeof part === 'number' ? `[${part}]` : index === 0 ? part : `.${part}`)).join('');
}

export function fileError(where: string, path: FieldPath, message: string, hint?: string): UsageError {
  const at = path.length ? `${formatPath(path)}: ` : '';
  return new UsageError(`${where}: ${at}${message}`, hint === undefined ? {} : { hint });
}

export async function parseOrgFile(text: string, source: string): Promise<Located> {
  if (Buffer.byteLength(text) > MAX_FILE_BYTES) {
    throw new UsageError(`${source}: the file is larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB`, { hint: 'split the organization into several files' });
  }
  // A JSON file is read with JSON.parse (a 200 KB file: ~5 ms, where the YAML parser takes ~0.5 s
  // of a cold process); YAML in the block style export writes by yaml-block.ts (a few ms where a
  // cold js-yaml takes ~90 ms for 1,000 spaces); other YAML without aliases by js-yaml (~5×
  // faster than yaml's Document API). yaml's document, for line numbers, alias bounds and its
  // error messages, is parsed only when an error needs one, or for a file that uses aliases.
  let value: unknown = jsonValue(text);
  if (value === NOT_JSON) value = readBlockYaml(text) ?? (await fastYamlValue(text));
  let parsed: { doc: Document; lineOf: (offset: number) => string } | undefined;
  /** The file's YAML document: only after loadYaml. */
  const yamlDocument = () => {
    if (!parsed) {
      const { LineCounter, parseDocument } = yamlModule as Yaml;
      const lineCounter = new LineCounter();
      const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false, merge: false });
      parsed = { doc, lineOf: (offset: number) => `${source}:${lineCounter.linePos(offset).line}` };
    }
    return parsed;
  };
  if (value === NOT_JSON) {
    await loadYaml();
    const { doc, lineOf } = yamlDocument();
    const first = doc.errors[0];
    if (first) throw new UsageError(`${lineOf(first.pos[0])}: invalid YAML: ${first.message.split('\n')[0] as string}`);
    try {
      value = doc.toJS({ maxAliasCount: MAX_ALIASES });
    } catch (error) {
      throw new UsageError(`${source}: ${(error as Error).message} (more than ${MAX_ALIASES} alias expansions)`, { hint: 'write the repeated parts out, or use fewer aliases' });
    }
  }
  const where = (path: FieldPath) => {
    if (!yamlModule) return source;
    const { doc, lineOf } = yamlDocument();
    const node = nodeAt(doc, path);
    const range = (node as { range?: [number, number] } | undefined)?.range;
    return range ? lineOf(range[0]) : source;
  };
  if (value === null || value === undefined) value = {};
  let file = checkOrgFile(value) as OrgFile | undefined;
  if (file === undefined) {
    const { OrgFileSchema } = await import('./schema.js');
    const result = OrgFileSchema.safeParse(value);
    if (!result.success) {
      await loadYaml();
      throw issueError(OrgFileSchema, result.error.issues[0] as z.core.$ZodIssue, value, yamlDocument().doc, where);
    }
    file = result.data;
  }
  const located: Located = {
    file,
    where,
    lines: async () => {
      await loadYaml();
    },
  };
  const checked = file;
  await withLines(located, () => checkDuplicates(checked, where));
  return located;
}

const NOT_JSON = Symbol('not JSON');

/**
 * The value of a YAML file read by js-yaml (YAML 1.2 core schema, duplicate keys refused, no
 * merge keys, nesting bounded), or NOT_JSON when it refuses the file or the file has an alias:
 * yaml then reads it, with the alias bound and the line of the error.
 */
async function fastYamlValue(text: string): Promise<unknown> {
  const { load } = await import('js-yaml');
  try {
    return load(text, { maxAliases: 0 });
  } catch {
    return NOT_JSON;
  }
}

/** The value of a file that is a JSON object, or NOT_JSON (YAML, or broken JSON: the YAML parser names the line). */
function jsonValue(text: string): unknown {
  if (!text.trimStart().startsWith('{')) return NOT_JSON;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return NOT_JSON;
  }
}

/** The node at `path`, or its nearest ancestor; for a key of a map, the key's node. */
function nodeAt(doc: Document, path: FieldPath): unknown {
  for (let length = path.length; length >= 0; length -= 1) {
    const node = length === 0 ? doc.contents : doc.getIn(path.slice(0, length), true);
    if (node && typeof node === 'object') return node;
  }
  return undefined;
}

function keyNode(doc: Document, path: FieldPath, key: string): FieldPath {
  const { isMap, isScalar } = yamlModule as Yaml;
  const map = path.length ? doc.getIn(path, true) : doc.contents;
  if (isMap(map)) {
    const pair = map.items.find((item) => isScalar(item.key) && item.key.value === key);
    if (pair) return [...path, key];
  }
  return path;
}

function issueError(schema: z.core.$ZodType, issue: z.core.$ZodIssue, value: unknown, doc: Document, where: (path: FieldPath) => string): UsageError {
  const path = issue.path.filter((part): part is string | number => typeof part !== 'symbol');
  let input = value;
  for (const part of path) input = (input as Record<string | number, unknown> | null | undefined)?.[part];
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] as string;
    const allowed = allowedKeys(schema, path, doc);
    const near = closest(key, allowed);
    return fileError(where(keyNode(doc, path, key)), [...path, key], `unknown field${near ? `; did you mean ${near}?` : ''}`, `the fields here are: ${allowed.join(', ')}`);
  }
  if (issue.code === 'invalid_type') {
    return fileError(where(path), path, input === undefined ? `missing (${issue.expected} required)` : `expected ${issue.expected}, got ${JSON.stringify(input)?.slice(0, 60)}`);
  }
  if (issue.code === 'invalid_value') return fileError(where(path), path, `${JSON.stringify(input)} is not one of ${issue.values.map((v) => String(v)).join(', ')}`);
  if (issue.code === 'invalid_union') return fileError(where(path), path, 'not a valid value here (see docsctl apply --schema)');
  return fileError(where(path), path, issue.message);
}

/** The keys an object at `path` may have, read from the schema. */
function allowedKeys(root: z.core.$ZodType, path: FieldPath, doc: Document): string[] {
  let schema: z.core.$ZodType | undefined = root;
  const values = doc.toJS({ maxAliasCount: MAX_ALIASES }) as unknown;
  let value: unknown = values;
  for (const part of path) {
    schema = unwrap(schema, value);
    const def = schema?._zod.def as { type: string; shape?: Record<string, z.core.$ZodType>; element?: z.core.$ZodType } | undefined;
    if (def?.type === 'object' && typeof part === 'string') schema = def.shape?.[part];
    else if (def?.type === 'array') schema = def.element;
    else return [];
    value = (value as Record<string | number, unknown> | undefined)?.[part];
  }
  const def = unwrap(schema, value)?._zod.def as { type: string; shape?: Record<string, unknown> } | undefined;
  return def?.type === 'object' ? Object.keys(def.shape ?? {}) : [];
}

/** Looks through optional, nullable, default, lazy and (for an object value) the union member whose keys fit best. */
function unwrap(schema: z.core.$ZodType | undefined, value: unknown): z.core.$ZodType | undefined {
  let current = schema;
  for (let depth = 0; current && depth < 10; depth += 1) {
    const def = current._zod.def as { type: string; innerType?: z.core.$ZodType; getter?: () => z.core.$ZodType; options?: z.core.$ZodType[] };
    if (def.innerType && (def.type === 'optional' || def.type === 'nullable' || def.type === 'default')) current = def.innerType;
    else if (def.type === 'lazy' && def.getter) current = def.getter();
    else if (def.type === 'union' && def.options) {
      const objects = def.options.filter((option) => (option._zod.def as { type: string }).type === 'object');
      const keys = value && typeof value === 'object' ? Object.keys(value) : [];
      const score = (option: z.core.$ZodType) => keys.filter((key) => key in ((option._zod.def as unknown as { shape: object }).shape ?? {})).length;
      current = [...objects].sort((a, b) => score(b) - score(a))[0];
    } else return current;
  }
  return current;
}

/** The allowed key nearest `key` (edit distance ≤ 2, or a case-insensitive match), if any. */
export function closest(key: string, allowed: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of allowed) {
    const distance = candidate.toLowerCase() === key.toLowerCase() ? 0 : editDistance(key, candidate);
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best;
}

function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const row = [i];
    for (let j = 1; j <= b.length; j += 1) {
      row[j] = Math.min((previous[j] as number) + 1, (row[j - 1] as number) + 1, (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = row;
  }
  return previous[b.length] as number;
}

/** Two objects of one kind with one name: the file would be ambiguous. */
function checkDuplicates(file: OrgFile, where: (path: FieldPath) => string): void {
  // Objects pinned with id: may share a name (export pins the ones that do); a reference to that name is then ambiguous.
  const once = (kind: string, names: Array<[string, FieldPath, string?]>) => {
    const seen = new Map<string, FieldPath>();
    for (const [name, path, id] of names) {
      if (id !== undefined) continue;
      const earlier = seen.get(name);
      if (earlier) throw fileError(where(path), path, `${kind} "${name}" is listed twice (also at ${formatPath(earlier)})`, 'name each object once');
      seen.set(name, path);
    }
  };
  // The same for a top-level list, whose paths are made only for the error (a file of 1,000 spaces: ~3,000 fewer arrays).
  const onceIn = <T>(kind: string, key: string, field: string, list: readonly T[] | undefined, nameOf: (item: T) => string | undefined) => {
    const seen = new Map<string, number>();
    list?.forEach((item, i) => {
      const name = nameOf(item);
      if (name === undefined) return;
      const earlier = seen.get(name);
      if (earlier !== undefined) {
        const path = [key, i, field];
        throw fileError(where(path), path, `${kind} "${name}" is listed twice (also at ${formatPath([key, earlier, field])})`, 'name each object once');
      }
      seen.set(name, i);
    });
  };
  onceIn('member', 'members', 'email', file.members, (member) => member.email.toLowerCase());
  onceIn('custom field', 'customFields', 'name', file.customFields, (field) => field.name);
  const collections: Array<[string, FieldPath, string?]> = [];
  const walk = (list: NonNullable<OrgFile['collections']>, prefix: string, path: FieldPath) =>
    list.forEach((collection, i) => {
      const name = `${prefix}${collection.title}`;
      collections.push([name, [...path, i, 'title'], collection.id]);
      walk(collection.collections ?? [], `${name}/`, [...path, i, 'collections']);
    });
  walk(file.collections ?? [], '', ['collections']);
  once('collection', collections);
  onceIn('space', 'spaces', 'title', file.spaces, (space) => (space.id !== undefined ? undefined : space.parent ? `${space.parent}/${space.title}` : space.title));
  onceIn('team', 'teams', 'title', file.teams, (team) => (team.id !== undefined ? undefined : team.title));
  onceIn('site', 'sites', 'title', file.sites, (site) => (site.id !== undefined ? undefined : site.title));
  const grants = (owner: string, list: readonly FilePermission[] | undefined, path: FieldPath) =>
    once(`permission holder of ${owner}`, (list ?? []).map((grant, i) => ('user' in grant ? [grant.user.toLowerCase(), [...path, i, 'user']] : [`team ${grant.team}`, [...path, i, 'team']])));
  const collectionGrants = (list: NonNullable<OrgFile['collections']>, path: FieldPath) =>
    list.forEach((collection, i) => {
      grants(`collection "${collection.title}"`, collection.permissions, [...path, i, 'permissions']);
      collectionGrants(collection.collections ?? [], [...path, i, 'collections']);
    });
  collectionGrants(file.collections ?? [], ['collections']);
  (file.spaces ?? []).forEach((space, i) => space.permissions && grants(`space "${space.title}"`, space.permissions, ['spaces', i, 'permissions']));
  (file.sites ?? []).forEach((site, s) => {
    grants(`site "${site.title}"`, site.permissions, ['sites', s, 'permissions']);
    // A section is named by its title in the whole site (at the top or in any group), a group too.
    const sections: Array<[string, FieldPath, string?]> = (site.sections ?? []).map((section, i) => [section.title, ['sites', s, 'sections', i, 'title'], section.id]);
    const groups: Array<[string, FieldPath, string?]> = [];
    const walkGroups = (list: readonly FileSectionGroup[], path: FieldPath) =>
      list.forEach((group, g) => {
        groups.push([group.title, [...path, g, 'title'], group.id]);
        (group.sections ?? []).forEach((section, i) => sections.push([section.title, [...path, g, 'sections', i, 'title'], section.id]));
        walkGroups(group.sectionGroups ?? [], [...path, g, 'sectionGroups']);
      });
    walkGroups(site.sectionGroups ?? [], ['sites', s, 'sectionGroups']);
    once(`section of site "${site.title}"`, sections);
    once(`section group of site "${site.title}"`, groups);
    once(`share link of site "${site.title}"`, (site.shareLinks ?? []).map((link, i) => [link.name, ['sites', s, 'shareLinks', i, 'name']]));
    once(`redirect of site "${site.title}"`, (site.redirects ?? []).map((redirect, i) => [redirect.source, ['sites', s, 'redirects', i, 'source']]));
  });
}
