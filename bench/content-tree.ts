/**
 * The ~5,000-page content tree of the benchmarks (50 parts × 10 chapters × 9
 * sections, each page with a short Markdown body): shared by the content and the
 * comments/search generators.
 */
import type { ContentPage, ContentTree } from '../src/content-model/model.js';

const body = (title: string) =>
  `Introduction to ${title}.\n\n## Details\n\n${Array.from({ length: 12 }, (_, i) => `Line ${i + 1} about ${title}: some text that explains it.`).join('\n')}\n\n\`\`\`sh\ndocsctl ${title.toLowerCase().replace(/\W+/g, '-')}\n\`\`\`\n`;

/** Returns the tree, its leaf pages (the sections) and the page count. */
export function benchContentTree(): { tree: ContentTree; leaves: ContentPage[]; pages: number } {
  let n = 0;
  const page = (title: string, pages: ContentPage[] = []): ContentPage => ({
    id: `p${String(++n).padStart(5, '0')}`,
    type: 'document',
    title,
    slug: title.toLowerCase().replace(/\W+/g, '-'),
    markdown: body(title),
    pages,
  });
  const tree: ContentTree = {
    pages: Array.from({ length: 50 }, (_, a) =>
      page(`Part ${a}`, Array.from({ length: 10 }, (_, b) => page(`Chapter ${a}.${b}`, Array.from({ length: 9 }, (_, c) => page(`Section ${a}.${b}.${c}`))))),
    ),
    files: [],
  };
  const leaves = tree.pages.flatMap((p) => p.pages.flatMap((c) => c.pages));
  return { tree, leaves, pages: n };
}
