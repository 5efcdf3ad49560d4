/**
 * SUMMARY.md rewritten as an edit of the file it replaces: every line of an item
 * that did not change is kept byte for byte (its link text, escapes, link title,
 * bullet, indentation, line ending), and so is everything between items (the
 * title, blank lines, comments, `***`); only the items that changed are removed,
 * added or replaced, new lines taking the file's own style (bullet, indentation
 * per depth, line ending).
 *
 * Both tables of contents are read as one sequence of tokens in document order (a
 * group heading, or an item with its depth): the shortest edit between the two
 * sequences says which lines go and where new ones come. The result is parsed back
 * and must give exactly the wanted entries; when it does not (a layout the edit
 * cannot express, such as a root page that must move past a `***`), the file is
 * written whole in GitBook's style (`writeSummary`).
 */
import { diffSequences } from '../content-model/diff3.js';
import { closesFence, escapeInline, openingFence, splitLines } from '../content-model/markdown.js';
import { normalizePath } from '../util/posix-path.js';
import { type SummaryEntry, type SummaryItem, formatDestination, parseSummary, writeSummary } from './summary.js';
import { slugify } from './slug.js';

interface Token {
  /** What the line says: kind, depth, title, destination, link title (or a group's title and slug, a computed block). */
  key: string;
  /** The group it belongs to (its heading's key), '' at the root. */
  group: string;
  depth: number;
  /** 0-based first line and end (exclusive) of the token's own lines in the base file. */
  start: number;
  end: number;
}

const SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:|^\/\//;

/** A destination as it resolves: percent-decoding, `./`, a folder as its README; URLs and anchors as written. */
function destinationKey(href: string): string {
  if (SCHEME.test(href)) return href;
  const hash = href.indexOf('#');
  const anchor = hash < 0 ? '' : href.slice(hash);
  let path = (hash < 0 ? href : href.slice(0, hash)).replace(/\\/g, '/');
  if (path === '') return anchor;
  try {
    path = decodeURI(path);
  } catch {
    // As written.
  }
  let normalized = normalizePath(path) ?? path;
  if (path.endsWith('/') || normalized === '') normalized = normalized === '' ? 'README.md' : `${normalized}/README.md`;
  return normalized + anchor;
}

function itemKey(item: SummaryItem, depth: number): string {
  if (item.kind === 'computed') return JSON.stringify(['computed', depth, item.info, item.yaml]);
  return JSON.stringify(['link', depth, item.title, destinationKey(item.href), item.linkTitle ?? null]);
}

function groupKey(entry: Extract<SummaryEntry, { kind: 'group' }>): string {
  return JSON.stringify(['group', entry.title, entry.slug]);
}

/** The tokens of parsed entries, in document order; `lines` (the base file's) give each token's line span. */
function tokensOf(entries: readonly SummaryEntry[], lines?: readonly string[]): Token[] {
  const tokens: Token[] = [];
  const span = (item: SummaryEntry): { start: number; end: number } => {
    const start = item.line - 1;
    if (!lines || item.kind !== 'computed') return { start, end: start + 1 };
    // A computed item: its bullet line (opening the fence) to the closing fence.
    const first = lines[start] ?? '';
    const bullet = /^([ \t]*)([*+-]|\d{1,9}[.)])([ \t]+)/.exec(first);
    const fence = bullet ? openingFence(first.slice(bullet[0].length), 0) : undefined;
    if (!bullet || !fence) return { start, end: start + 1 };
    const indent = { ...fence, indent: bullet[0].length };
    for (let i = start + 1; i < lines.length; i += 1) if (closesFence(lines[i] as string, indent)) return { start, end: i + 1 };
    return { start, end: lines.length };
  };
  const visit = (items: readonly SummaryItem[], depth: number, group: string): void => {
    for (const item of items) {
      tokens.push({ key: itemKey(item, depth), group, depth, ...span(item) });
      visit(item.children, depth + 1, group);
    }
  };
  for (const entry of entries) {
    if (entry.kind === 'group') {
      const key = groupKey(entry);
      tokens.push({ key, group: key, depth: -1, ...span(entry) });
      visit(entry.children, 0, key);
    } else visit([entry], 0, '');
  }
  return tokens;
}

