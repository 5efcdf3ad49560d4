/**
 * GitBook Markdown drawn for a terminal: headings, lists, quotes, code blocks,
 * hints (`{% hint style="…" %}`), links shown with their URL, other block tags
 * dropped. Colour only through the given chalk (none when colour is off), so
 * the text stays readable in a pager or a log.
 */
import type { ChalkInstance } from 'chalk';
import { type Fence, closesFence, openingFence } from '../content-model/markdown.js';

const HINTS: Record<string, string> = { info: 'ℹ Info', warning: '⚠ Warning', danger: '✖ Danger', success: '✔ Success' };

function inline(text: string, chalk: ChalkInstance): string {
  return text
    .replace(/`([^`]+)`/g, (_, code: string) => chalk.cyan(code))
    .replace(/\*\*([^*]+)\*\*/g, (_, bold: string) => chalk.bold(bold))
    .replace(/(?<![*\w])\*([^*\s][^*]*)\*(?!\*)/g, (_, em: string) => chalk.italic(em))
    .replace(/!\[([^\]]*)\]\(([^)\s]+)[^)]*\)/g, (_, alt: string, url: string) => `[image: ${alt || url}]`)
    .replace(/\[([^\]]+)\]\(([^)\s]+)[^)]*\)/g, (_, label: string, url: string) => `${chalk.underline(label)} (${url})`);
}

export function renderMarkdownForTerminal(markdown: string, chalk: ChalkInstance, width = 80): string {
  const out: string[] = [];
  let fence: Fence | undefined;
  let hint: string | undefined;
  const push = (line: string) => out.push(hint !== undefined ? `${chalk.dim('│')} ${line}` : line);
  for (const raw of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    if (fence !== undefined) {
      if (closesFence(raw, fence)) {
        fence = undefined;
        push('');
      } else push(`    ${chalk.green(raw)}`);
      continue;
    }
    fence = openingFence(raw);
    if (fence) {
      push(chalk.dim(`    ── ${/^[\w+-]*/.exec(fence.info)?.[0] || 'code'} ──`));
      continue;
    }
    const tag = /^\s*\{%\s*(end)?(\w+)([^%]*)%\}\s*$/.exec(raw);
    if (tag) {
      const [, end, name, args] = tag;
      if (name === 'hint' && !end) {
        const style = /style="(\w+)"/.exec(args ?? '')?.[1] ?? 'info';
        out.push(chalk.bold(`┌ ${HINTS[style] ?? style}`));
        hint = style;
      } else if (name === 'hint' && end) {
        hint = undefined;
        out.push(chalk.dim('└'));
      }
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(raw);
    if (heading) {
      const level = (heading[1] as string).length;
      const text = inline(heading[2] as string, chalk);
      push(level === 1 ? chalk.bold.underline(text) : chalk.bold(text));
      if (level === 1) push(chalk.dim('═'.repeat(Math.min(width, (heading[2] as string).length))));
      continue;
    }
    const bullet = /^(\s*)[-*+]\s+(\[[ xX]\]\s+)?(.*)$/.exec(raw);
    if (bullet) {
      const box = bullet[2] ? (bullet[2].trim() === '[ ]' ? '☐ ' : '☑ ') : '';
      push(`${bullet[1]}  • ${box}${inline(bullet[3] as string, chalk)}`);
      continue;
    }
    const numbered = /^(\s*)(\d+)[.)]\s+(.*)$/.exec(raw);
    if (numbered) {
      push(`${numbered[1]}  ${numbered[2]}. ${inline(numbered[3] as string, chalk)}`);
      continue;
    }
    const quote = /^>\s?(.*)$/.exec(raw);
    if (quote) {
      push(`${chalk.dim('┃')} ${inline(quote[1] as string, chalk)}`);
      continue;
    }
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(raw)) {
      push(chalk.dim('─'.repeat(Math.min(width, 40))));
      continue;
    }
    push(inline(raw, chalk));
  }
  return `${out.join('\n').replace(/\n{3,}/g, '\n\n').trim()}\n`;
}
