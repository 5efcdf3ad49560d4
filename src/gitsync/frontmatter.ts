/**
 * Page front matter: YAML between `---` lines at byte 0. The raw block is kept
 * as written; when the page's fields change, only the changed keys are
 * patched (through the YAML document, so comments, unknown keys and their
 * order survive). Fields: `description`, `icon`, `hidden`, `noIndex`,
 * `noRobotsIndex`, `cover` + `coverY`, `layout` (nested `{visible}` keys and
 * `cover.size`/`cover.mask`, flattened like the API's `RevisionPageLayoutOptions`).
 */
import { Document, isMap, parseDocument, Scalar, YAMLMap } from 'yaml';
import type { ContentRef, PageLayout, PageMeta } from '../content-model/model.js';
import type { Eol } from '../content-model/markdown.js';

/** A front matter block split off a page file. */
export interface FrontMatterBlock {
  /** The whole block, exactly as written: opening line, YAML, closing line (with its line break when there is one). */
  raw: string;
  /** The opening `---` line with its line break. */
  open: string;
  /** The YAML between the lines. */
  yaml: string;
  /** The closing line (`---` or `...`) with its line break, if any. */
  close: string;
}

export interface SplitPage {
  frontMatter?: FrontMatterBlock;
  body: string;
}

/** Splits the front matter off a page file; none when the file does not start with `---` or the block is not closed. */
export function splitFrontMatter(text: string): SplitPage {
  const first = /^---[ \t]*(\r?\n)/.exec(text);
  if (!first) return { body: text };
  let pos = first[0].length;
  while (pos <= text.length) {
    const nl = text.indexOf('\n', pos);
    const end = nl < 0 ? text.length : nl + 1;
    const line = text.slice(pos, nl < 0 ? text.length : nl).replace(/\r$/, '');
    if (/^(?:---|\.\.\.)[ \t]*$/.test(line)) {
      return {
        frontMatter: {
          raw: text.slice(0, end),
          open: first[0],
          yaml: text.slice(first[0].length, pos),
          close: text.slice(pos, end),
        },
        body: text.slice(end),
      };
    }
    if (nl < 0) break;
    pos = end;
  }
  return { body: text };
}

/** The page fields front matter carries. */
export type PageFields = Pick<PageMeta, 'description' | 'icon' | 'hidden' | 'noIndex' | 'noRobotsIndex' | 'cover' | 'layout'>;

export const PAGE_FIELD_KEYS = ['description', 'icon', 'hidden', 'noIndex', 'noRobotsIndex', 'cover', 'layout'] as const;

