/**
 * SUMMARY.md, the table of contents. The parser reads what GitBook and people
 * write: an ignored `#` title, nested bullet lists (`*`, `-`, `+` or ordered,
 * any indentation: nesting follows CommonMark list offsets), `##` page
 * groups with an optional `<a href="#slug" id="slug"></a>` anchor, a
 * thematic break (`***`) closing the current group, items `[title](path
 * "link title")` with Markdown-escaped titles, and computed items (a fenced
 * YAML block). The writer emits GitBook's own style.
 */
import { GitSyncError } from './errors.js';
import { MAX_PAGE_DEPTH, MAX_PAGES } from './limits.js';
import { Warnings } from './warnings.js';
import { type Fence, closesFence, escapeInline, eachLine, fenceContentLine, inlineToText, openingFence } from '../content-model/markdown.js';
import { slugify } from './slug.js';

export interface SummaryLink {
  kind: 'link';
  /** The link text as plain text (unescaped, code spans without backticks). */
  title: string;
  /** The destination (brackets removed, backslash escapes resolved; percent-encoding as written). */
  href: string;
  /** The quoted link title (`[x](x.md "Label")`), GitBook's `linkTitle`. */
  linkTitle?: string;
  /** 1-based line in SUMMARY.md. */
  line: number;
  children: SummaryItem[];
}

export interface SummaryComputed {
  kind: 'computed';
  /** The fenced block's content (dedented), e.g. `type: builtin:openapi …`. */
  yaml: string;
  /** The fence's info string (`yaml`). */
  info: string;
  line: number;
  children: SummaryItem[];
}

export type SummaryItem = SummaryLink | SummaryComputed;

export interface SummaryGroup {
  kind: 'group';
  title: string;
  /** From the heading's anchor, else `slugify(title)`. */
  slug: string;
  line: number;
  children: SummaryItem[];
}

export type SummaryEntry = SummaryItem | SummaryGroup;

export interface ParsedSummary {
  entries: SummaryEntry[];
  warnings: string[];
}

const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const THEMATIC_BREAK = /^ {0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$/;
const BULLET = /^([ \t]*)([*+-]|\d{1,9}[.)])(?:([ \t]+)(.*))?$/;
const GROUP_ANCHOR = /[ \t]*<a\b([^>]*)>[ \t]*<\/a>[ \t]*$/;

function expandTabs(line: string): string {
  if (!line.includes('\t')) return line;
  let out = '';
  for (const c of line) {
    if (c === '\t') out += ' '.repeat(4 - (out.length % 4));
    else out += c;
  }
  return out;
}

