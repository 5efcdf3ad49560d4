/** Escaping for the preview's HTML: every string from the store or the API goes through one of these. */

const TEXT: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text or an attribute value (quoted with "): the five characters HTML gives meaning to. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => TEXT[c] as string);
}

/** An attribute `name="value"`, value escaped (the name is always ours). */
export function attr(name: string, value: string | number): string {
  return ` ${name}="${escapeHtml(String(value))}"`;
}
