/**
 * Syntax highlighting for the preview's code blocks: highlight.js (well kept, no
 * dependencies, synchronous, output is `<span class="hljs-…">` that the sanitizer's
 * allow-list keeps and the preview's stylesheet colours). Its "common" bundle (36
 * languages) plus the few more GitBook pages often use. Shiki was the alternative:
 * TextMate grammars and exact VS Code colours, but megabytes of grammars and an
 * asynchronous (WASM or regex engine) start for each process; Prism's maintained
 * line is in flux. Only the preview loads this module.
 */
import hljs from 'highlight.js/lib/common';
import dockerfile from 'highlight.js/lib/languages/dockerfile';
import http from 'highlight.js/lib/languages/http';
import powershell from 'highlight.js/lib/languages/powershell';
import { escapeHtml } from './html.js';

hljs.registerLanguage('dockerfile', dockerfile);
hljs.registerLanguage('http', http);
hljs.registerLanguage('powershell', powershell);
hljs.registerAliases(['console', 'terminal', 'zsh'], { languageName: 'bash' });
hljs.registerAliases(['jsonc', 'json5'], { languageName: 'json' });

/** Code longer than this is shown unhighlighted: highlighting costs time per character. */
const MAX_HIGHLIGHTED = 200_000;

/**
 * The HTML of `code` highlighted as `language` (the fence's info string, first word);
 * escaped plain text when the language is unknown, absent or the code is very long.
 */
export function highlightCode(code: string, info: string): string {
  const language = /^[\w#+.-]+/.exec(info.trim())?.[0]?.toLowerCase() ?? '';
  if (language === '' || code.length > MAX_HIGHLIGHTED || !hljs.getLanguage(language)) return escapeHtml(code);
  try {
    return hljs.highlight(code, { language, ignoreIllegals: true }).value;
  } catch {
    return escapeHtml(code);
  }
}