/** How the base file writes an item at each depth: its indentation, bullet and spacing. */
interface Style {
  eol: string;
  prefix: (depth: number) => string;
  /** What the continuation lines of a computed item at `depth` are indented by. */
  content: (depth: number) => string;
}

function styleOf(lines: readonly string[], tokens: readonly Token[], eol: string): Style {
  const byDepth = new Map<number, string>();
  for (const token of tokens) {
    if (token.depth < 0 || byDepth.has(token.depth)) continue;
    const bullet = /^([ \t]*)([*+-]|\d{1,9}[.)])([ \t]+)/.exec(lines[token.start] ?? '');
    if (bullet) byDepth.set(token.depth, bullet[0].replace(/\d+/, '1'));
  }
  const root = byDepth.get(0) ?? '* ';
  const rootIndent = /^[ \t]*/.exec(root)?.[0] ?? '';
  const next = byDepth.get(1);
  const unit = next !== undefined ? ((/^[ \t]*/.exec(next)?.[0] ?? '').slice(rootIndent.length) || '  ') : '  ';
  const marker = root.trimStart();
  const prefix = (depth: number): string => byDepth.get(depth) ?? rootIndent + unit.repeat(depth) + marker;
  return { eol, prefix, content: (depth) => ' '.repeat(prefix(depth).replace(/\t/g, '    ').length) };
}

/** The lines of one new token (an item without its children, or a group heading), in the file's style. */
function render(entry: SummaryEntry, depth: number, style: Style): string[] {
  if (entry.kind === 'group') {
    const anchor = entry.slug !== slugify(entry.title) ? ` <a href="#${entry.slug}" id="${entry.slug}"></a>` : '';
    return [`## ${escapeInline(entry.title).replace(/#$/, '\\#')}${anchor}`.trimEnd()];
  }
  const prefix = style.prefix(depth);
  if (entry.kind === 'computed') {
    const fence = entry.yaml.includes('```') ? '~~~' : '```';
    const indent = style.content(depth);
    const body = entry.yaml.endsWith('\n') ? entry.yaml.slice(0, -1) : entry.yaml;
    const inner = entry.yaml === '' ? [] : body.split('\n').map((line) => (line === '' ? '' : `${indent}${line}`));
    return [`${prefix}${fence}${entry.info}`, ...inner, `${indent}${fence}`];
  }
  const title = entry.linkTitle !== undefined ? ` "${entry.linkTitle.replace(/[\\"]/g, (c) => `\\${c}`)}"` : '';
  return [`${prefix}[${escapeInline(entry.title)}](${formatDestination(entry.href)}${title})`];
}

/** The new entries as tokens with what renders each. */
function wantedTokens(entries: readonly SummaryEntry[]): Array<Token & { entry: SummaryEntry }> {
  const out: Array<Token & { entry: SummaryEntry }> = [];
  const visit = (items: readonly SummaryItem[], depth: number, group: string): void => {
    for (const item of items) {
      out.push({ key: itemKey(item, depth), group, depth, start: 0, end: 0, entry: item });
      visit(item.children, depth + 1, group);
    }
  };
  for (const entry of entries) {
    if (entry.kind === 'group') {
      const key = groupKey(entry);
      out.push({ key, group: key, depth: -1, start: 0, end: 0, entry });
      visit(entry.children, 0, key);
    } else visit([entry], 0, '');
  }
  return out;
}

function sameTokens(a: readonly Token[], b: readonly Token[]): boolean {
  return a.length === b.length && a.every((token, i) => token.key === b[i]?.key && token.group === b[i]?.group);
}