// eslint-disable-next-line max-lines-per-function -- a line parser whose states (group, list depth, fences) are the locals of one loop
export function parseSummary(text: string, file = 'SUMMARY.md'): ParsedSummary {
  const entries: SummaryEntry[] = [];
  const warnings = new Warnings();
  let group: SummaryGroup | null = null;
  /** Open list items, innermost last: where their children go, and the column their content starts at. */
  let stack: Array<{ children: SummaryItem[]; contentIndent: number }> = [];
  const container = (): ((item: SummaryItem) => void) => {
    const top = stack[stack.length - 1];
    if (top) return (item) => top.children.push(item);
    const current = group;
    return current ? (item) => current.children.push(item) : (item) => entries.push(item);
  };
  let fence: { item: SummaryComputed; open: Fence; lines: string[] } | null = null;
  /** Items read so far (each becomes a page). */
  let count = 0;

  for (const { text: rawLine, number } of eachLine(text)) {
    const line = expandTabs(rawLine);
    if (fence) {
      if (closesFence(line, fence.open)) {
        fence.item.yaml = fence.lines.join('\n') + (fence.lines.length > 0 ? '\n' : '');
        fence = null;
      } else {
        fence.lines.push(fenceContentLine(line, fence.open));
      }
      continue;
    }
    if (line.trim() === '') continue;

    if (THEMATIC_BREAK.test(line)) {
      group = null;
      stack = [];
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      const level = (heading[1] as string).length;
      stack = [];
      if (level === 1) continue;
      if (level > 2) {
        warnings.push(`${file}: line ${number}: only "##" headings make page groups; "${line.trim()}" ignored`);
        continue;
      }
      const content = heading[2] ?? '';
      const anchor = GROUP_ANCHOR.exec(content);
      const titleSource = anchor ? content.slice(0, anchor.index) : content;
      const title = inlineToText(titleSource.trim());
      const id = anchor ? /\bid\s*=\s*"([^"]*)"/.exec(anchor[1] ?? '')?.[1] : undefined;
      group = { kind: 'group', title, slug: id || slugify(title) || 'untitled', line: number, children: [] };
      entries.push(group);
      continue;
    }
    const bullet = BULLET.exec(line);
    if (bullet) {
      const indent = (bullet[1] as string).length;
      const marker = bullet[2] as string;
      const spacing = (bullet[3] ?? ' ').length;
      const contentIndent = indent + marker.length + (spacing > 4 ? 1 : spacing);
      const content = (bullet[4] ?? '').trim();
      while (stack.length > 0 && (stack[stack.length - 1] as { contentIndent: number }).contentIndent > indent) stack.pop();
      const push = container();
      // A computed item: a fence right after the bullet; its lines are read at the item's content column.
      const opening = openingFence(content, 0);
      if (opening) {
        const item: SummaryComputed = {
          kind: 'computed',
          yaml: '',
          info: opening.info,
          line: number,
          children: [],
        };
        push(item);
        stack.push({ children: item.children, contentIndent });
        requireBounded(file, number, stack.length, (count += 1));
        fence = { item, open: { ...opening, indent: contentIndent }, lines: [] };
        continue;
      }
      const link = parseLinkItem(content);
      if (link) {
        const item: SummaryLink = { kind: 'link', title: link.title, href: link.href, line: number, children: [] };
        if (link.linkTitle !== undefined) item.linkTitle = link.linkTitle;
        push(item);
        stack.push({ children: item.children, contentIndent });
        requireBounded(file, number, stack.length, (count += 1));
      } else {
        warnings.push(`${file}: line ${number}: item "${content}" is not a link; ignored`);
        // Its children move up to its level.
        const top = stack[stack.length - 1];
        const children = top ? top.children : group ? group.children : null;
        if (children) stack.push({ children, contentIndent });
      }
      continue;
    }
    if (stack.length === 0 && !/^ {0,3}<!--/.test(line)) {
      warnings.push(`${file}: line ${number}: "${line.trim()}" ignored`);
    }
  }
  if (fence) {
    fence.item.yaml = fence.lines.join('\n') + (fence.lines.length > 0 ? '\n' : '');
    warnings.push(`${file}: line ${fence.item.line}: unclosed code fence`);
  }
  return { entries, warnings: warnings.list };
}

/** Refuses a table of contents nested deeper, or listing more pages, than an import takes (limits.ts). */
function requireBounded(file: string, line: number, depth: number, count: number): void {
  if (depth > MAX_PAGE_DEPTH) {
    throw new GitSyncError(`${file}: line ${line}: pages nested more than ${MAX_PAGE_DEPTH} levels deep`, { file, tooLarge: true });
  }
  if (count > MAX_PAGES) throw new GitSyncError(`${file}: lists more than ${MAX_PAGES} pages`, { file, tooLarge: true });
}

