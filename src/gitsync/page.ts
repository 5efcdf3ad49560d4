/**
 * A page file: optional front matter, an optional leading `# Title`, the body.
 * `extra` (on `PageMeta`) keeps what a byte-exact export needs:
 *
 * - `frontMatter`: the raw front matter block (with its `---` lines), when the file has one;
 * - `heading`: the raw leading H1 with the blank lines around it ('' when the body does not start
 *   with one; absent on pages this converter did not read, which get a `# Title` line on export);
 * - `summaryTitle`: the title the page was imported with, when it differs from the H1's text
 *   (export rewrites the H1 only when the title changes from this);
 * - `linkTitle`: the SUMMARY.md link title (`[x](x.md "Label")`);
 * - `computed` / `computedInfo` (link pages only): a computed SUMMARY item's YAML and fence info.
 *
 * `markdown` is the body after the front matter and the leading H1, byte for byte.
 */
import type { ContentPage } from '../content-model/model.js';
import { splitLeadingHeading, type LeadingHeading } from '../content-model/markdown.js';
import { parseFrontMatter, splitFrontMatter, type FrontMatterBlock } from './frontmatter.js';

export interface ParsedPageFile {
  frontMatter?: FrontMatterBlock;
  /** The front matter as data ({} when none or invalid). */
  data: Record<string, unknown>;
  /** Why the front matter was ignored. */
  frontMatterError?: string;
  /** The front matter is hostile (frontmatter.ts `yamlData`): the file must be refused, not kept. */
  frontMatterRefused?: boolean;
  heading?: LeadingHeading;
  markdown: string;
}

/** Splits a page file; `options.data: false` skips reading the front matter's YAML. */
export function parsePageFile(text: string, options: { data?: boolean } = {}): ParsedPageFile {
  const split = splitFrontMatter(text);
  const out: ParsedPageFile = { data: {}, markdown: split.body };
  if (split.frontMatter) {
    out.frontMatter = split.frontMatter;
  }
  if (split.frontMatter && options.data !== false) {
    const parsed = parseFrontMatter(split.frontMatter.yaml);
    out.data = parsed.data;
    if (parsed.error !== undefined) out.frontMatterError = parsed.error;
    if (parsed.refused) out.frontMatterRefused = true;
  }
  const heading = splitLeadingHeading(split.body);
  if (heading) {
    out.heading = heading;
    out.markdown = heading.rest;
  }
  return out;
}

/** Text decoding that keeps a byte order mark (so that bytes come back as they were). */
export const pageDecoder = new TextDecoder('utf-8', { ignoreBOM: true });
export const pageEncoder = new TextEncoder();

export const EXTRA_KEYS = ['frontMatter', 'heading', 'summaryTitle', 'linkTitle', 'computed', 'computedInfo'] as const;

export function extraString(page: Pick<ContentPage, 'extra'>, key: (typeof EXTRA_KEYS)[number]): string | undefined {
  const value = page.extra?.[key];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Sets the converter's keys of `extra` (keeping any other producer's keys),
 * dropping `extra` when it ends up empty.
 */
export function setExtra(page: ContentPage, values: Partial<Record<(typeof EXTRA_KEYS)[number], string>>): void {
  const extra: Record<string, unknown> = { ...(page.extra ?? {}) };
  for (const key of EXTRA_KEYS) delete extra[key];
  for (const key of EXTRA_KEYS) {
    const value = values[key];
    if (value !== undefined) extra[key] = value;
  }
  if (Object.keys(extra).length > 0) page.extra = extra;
  else delete page.extra;
}
