/**
 * GitBook Markdown drawn for a terminal: headings, lists, quotes, code blocks,
 * hints (`{% hint style="…" %}`), links shown with their URL, other block tags
 * dropped. The page is data: every piece of its text is sanitized and the styling
 * (through the given Styler; none when colour is off) is added after, so neither
 * an escape sequence in the page nor one of docsctl's own can be read as Markdown
 * or printed as text (src/output/styled.ts).
 */
import { type Fence, closesFence, openingFence } from '../content-model/markdown.js';
import { type Styled, type Styler } from '../output/styled.js';

const HINTS: Record<string, string> = { info: 'ℹ Info', warning: '⚠ Warning', danger: '✖ Danger', success: '✔ Success' };

/**
 * Inline Markdown, read left to right in one pass (a code span's text is never read
 * as a link or emphasis): code spans, images, links (their label may hold code or
 * emphasis), strong and emphasis.
 */
const INLINE =
  /(`+)(.+?)\1(?!`)|!\[([^\]]*)\]\(([^)\s]+)[^)]*\)|\[((?:`[^`]*`|[^\]])+)\]\(([^)\s]+)[^)]*\)|\*\*([^*]+)\*\*|(?<![*\w])\*([^*\s][^*]*)\*(?!\*)/g;

export function inlineMarkdown(text: string, s: Styler): Styled {
  const parts: Styled[] = [];
  let at = 0;
  for (const match of text.matchAll(INLINE)) {
    const [whole, , code, alt, imageUrl, label, url, strong, em] = match;
    parts.push(s.prose(text.slice(at, match.index)));
    at = match.index + whole.length;
    if (code !== undefined) parts.push(s.cyan(s.prose(code)));
    else if (imageUrl !== undefined) parts.push(s`[image: ${alt || imageUrl}]`);
    else if (url !== undefined) parts.push(s`${s.underline(inlineMarkdown(label as string, s))} (${url})`);
    else if (strong !== undefined) parts.push(s.bold(inlineMarkdown(strong, s)));
    else parts.push(s.italic(inlineMarkdown(em as string, s)));
  }
  parts.push(s.prose(text.slice(at)));
  return s.join(parts);
}

export function renderMarkdownForTerminal(markdown: string, s: Styler, width = 80): string {
  const out: Styled[] = [];
  let fence: Fence | undefined;
  let hint: string | undefined;
  const push = (line: Styled) => out.push(hint !== undefined ? s`${s.dim('│')} ${line}` : line);
  const blank = s``;
  for (const raw of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    if (fence !== undefined) {
      if (closesFence(raw, fence)) {
        fence = undefined;
        push(blank);
      } else push(s`    ${s.green(s.prose(raw))}`);
      continue;
    }
    fence = openingFence(raw);
    if (fence) {
      push(s.dim(s.prose(`    ── ${/^[\w+-]*/.exec(fence.info)?.[0] || 'code'} ──`)));
      continue;
    }
    const tag = /^\s*\{%\s*(end)?(\w+)([^%]*)%\}\s*$/.exec(raw);
    if (tag) {
      const [, end, name, args] = tag;
      if (name === 'hint' && !end) {
        const style = /style="(\w+)"/.exec(args ?? '')?.[1] ?? 'info';
        out.push(s.bold(`┌ ${HINTS[style] ?? style}`));
        hint = style;
      } else if (name === 'hint' && end) {
        hint = undefined;
        out.push(s.dim('└'));
      }
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(raw);
    if (heading) {
      const level = (heading[1] as string).length;
      const text = inlineMarkdown(heading[2] as string, s);
      push(level === 1 ? s.title(text) : s.bold(text));
      if (level === 1) push(s.dim('═'.repeat(Math.min(width, (heading[2] as string).length))));
      continue;
    }
    const bullet = /^(\s*)[-*+]\s+(\[[ xX]\]\s+)?(.*)$/.exec(raw);
    if (bullet) {
      const box = bullet[2] ? (bullet[2].trim() === '[ ]' ? '☐ ' : '☑ ') : '';
      push(s`${s.prose(bullet[1] as string)}  • ${box}${inlineMarkdown(bullet[3] as string, s)}`);
      continue;
    }
    const numbered = /^(\s*)(\d+)[.)]\s+(.*)$/.exec(raw);
    if (numbered) {
      push(s`${s.prose(numbered[1] as string)}  ${numbered[2] as string}. ${inlineMarkdown(numbered[3] as string, s)}`);
      continue;
    }
    const quote = /^>\s?(.*)$/.exec(raw);
    if (quote) {
      push(s`${s.dim('┃')} ${inlineMarkdown(quote[1] as string, s)}`);
      continue;
    }
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(raw)) {
      push(s.dim('─'.repeat(Math.min(width, 40))));
      continue;
    }
    push(inlineMarkdown(raw, s));
  }
  return `${out.map(String).join('\n').replace(/\n{3,}/g, '\n\n').trim()}\n`;
}