/** Parses `[text](destination "title")` at the start of `content`. */
export function parseLinkItem(content: string): { title: string; href: string; linkTitle?: string } | null {
  if (!content.startsWith('[')) return null;
  let depth = 0;
  let close = -1;
  for (let i = 1; i < content.length; i += 1) {
    const c = content[i];
    if (c === '\\') {
      i += 1;
      continue;
    }
    if (c === '`') {
      let run = 1;
      while (content[i + run] === '`') run += 1;
      const end = content.indexOf('`'.repeat(run), i + run);
      if (end >= 0) {
        i = end + run - 1;
        continue;
      }
      i += run - 1;
      continue;
    }
    if (c === '[') depth += 1;
    else if (c === ']') {
      if (depth === 0) {
        close = i;
        break;
      }
      depth -= 1;
    }
  }
  if (close < 0 || content[close + 1] !== '(') return null;
  const text = content.slice(1, close);
  let i = close + 2;
  while (content[i] === ' ') i += 1;
  let href: string;
  if (content[i] === '<') {
    const end = findUnescaped(content, '>', i + 1);
    if (end < 0) return null;
    href = content.slice(i + 1, end);
    i = end + 1;
  } else {
    const start = i;
    let parens = 0;
    while (i < content.length) {
      const c = content[i] as string;
      if (c === '\\') {
        i += 2;
        continue;
      }
      if (c === ' ' || c === '\t') break;
      if (c === '(') parens += 1;
      else if (c === ')') {
        if (parens === 0) break;
        parens -= 1;
      }
      i += 1;
    }
    href = content.slice(start, i);
  }
  while (content[i] === ' ') i += 1;
  let linkTitle: string | undefined;
  const quote = content[i];
  if (quote === '"' || quote === "'" || quote === '(') {
    const closer = quote === '(' ? ')' : quote;
    const end = findUnescaped(content, closer, i + 1);
    if (end < 0) return null;
    linkTitle = unescapeBackslashes(content.slice(i + 1, end));
    i = end + 1;
    while (content[i] === ' ') i += 1;
  }
  if (content[i] !== ')') return null;
  const result: { title: string; href: string; linkTitle?: string } = {
    title: inlineToText(text),
    href: unescapeBackslashes(href),
  };
  if (linkTitle !== undefined) result.linkTitle = linkTitle;
  return result;
}

function findUnescaped(text: string, ch: string, from: number): number {
  for (let i = from; i < text.length; i += 1) {
    if (text[i] === '\\') i += 1;
    else if (text[i] === ch) return i;
  }
  return -1;
}

function unescapeBackslashes(text: string): string {
  return text.replace(/\\([!-/:-@[-`{-~])/g, '$1');
}

/** A destination as GitBook writes it: `<…>` around names with spaces, parentheses or angle brackets. */
export function formatDestination(href: string): string {
  if (!/[\s()<>]/.test(href)) return href;
  return `<${href.replace(/[<>\\]/g, (c) => `\\${c}`)}>`;
}

function formatLinkTitle(title: string): string {
  return `"${title.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

function writeItems(items: SummaryItem[], depth: number, out: string[]): void {
  const indent = '  '.repeat(depth);
  for (const item of items) {
    if (item.kind === 'computed') {
      const fence = item.yaml.includes('```') ? '~~~' : '```';
      out.push(`${indent}* ${fence}${item.info}`);
      const body = item.yaml.endsWith('\n') ? item.yaml.slice(0, -1) : item.yaml;
      if (item.yaml !== '') for (const line of body.split('\n')) out.push(line === '' ? '' : `${indent}  ${line}`);
      out.push(`${indent}  ${fence}`);
    } else {
      const title = item.linkTitle !== undefined ? ` ${formatLinkTitle(item.linkTitle)}` : '';
      out.push(`${indent}* [${escapeInline(item.title)}](${formatDestination(item.href)}${title})`);
    }
    writeItems(item.children, depth + 1, out);
  }
}

/**
 * Writes a table of contents in GitBook's style: `# Table of contents`, `*`
 * bullets, 2-space indents, root pages first, groups as `## Title` (with an
 * anchor only when the slug is not `slugify(title)`), `***` before root pages
 * that follow a group.
 */
export function writeSummary(entries: SummaryEntry[]): string {
  const blocks: string[][] = [];
  let rootBlock: string[] | null = null;
  let afterGroup = false;
  for (const entry of entries) {
    if (entry.kind === 'group') {
      rootBlock = null;
      afterGroup = true;
      const anchor = entry.slug !== slugify(entry.title) ? ` <a href="#${entry.slug}" id="${entry.slug}"></a>` : '';
      blocks.push([`## ${escapeInline(entry.title).replace(/#$/, '\\#')}${anchor}`.trimEnd()]);
      if (entry.children.length > 0) {
        const lines: string[] = [];
        writeItems(entry.children, 0, lines);
        blocks.push(lines);
      }
      continue;
    }
    if (!rootBlock) {
      if (afterGroup) blocks.push(['***']);
      afterGroup = false;
      rootBlock = [];
      blocks.push(rootBlock);
    }
    writeItems([entry], 0, rootBlock);
  }
  return ['# Table of contents', ...blocks.map((lines) => lines.join('\n'))].join('\n\n') + '\n';
}