/** Plain scalars that YAML 1.2 reads as something other than a string. */
const RESERVED = /^(?:true|false|null|~|[-+]?(?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?|[-+]?\.inf|\.nan|0x[0-9a-f]+|0o[0-7]+)$/i;

/**
 * The common front matter — `key: plain text` lines, `true`/`false` — without the
 * YAML parser (it dominates the import of a large repository). Anything else
 * (quotes, nesting, lists, comments, block scalars, numbers, null) is undefined and
 * goes through the real parser; test/gitsync/frontmatter-fast.test.ts checks both agree.
 */
export function parseSimpleFrontMatter(yaml: string): Record<string, unknown> | undefined {
  const data: Record<string, unknown> = {};
  for (const line of yaml.split(/\r?\n/)) {
    if (line === '') continue;
    const match = /^([A-Za-z_][A-Za-z0-9_-]*): ([^\s].*)$/.exec(line);
    if (!match) return undefined;
    const key = match[1] as string;
    const value = (match[2] as string).trimEnd();
    if (Object.hasOwn(data, key)) return undefined;
    if (value === 'true' || value === 'false') {
      data[key] = value === 'true';
      continue;
    }
    if (!/^[A-Za-z(][^#:]*$/.test(value) || /[\t]/.test(value) || RESERVED.test(value) || value.includes(' #')) return undefined;
    data[key] = value;
  }
  return data;
}

/** Alias uses a YAML document may expand to (the `yaml` package's own default): past it, a "billion laughs" document. */
export const MAX_YAML_ALIASES = 100;

/**
 * A parsed YAML document as plain data. Aliases that expand past MAX_YAML_ALIASES
 * are `refused` (an exponential "billion laughs" document: hostile, not a typo);
 * an alias without its anchor is an `error` like any invalid YAML.
 */
export function yamlData(doc: { toJS(options: { maxAliasCount: number }): unknown }): { value: unknown; error?: string; refused?: boolean } {
  try {
    return { value: doc.toJS({ maxAliasCount: MAX_YAML_ALIASES }) };
  } catch (error) {
    if (!(error instanceof ReferenceError)) throw error;
    if (/excessive alias/i.test(error.message)) {
      return { value: undefined, error: `its YAML aliases expand past ${MAX_YAML_ALIASES} uses (a resource exhaustion attack)`, refused: true };
    }
    return { value: undefined, error: error.message.split('\n')[0] ?? 'invalid YAML' };
  }
}

/**
 * Parses front matter YAML to a plain object; `error` when it is not valid YAML or not
 * a mapping, and `refused` as well when it is hostile (yamlData): the importer then
 * refuses the file instead of keeping it as written.
 */
export function parseFrontMatter(yaml: string): { data: Record<string, unknown>; error?: string; refused?: boolean } {
  const simple = parseSimpleFrontMatter(yaml);
  if (simple) return { data: simple };
  const doc = parseDocument(yaml, { prettyErrors: false });
  const problem = doc.errors[0];
  if (problem) return { data: {}, error: problem.message.split('\n')[0] ?? 'invalid YAML' };
  const { value, error, refused } = yamlData(doc);
  if (error !== undefined) return { data: {}, error, ...(refused ? { refused } : {}) };
  if (value === null || value === undefined) return { data: {} };
  if (typeof value !== 'object' || Array.isArray(value)) return { data: {}, error: 'front matter is not a mapping' };
  return { data: value as Record<string, unknown> };
}

// GitBook's order; `tags`, `actions` and `anchors` are the newer keys (0.202's RevisionPageLayoutOptions).
const LAYOUT_FLAGS = ['title', 'description', 'tableOfContents', 'outline', 'pagination', 'metadata', 'tags', 'actions', 'anchors'] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function layoutFrom(value: unknown): PageLayout | undefined {
  if (!isRecord(value)) return undefined;
  const layout: PageLayout = {};
  if (value.width === 'default' || value.width === 'wide') layout.width = value.width;
  const cover = value.cover;
  if (isRecord(cover)) {
    if (typeof cover.visible === 'boolean') layout.cover = cover.visible;
    if (cover.size === 'hero' || cover.size === 'full' || cover.size === 'background') layout.coverSize = cover.size;
    if (cover.mask === 'none' || cover.mask === 'radial') layout.coverMask = cover.mask;
  }
  for (const key of LAYOUT_FLAGS) {
    const entry = value[key];
    if (isRecord(entry) && typeof entry.visible === 'boolean') layout[key] = entry.visible;
  }
  return layout;
}

/**
 * The page fields of parsed front matter. `resolveCover` turns a `cover:`
 * value (a path relative to the page, or a URL) into a reference; undefined
 * when it leads nowhere (the cover then has no `ref`).
 */
export function fieldsFromFrontMatter(
  data: Record<string, unknown>,
  resolveCover: (value: string) => ContentRef | undefined,
): PageFields {
  const fields: PageFields = {};
  if (typeof data.description === 'string') fields.description = data.description;
  if (typeof data.icon === 'string') fields.icon = data.icon;
  for (const key of ['hidden', 'noIndex', 'noRobotsIndex'] as const) {
    const value = data[key];
    if (typeof value === 'boolean') fields[key] = value;
  }
  if (typeof data.cover === 'string') {
    const ref = resolveCover(data.cover);
    const yPos = typeof data.coverY === 'number' && Number.isFinite(data.coverY) ? data.coverY : 0;
    fields.cover = ref ? { ref, yPos } : { yPos };
  }
  const layout = layoutFrom(data.layout);
  if (layout) fields.layout = layout;
  return fields;
}

/** Deep equality of plain data, ignoring keys whose value is undefined. */
export function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => sameData(item, b[i]));
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(ra), ...Object.keys(rb)]);
  for (const key of keys) if (!sameData(ra[key], rb[key])) return false;
  return true;
}