/**
 * `entries` written over `base` (the SUMMARY.md being replaced, or the one the space
 * remembers): unchanged items keep their lines. Without a base, GitBook's style.
 */
export function updateSummary(base: string | undefined, entries: SummaryEntry[]): string {
  if (base === undefined || base.trim() === '') return writeSummary(entries);
  const lines = splitLines(base).map((line) => line.text);
  const eol = /\r\n/.test(base) ? '\r\n' : '\n';
  const finalNewline = base.endsWith('\n');
  const old = tokensOf(parseSummary(base).entries, lines);
  const wanted = wantedTokens(entries);
  if (sameTokens(old, wanted)) return base;
  const style = styleOf(lines, old, eol);

  // Lines to drop, and lines to add before a base line (index lines.length: at the end).
  const dropped = new Set<number>();
  const added = new Map<number, string[]>();
  const addAt = (at: number, text: string[]): void => {
    const list = added.get(at) ?? [];
    list.push(...text);
    added.set(at, list);
  };
  for (const hunk of diffSequences(old.map((t) => t.key), wanted.map((t) => t.key))) {
    for (let i = hunk.aStart; i < hunk.aEnd; i += 1) {
      const token = old[i] as Token;
      for (let line = token.start; line < token.end; line += 1) dropped.add(line);
    }
    if (hunk.bEnd === hunk.bStart) continue;
    const inserted = wanted.slice(hunk.bStart, hunk.bEnd);
    const first = inserted[0] as Token;
    const previous = old[hunk.aStart - 1];
    const following = old[hunk.aEnd];
    let at: number;
    if (hunk.aEnd > hunk.aStart) at = (old[hunk.aStart] as Token).start;
    else if (previous && previous.depth >= 0 && previous.group === first.group) at = previous.end;
    else if (following) at = following.start;
    else at = lines.length;
    const text: string[] = [];
    for (const token of inserted) {
      const rendered = render(token.entry, token.depth, style);
      // A new group heading stands apart, as GitBook writes it.
      if (token.depth < 0) text.push('', ...rendered, '');
      else text.push(...rendered);
    }
    addAt(at, text);
  }
  const out: string[] = [];
  for (let i = 0; i <= lines.length; i += 1) {
    for (const line of added.get(i) ?? []) out.push(line);
    if (i < lines.length && !dropped.has(i)) out.push(lines[i] as string);
  }
  // Removed items leave their blank lines behind: no run of blank lines longer than the base
  // has, and no more blank lines at the start or the end than it has.
  const maxBlank = Math.max(1, longestBlankRun(lines));
  const leading = lines.findIndex((line) => line.trim() !== '');
  const trailing = lines.length - 1 - findLastIndex(lines, (line) => line.trim() !== '');
  const tidy: string[] = [];
  let blank = 0;
  for (const line of out) {
    blank = line.trim() === '' ? blank + 1 : 0;
    const inLeadingRun = blank > 0 && tidy.length === blank - 1;
    if (blank > maxBlank || (inLeadingRun && blank > leading)) continue;
    tidy.push(line);
  }
  let blanksAtEnd = 0;
  while (blanksAtEnd < tidy.length && (tidy[tidy.length - 1 - blanksAtEnd] as string).trim() === '') blanksAtEnd += 1;
  if (blanksAtEnd > trailing) tidy.length -= blanksAtEnd - trailing;
  const text = tidy.join(eol) + (finalNewline ? eol : '');
  return sameTokens(tokensOf(parseSummary(text).entries), wanted) ? text : writeSummary(entries);
}

function findLastIndex<T>(list: readonly T[], test: (value: T) => boolean): number {
  for (let i = list.length - 1; i >= 0; i -= 1) if (test(list[i] as T)) return i;
  return -1;
}

function longestBlankRun(lines: readonly string[]): number {
  let longest = 0;
  let run = 0;
  for (const line of lines) {
    run = line.trim() === '' ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  return longest;
}
