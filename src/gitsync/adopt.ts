/**
 * How a page or file of a content import (`cr import FILE`, `import DIR`: Markdown
 * converted by importRepository, but not from the space's repository) becomes the
 * space's, so that a later `git export` changes exactly what the import changed:
 *
 * - `git` (the page's file in the space's repository) stays the page's own: the
 *   import's path is relative to the source (`install.md`), not the repository
 *   (`docs/install.md`); a new page or file has none until an export places it.
 * - A source without SUMMARY.md says nothing of the table of contents: the page keeps
 *   its title (while the source's H1 is the page's H1: a new H1 is a new title), its
 *   SUMMARY link title, and its slug.
 * - Everything else (body, front matter, fields) is the import's.
 */
import { splitLeadingHeading } from '../content-model/markdown.js';
import type { ContentFile, ContentPage } from '../content-model/model.js';
import { extraString, setExtra } from './page.js';

export interface ImportSource {
  /** The source has a SUMMARY.md: titles, link titles and order are the source's. */
  summary: boolean;
}

function headingText(page: ContentPage): string | undefined {
  const raw = extraString(page, 'heading');
  return raw === undefined || raw === '' ? undefined : splitLeadingHeading(raw)?.text;
}

/** `imported` as the space's page: over `existing` (the page it matched), or new. */
export function adoptPage(existing: ContentPage | undefined, imported: ContentPage, source: ImportSource): ContentPage {
  const page: ContentPage = { ...imported };
  delete page.git;
  if (!existing) return page;
  if (existing.git) page.git = { ...existing.git };
  if (source.summary || imported.type !== 'document' || existing.type !== 'document') return page;
  if (existing.slug !== undefined) page.slug = existing.slug;
  const sameHeading = headingText(imported) === headingText(existing);
  if (sameHeading) page.title = existing.title;
  setExtra(page, {
    frontMatter: extraString(imported, 'frontMatter'),
    heading: extraString(imported, 'heading'),
    summaryTitle: sameHeading ? extraString(existing, 'summaryTitle') : extraString(imported, 'summaryTitle'),
    linkTitle: extraString(existing, 'linkTitle'),
    computed: extraString(imported, 'computed'),
    computedInfo: extraString(imported, 'computedInfo'),
  });
  return page;
}

/** `imported` as the space's file: a matched file keeps its place in the repository, a new one has none yet. */
export function adoptFile(existing: ContentFile | undefined, imported: ContentFile): ContentFile {
  const file: ContentFile = { ...imported };
  delete file.git;
  if (existing?.git) file.git = { ...existing.git };
  return file;
}