/** How the renderer writes covers and reads them back, relative to the page being written. */
export interface CoverCodec {
  /** The `cover:` value for a reference; undefined when it cannot be written (the reference is then dropped). */
  write: (ref: ContentRef) => string | undefined;
  /** As for `fieldsFromFrontMatter`. */
  read: (value: string) => ContentRef | undefined;
}

/** The fields of a page, as front matter can hold them (covers it cannot write lose their `ref`, `refDark` is dropped). */
export function writableFields(page: PageFields, cover: CoverCodec): PageFields {
  const fields: PageFields = {};
  for (const key of PAGE_FIELD_KEYS) {
    const value = page[key];
    if (value === undefined) continue;
    if (key === 'cover' && page.cover) {
      const ref = page.cover.ref && cover.write(page.cover.ref) !== undefined ? page.cover.ref : undefined;
      fields.cover = ref ? { ref, yPos: page.cover.yPos } : { yPos: page.cover.yPos };
    } else if (key === 'layout' && page.layout) {
      fields.layout = { ...page.layout };
    } else {
      (fields as Record<string, unknown>)[key] = value;
    }
  }
  return fields;
}

export interface RenderedFrontMatter {
  /** The block to write (undefined: no front matter). */
  text: string | undefined;
  /** Set when the raw block could not be patched and was replaced. */
  warning?: string;
}

/**
 * The front matter to write for a page: `raw` unchanged when the fields it
 * holds equal the page's; else `raw` with the changed keys patched; else (no
 * raw block) a new block in GitBook's key order. A block left empty is dropped.
 */
export function renderFrontMatter(
  raw: FrontMatterBlock | undefined,
  page: PageFields,
  cover: CoverCodec,
  eol: Eol,
): RenderedFrontMatter {
  const wanted = writableFields(page, cover);
  if (raw) {
    const parsed = parseFrontMatter(raw.yaml);
    const current = fieldsFromFrontMatter(parsed.data, cover.read);
    if (sameData(current, wanted)) return { text: raw.raw };
    const doc: Document | undefined = parsed.error ? undefined : (parseDocument(raw.yaml) as Document);
    if (doc && (doc.contents === null || isMap(doc.contents))) {
      if (doc.contents === null) doc.contents = doc.createNode({}) as YAMLMap;
      patch(doc, current, wanted, cover);
      const map = doc.contents as YAMLMap;
      if (map.items.length === 0 && !doc.commentBefore && !doc.comment) return { text: undefined };
      const yaml = withEol(doc.toString({ lineWidth: 80 }), eol);
      const close = raw.close === '' ? '---' : raw.close;
      return { text: raw.open + yaml + close };
    }
    const fresh = newFrontMatter(wanted, cover, eol);
    return {
      text: fresh,
      warning: `front matter was not a valid YAML mapping (${parsed.error ?? 'not a mapping'}); replaced`,
    };
  }
  return { text: newFrontMatter(wanted, cover, eol) };
}

function withEol(text: string, eol: Eol): string {
  return eol === '\n' ? text : text.replace(/\r?\n/g, '\r\n');
}

