/**
 * SUMMARY.md on export: what the table of contents says of a tree (`structure`,
 * compared with the repository's own to decide whether it changes at all), and
 * the file written when it does: the entries of the tree (`summaryEntries`),
 * written over the file they replace so unchanged items keep their lines
 * (summary-update.ts).
 */
import type { ContentPage, ContentRef } from '../content-model/model.js';
import type { ExportRun } from './export-run.js';
import { extraString } from './page.js';
import { relativePath } from './paths.js';
import { slugify } from './slug.js';
import type { SummaryEntry, SummaryItem } from './summary.js';
import { updateSummary } from './summary-update.js';

type StructureNode = Array<string | number | StructureNode[]>;

/** What SUMMARY.md says of a tree: types, titles, link titles, files, targets, nesting. */
export function structure(
  pages: ContentPage[],
  pathOf: (page: ContentPage) => string | undefined,
  pathById: Map<string, string>,
): StructureNode[] {
  return pages.map((page): StructureNode => {
    const children = structure(page.pages, pathOf, pathById);
    const linkTitle = extraString(page, 'linkTitle') ?? '';
    if (page.type === 'group') return ['group', page.title, page.slug ?? '', children];
    if (page.type === 'document') return ['document', page.title, linkTitle, pathOf(page) ?? '', children];
    const computed = extraString(page, 'computed');
    if (computed !== undefined) return ['computed', computed, extraString(page, 'computedInfo') ?? '', children];
    return ['link', page.title, linkTitle, linkKey(page.target, pathById), children];
  });
}

function linkKey(target: ContentRef | undefined, pathById: Map<string, string>): string {
  if (!target) return '';
  switch (target.kind) {
    case 'url':
      return `url:${target.url}`;
    case 'page':
      return `page:${pathById.get(target.page) ?? `?${target.page}`}`;
    case 'anchor':
      return `page:${target.page !== undefined ? (pathById.get(target.page) ?? `?${target.page}`) : ''}#${target.anchor}`;
    case 'file':
      return `file:${target.file}`;
    case 'space':
      return `space:${target.space}`;
  }
}

function summaryEntries(
  run: ExportRun,
  pages: ContentPage[],
  finalPath: Map<ContentPage, string>,
  pathById: Map<string, string>,
  fileById: Map<string, string>,
): SummaryEntry[] {
  const { config } = run;
  const href = (path: string): string => relativePath(config.root, path);
  const items = (list: ContentPage[]): SummaryItem[] => {
    const out: SummaryItem[] = [];
    for (const page of list) {
      if (page.type === 'group') {
        run.warnings.push(`group "${page.title}" is not at the root; its pages are written in its place`);
        out.push(...items(page.pages));
        continue;
      }
      const children = items(page.pages);
      const linkTitle = extraString(page, 'linkTitle');
      const withTitle = <T extends SummaryItem>(item: T): T => {
        if (linkTitle !== undefined && item.kind === 'link') item.linkTitle = linkTitle;
        return item;
      };
      if (page.type === 'document') {
        out.push(withTitle({ kind: 'link', title: page.title, href: href(finalPath.get(page) as string), line: 0, children }));
        continue;
      }
      const computed = extraString(page, 'computed');
      if (computed !== undefined) {
        out.push({ kind: 'computed', yaml: computed, info: extraString(page, 'computedInfo') ?? 'yaml', line: 0, children });
        continue;
      }
      const target = page.target;
      let destination: string | undefined;
      if (target?.kind === 'url') destination = target.url;
      else if (target?.kind === 'page') {
        const path = pathById.get(target.page);
        if (path !== undefined) destination = href(path);
      } else if (target?.kind === 'anchor') {
        const path = target.page !== undefined ? pathById.get(target.page) : undefined;
        if (target.page === undefined) destination = `#${target.anchor}`;
        else if (path !== undefined) destination = `${href(path)}#${target.anchor}`;
      } else if (target?.kind === 'file') {
        const path = fileById.get(target.file);
        if (path !== undefined) destination = href(path);
      } else if (target?.kind === 'space') destination = `https://app.gitbook.com/s/${target.space}/`;
      destination ??= page.href;
      if (destination === undefined) {
        run.warnings.push(`link page "${page.title}" has no target that can be written; left out of ${config.summary}`);
        out.push(...children);
        continue;
      }
      out.push(withTitle({ kind: 'link', title: page.title, href: destination, line: 0, children }));
    }
    return out;
  };
  const entries: SummaryEntry[] = [];
  for (const page of pages) {
    if (page.type === 'group') {
      entries.push({ kind: 'group', title: page.title, slug: page.slug ?? slugify(page.title), line: 0, children: items(page.pages) });
    } else entries.push(...items([page]));
  }
  return entries;
}

/**
 * The table of contents after the export, or undefined when it says the same as the
 * repository's (`before`: the import of the repository as it is). `base` is the
 * file it replaces (or the one the space remembers, for a repository that has none):
 * its unchanged items keep their lines.
 */
export function summaryAfter(
  run: ExportRun,
  pages: ContentPage[],
  finalPath: Map<ContentPage, string>,
  before: ContentPage[],
  fileById: Map<string, string>,
  base: string | undefined,
): string | undefined {
  const pathById = new Map<string, string>();
  for (const [page, path] of finalPath) if (!pathById.has(page.id)) pathById.set(page.id, path);
  const currentPathById = new Map<string, string>();
  const visit = (list: ContentPage[]): void => {
    for (const page of list) {
      if (page.git) currentPathById.set(page.id, page.git.path);
      visit(page.pages);
    }
  };
  visit(before);
  const wanted = JSON.stringify(structure(pages, (page) => finalPath.get(page), pathById));
  const current = JSON.stringify(structure(before, (page) => page.git?.path, currentPathById));
  if (wanted === current) return undefined;
  return updateSummary(base, summaryEntries(run, pages, finalPath, pathById, fileById));
}
