/**
 * Styled text for a terminal, built so that data can never style it. Titles, paths
 * and Markdown from the store or a server are made safe first (control, bidi and
 * invisible format characters shown as visible text: sanitize.ts); the escape
 * sequences of the styling are added after, by docsctl, and are never escaped
 * themselves. A `Styled` is text known to be safe; a plain string is data.
 *
 *   const s = await styler(colour);
 *   s`${title}  ${s.dim(path)}`     // title and path sanitized, the dim added after
 */
import type { ChalkInstance } from 'chalk';
import { sanitizeLine, sanitizeText } from './sanitize.js';

/** Text safe to print: its data went through sanitizing; escapes in it are docsctl's styling. */
export class Styled {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** Data (a string, sanitized as one line) or already styled text. */
export type Part = string | Styled;

type Style = 'bold' | 'dim' | 'italic' | 'underline' | 'cyan' | 'green';

export interface Styler extends Record<Style, (part: Part) => Styled> {
  /** A template: its literal parts are docsctl's text, each value is data (or Styled). */
  (strings: TemplateStringsArray, ...values: Part[]): Styled;
  /** Parts joined, each made safe. */
  join(parts: readonly Part[], separator?: string): Styled;
  /** Prose (a Markdown line): made safe, but the zero-width joiners of emoji and scripts kept. */
  prose(text: string): Styled;
  /** Bold and underlined (a first-level heading). */
  title(part: Part): Styled;
}

const safe = (part: Part): string => (part instanceof Styled ? part.text : sanitizeLine(part));

function build(chalk: ChalkInstance): Styler {
  const template = (strings: TemplateStringsArray, ...values: Part[]) =>
    new Styled(strings.reduce((out, literal, i) => out + literal + (i < values.length ? safe(values[i] as Part) : ''), ''));
  const style = (apply: (text: string) => string) => (part: Part) => new Styled(apply(safe(part)));
  return Object.assign(template, {
    bold: style((t) => chalk.bold(t)),
    dim: style((t) => chalk.dim(t)),
    italic: style((t) => chalk.italic(t)),
    underline: style((t) => chalk.underline(t)),
    cyan: style((t) => chalk.cyan(t)),
    green: style((t) => chalk.green(t)),
    title: style((t) => chalk.bold.underline(t)),
    join: (parts: readonly Part[], separator = '') => new Styled(parts.map(safe).join(separator)),
    prose: (text: string) => new Styled(sanitizeText(text.replace(/[\r\n]+/g, ' '))),
  });
}

/** A styler that colours when `colour` is on (chalk is loaded on first use). */
export async function styler(colour: boolean): Promise<Styler> {
  const { Chalk } = await import('chalk');
  return build(new Chalk({ level: colour ? 1 : 0 }));
}