function descriptionNode(doc: Document, description: string): Scalar {
  const node = doc.createNode(description) as Scalar;
  if (description.length > 80 && !description.includes('\n') && description === description.trim()) {
    node.type = Scalar.BLOCK_FOLDED;
  }
  return node;
}

function patch(doc: Document, current: PageFields, wanted: PageFields, cover: CoverCodec): void {
  for (const key of ['description', 'icon', 'hidden', 'noIndex', 'noRobotsIndex'] as const) {
    if (sameData(current[key], wanted[key])) continue;
    const value = wanted[key];
    if (value === undefined) doc.delete(key);
    else doc.set(key, key === 'description' ? descriptionNode(doc, value as string) : value);
  }
  if (!sameData(current.cover, wanted.cover)) {
    if (!wanted.cover) {
      doc.delete('cover');
      doc.delete('coverY');
    } else {
      const value = wanted.cover.ref ? cover.write(wanted.cover.ref) : undefined;
      if (value !== undefined) doc.set('cover', value);
      if (wanted.cover.yPos !== 0 || doc.has('coverY')) doc.set('coverY', wanted.cover.yPos);
    }
  }
  if (!sameData(current.layout, wanted.layout)) {
    if (!wanted.layout) doc.delete('layout');
    else {
      if (!isMap(doc.get('layout', true))) doc.set('layout', doc.createNode({}));
      const layout = wanted.layout;
      setOrDelete(doc, ['layout', 'width'], layout.width);
      setOrDelete(doc, ['layout', 'cover', 'visible'], layout.cover);
      setOrDelete(doc, ['layout', 'cover', 'size'], layout.coverSize);
      setOrDelete(doc, ['layout', 'cover', 'mask'], layout.coverMask);
      for (const key of LAYOUT_FLAGS) setOrDelete(doc, ['layout', key, 'visible'], layout[key]);
    }
  }
}

function setOrDelete(doc: Document, path: string[], value: unknown): void {
  if (value !== undefined) {
    doc.setIn(path, value);
    return;
  }
  if (!doc.hasIn(path)) return;
  doc.deleteIn(path);
  // Drop a `{visible}` entry left empty.
  const parent = path.slice(0, -1);
  const node = doc.getIn(parent, true);
  if (parent.length > 1 && isMap(node) && node.items.length === 0) doc.deleteIn(parent);
}

function newFrontMatter(fields: PageFields, cover: CoverCodec, eol: Eol): string | undefined {
  const doc = new Document({});
  if (fields.description !== undefined) doc.set('description', descriptionNode(doc, fields.description));
  if (fields.icon !== undefined) doc.set('icon', fields.icon);
  if (fields.cover) {
    const value = fields.cover.ref ? cover.write(fields.cover.ref) : undefined;
    if (value !== undefined) {
      doc.set('cover', value);
      if (fields.cover.yPos !== 0) doc.set('coverY', fields.cover.yPos);
    }
  }
  if (fields.layout) {
    const layout = fields.layout;
    doc.set('layout', doc.createNode({}));
    if (layout.width !== undefined) doc.setIn(['layout', 'width'], layout.width);
    if (layout.cover !== undefined) doc.setIn(['layout', 'cover', 'visible'], layout.cover);
    if (layout.coverSize !== undefined) doc.setIn(['layout', 'cover', 'size'], layout.coverSize);
    if (layout.coverMask !== undefined) doc.setIn(['layout', 'cover', 'mask'], layout.coverMask);
    for (const key of LAYOUT_FLAGS) {
      if (layout[key] !== undefined) doc.setIn(['layout', key, 'visible'], layout[key]);
    }
  }
  for (const key of ['hidden', 'noIndex', 'noRobotsIndex'] as const) {
    if (fields[key] !== undefined) doc.set(key, fields[key]);
  }
  if ((doc.contents as YAMLMap).items.length === 0) return undefined;
  return withEol(`---\n${doc.toString({ lineWidth: 80 })}---\n`, eol);
}
