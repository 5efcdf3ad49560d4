/**
 * A page's GitBook Markdown as safe HTML for the preview.
 *
 * 1. GitBook's block tags (`{% hint %}`, `{% tabs %}`/`{% tab %}`, `{% code %}`,
 *    `{% file %}`, `{% content-ref %}`, `{% embed %}`, `{% stepper %}`, `{% columns %}`,
 *    `{% openapi %}`, `{% include %}`, `{% updates %}`…) become HTML blocks with blank
 *    lines around them, so markdown-it renders the Markdown inside them; lines in
 *    code fences are left alone (the one set of fence rules, content/markdown.ts).
 * 2. markdown-it (CommonMark + GFM tables and strikethrough; task lists and heading
 *    anchors added here) renders the page, code through highlight.js.
 * 3. sanitize.ts writes the result again from its allow-list, resolving every link
 *    and image through the caller (pages → preview URLs, files → the space's files).
 *
 * markdown-it: CommonMark-exact, pluggable through its token stream, no dependencies
 * beyond small ones, and it renders a page in well under a millisecond; raw HTML is
 * allowed through it because GitBook pages carry some (`<figure>`, `<details>`,
 * `<mark>`, tables), and everything then goes through the sanitizer.
 */
import markdownItFactory, { type MarkdownIt } from 'markdown-it';
import { closesFence, openingFence, type Fence } from '../content-model/markdown.js';
import { highlightCode } from './highlight.js';
import { attr, escapeHtml } from './html.js';
import { type ResolvedUrl, type UrlContext, sanitizeHtml } from './sanitize.js';

/** Bytes of Markdown rendered: beyond, the rest of a page is cut (a note says so). Bounds the time a request costs. */
export const MAX_MARKDOWN = 2 * 1024 * 1024;

export interface RenderOptions {
  resolveUrl(url: string, context: UrlContext): ResolvedUrl | undefined;
}

const HINT_STYLES = new Set(['info', 'warning', 'danger', 'success']);

