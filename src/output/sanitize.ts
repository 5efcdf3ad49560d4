/**
 * Text from the store or the API made safe to print on a terminal.
 *
 * A title like `evil ESC]0;pwned BEL ESC[31m` would retitle the terminal and
 * change its colours if printed raw. As gh does (go-gh `asciisanitizer`), C0
 * control characters become caret notation (`^[`, `^G`), DEL becomes `^?`, and C1
 * controls (U+0080–U+009F, which some terminals read as ESC sequences) become
 * `\u009b`-style text: visible, not interpreted. Newline and tab survive only
 * where the format allows them. JSON output does not come here: it keeps the
 * exact data, with JSON escapes.
 *
 * Unicode format characters get the same `\u202e` treatment, because they let a
 * title display as another ("Invoice U+202E fdp.exe" shows as "Invoice exe.pdf"):
 * the bidirectional embeddings, overrides and isolates (U+202A–U+202E,
 * U+2066–U+2069) everywhere; in one-line cells (tables, TSV, ids, confirmations)
 * also the invisible ones (U+200B–U+200F, U+2028/2029, U+2060–U+2064, U+061C, U+FEFF),
 * while prose keeps the joiners and marks that emoji and right-to-left scripts need.
 */
import { redactSecrets } from '../util/redact.js';

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;
const CONTROL_EXCEPT_LAYOUT = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

function visible(char: string): string {
  const code = char.charCodeAt(0);
  if (code < 0x20) return `^${String.fromCharCode(code + 0x40)}`;
  if (code === 0x7f) return '^?';
  return `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Every control and format character made visible (one-line cells: table, TSV, ids). */
export function sanitizeLine(text: string): string {
  return text.replace(CONTROL, visible);
}

/** Control characters and bidirectional overrides made visible, newline and tab kept (multi-line text: Markdown, YAML, messages). */
export function sanitizeText(text: string): string {
  return text.replace(CONTROL_EXCEPT_LAYOUT, visible);
}

/** A message or log line for stderr: URL credentials and tokens redacted, control characters made visible. */
export function forStderr(text: string): string {
  return sanitizeText(redactSecrets(text));
}