/** `key="value"` pairs (double or single quotes) and a leading bare quoted value (`include "x.md"`, under the key ''). */
export function tagArguments(text: string): Record<string, string> {
  const args: Record<string, string> = {};
  const bare = /^\s*(["'])(.*?)\1/.exec(text);
  if (bare) args[''] = bare[2] as string;
  for (const m of text.matchAll(/([A-Za-z][\w-]*)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"']+))/g)) {
    args[(m[1] as string).toLowerCase()] = m[2] ?? m[3] ?? m[4] ?? '';
  }
  return args;
}

const TAG_LINE = /^(\s*)\{%-?\s*(end)?([a-z][a-z0-9-]*)\b(.*?)-?%\}\s*$/;

interface TagLine {
  line: number;
  indent: string;
  end: boolean;
  name: string;
  args: Record<string, string>;
}

/** The block tag lines of the page, outside code fences. */
function tagLines(lines: readonly string[]): TagLine[] {
  const tags: TagLine[] = [];
  let fence: Fence | undefined;
  lines.forEach((line, index) => {
    if (fence) {
      if (closesFence(line, fence)) fence = undefined;
      return;
    }
    fence = openingFence(line);
    if (fence) return;
    const m = TAG_LINE.exec(line);
    if (m) tags.push({ line: index, indent: m[1] as string, end: m[2] !== undefined, name: m[3] as string, args: tagArguments(m[4] as string) });
  });
  return tags;
}

const fileName = (src: string) => {
  const last = src.replace(/[?#].*$/, '').split('/').pop() ?? src;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
};

/** The HTML that opens a block tag (attributes escaped; the Markdown inside renders between it and `</div>`). */
function openingHtml(tag: TagLine, tabTitles: ReadonlyMap<number, string[]>): string {
  const { name, args } = tag;
  switch (name) {
    case 'hint': {
      const style = HINT_STYLES.has(args.style ?? '') ? (args.style as string) : 'info';
      return `<div class="gb-hint gb-hint-${style}">`;
    }
    case 'tabs': {
      const titles = tabTitles.get(tag.line) ?? [];
      const buttons = titles.map((title) => `<button class="gb-tab-button">${escapeHtml(title)}</button>`).join('');
      return `<div class="gb-tabs"><div class="gb-tab-list">${buttons}</div>`;
    }
    case 'tab':
      return `<div class="gb-tab-panel"><div class="gb-tab-title">${escapeHtml(args.title ?? '')}</div>`;
    case 'code':
      return `<div class="gb-code">${args.title ? `<div class="gb-code-title">${escapeHtml(args.title)}</div>` : ''}`;
    case 'file': {
      const src = args.src ?? '';
      return `<div class="gb-file"><a class="gb-file-link"${attr('href', src)}>${escapeHtml(fileName(src))}</a>`;
    }
    case 'content-ref':
    case 'page-ref': {
      // GitBook shows the page's title: the sanitizer writes it into the empty link. The target
      // written beside it shows only when the link stays empty (no such page).
      const url = args.url ?? args.page ?? args[''] ?? '';
      return `<div class="gb-content-ref"><a class="gb-content-ref-link"${attr('href', url)}></a><span class="gb-content-ref-url">${escapeHtml(url)}</span>`;
    }
    case 'embed': {
      const url = args.url ?? '';
      return `<div class="gb-embed"><a class="gb-embed-link"${attr('href', url)}>${escapeHtml(url)}</a>`;
    }
    case 'stepper':
      return '<div class="gb-stepper">';
    case 'step':
      return '<div class="gb-step">';
    case 'columns':
      return '<div class="gb-columns">';
    case 'column':
      return '<div class="gb-column">';
    case 'updates':
      return '<div class="gb-updates">';
    case 'update':
      return `<div class="gb-update">${args.date ? `<div class="gb-update-date">${escapeHtml(args.date)}</div>` : ''}`;
    case 'openapi':
    case 'openapi-operation':
    case 'swagger': {
      const method = (args.method ?? '').toUpperCase();
      const path = args.path ?? '';
      return `<div class="gb-openapi"><div class="gb-openapi-head"><span class="gb-openapi-method">${escapeHtml(method || 'API')}</span> <code>${escapeHtml(path)}</code></div>`;
    }
    case 'include': {
      const src = args[''] ?? args.src ?? '';
      return `<div class="gb-include">Reusable content <code>${escapeHtml(src)}</code> (not shown in the preview)`;
    }
    default:
      return `<div class="gb-block gb-block-${name.replace(/[^a-z0-9-]/g, '')}">`;
  }
}

/** Tags GitBook writes without a closing line: their block ends on their own line. */
const ONE_LINE = new Set(['include']);
/** Tags that may come with or without a closing line (`{% embed url %}` alone, or with a caption and `{% endembed %}`). */
const MAYBE_ONE_LINE = new Set(['embed', 'file', 'content-ref', 'page-ref']);
/** Tags whose inner Markdown is not shown (content-ref: GitBook's own link text, the target's file name). */
const INNER_HIDDEN = new Set(['content-ref', 'page-ref']);

/** The page with its block tags turned into HTML blocks (step 1 of the module comment). */
export function blocksToHtml(markdown: string): string {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const tags = tagLines(lines);
  // Match openings and closings; each {% tabs %} collects its tabs' titles for its buttons.
  const tabTitles = new Map<number, string[]>();
  const closing = new Map<number, number>(); // opening line → closing line
  const open: TagLine[] = [];
  for (const tag of tags) {
    if (!tag.end) {
      if (tag.name === 'tab') {
        const tabs = [...open].reverse().find((t) => t.name === 'tabs');
        if (tabs) tabTitles.set(tabs.line, [...(tabTitles.get(tabs.line) ?? []), tag.args.title ?? '']);
      }
      if (!ONE_LINE.has(tag.name)) open.push(tag);
      continue;
    }
    const index = open.map((t) => t.name).lastIndexOf(tag.name);
    if (index === -1) continue; // a stray {% endx %}: stays as text
    closing.set((open[index] as TagLine).line, tag.line);
    open.splice(index);
  }
  const closingLines = new Set(closing.values());
  const hidden = new Set<number>();
  for (const tag of tags) {
    if (tag.end) {
      if (closingLines.has(tag.line)) lines[tag.line] = `\n${tag.indent}</div>\n`;
      continue;
    }
    const end = closing.get(tag.line);
    const oneLine = ONE_LINE.has(tag.name) || (MAYBE_ONE_LINE.has(tag.name) && end === undefined);
    lines[tag.line] = `\n${tag.indent}${openingHtml(tag, tabTitles)}${oneLine ? '</div>' : ''}\n`;
    if (INNER_HIDDEN.has(tag.name) && end !== undefined) for (let i = tag.line + 1; i < end; i++) hidden.add(i);
  }
  // An unclosed block (a hint without {% endhint %}) runs to the end of the page: the sanitizer closes it there.
  return lines.filter((_, index) => !hidden.has(index)).join('\n');
}

let parser: MarkdownIt | undefined;

/** GitHub-style heading anchors: lower case, spaces to dashes, punctuation dropped (GitBook's are the same for common titles). */
export function headingSlug(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s+/g, '-');
}

function markdownIt(): MarkdownIt {
  if (parser) return parser;
  const md = markdownItFactory({ html: true, linkify: false, typographer: false, highlight: (code, lang) => highlightCode(code, lang) });
  md.core.ruler.push('docsctl_preview', (state) => {
    const seen = new Map<string, number>();
    const tokens = state.tokens;
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i] as (typeof tokens)[number];
      if (token.type === 'heading_open') {
        const inline = tokens[i + 1];
        const base = headingSlug(inline?.content ?? '') || 'section';
        const count = seen.get(base) ?? 0;
        seen.set(base, count + 1);
        token.attrSet('id', count === 0 ? base : `${base}-${count}`);
      }
      // Task lists: `- [ ] x` / `- [x] x` start with a checkbox.
      if (token.type === 'inline' && tokens[i - 1]?.type === 'paragraph_open' && tokens[i - 2]?.type === 'list_item_open') {
        const first = token.children?.[0];
        const box = first?.type === 'text' ? /^\[([ xX])\]\s+/.exec(first.content) : null;
        if (first && box) {
          first.content = first.content.slice(box[0].length);
          const input = new state.Token('html_inline', '', 0);
          input.content = `<input type="checkbox"${box[1] === ' ' ? '' : ' checked'}> `;
          token.children?.unshift(input);
          tokens[i - 2]?.attrJoin('class', 'gb-task');
        }
      }
    }
  });
  parser = md;
  return md;
}

/** A page's Markdown as safe HTML (see the module comment). */
export function renderMarkdown(markdown: string, options: RenderOptions): string {
  let source = markdown;
  let note = '';
  if (source.length > MAX_MARKDOWN) {
    source = source.slice(0, MAX_MARKDOWN);
    note = `<div class="gb-hint gb-hint-warning"><p>The preview shows the first ${MAX_MARKDOWN / 1024 / 1024} MiB of this page (${(markdown.length / 1024 / 1024).toFixed(1)} MiB).</p></div>`;
  }
  const html = markdownIt().render(blocksToHtml(source));
  return sanitizeHtml(html + note, { resolveUrl: options.resolveUrl });
}
