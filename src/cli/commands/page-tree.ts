/** Prints a `{pages}` tree: indented titles on a terminal, flattened rows otherwise. */
import { columns } from '../../output/columns.js';
import type { Session } from '../session.js';
import { styler } from '../../output/styled.js';

interface TreePage {
  id: string;
  type: string;
  title: string;
  path?: string;
  hidden?: boolean;
  pages?: TreePage[];
}

function flatten(pages: TreePage[], depth = 0, out: Array<{ page: TreePage; depth: number }> = []) {
  for (const page of pages) {
    out.push({ page, depth });
    flatten(page.pages ?? [], depth + 1, out);
  }
  return out;
}

export async function printPageTree(session: Session, body: unknown): Promise<void> {
  const pages = ((body as { pages?: TreePage[] }).pages ?? []) as TreePage[];
  const format = session.format;
  if (format === 'json' || format === 'yaml') {
    await session.printObject(pages, []);
    return;
  }
  const rows = flatten(pages);
  if (format !== 'table') {
    await session.printList(
      rows.map((r) => r.page),
      columns.page,
    );
    return;
  }
  if (rows.length === 0) {
    await session.hint('No pages yet.');
    return;
  }
  // Titles and paths are sanitized as they go in; the styling is added after (src/output/styled.ts).
  const s = await styler(session.ctx.io.colorEnabled);
  const lines = rows.map(({ page, depth }) => {
    const marker = page.type === 'group' ? s.bold(page.title.toUpperCase()) : page.title;
    const kind = page.type === 'link' ? s.dim(' ↗') : page.hidden ? s.dim(' (hidden)') : '';
    return s`${'  '.repeat(depth)}${marker}${kind}  ${s.dim(page.path ? `${page.path}  ${page.id}` : page.id)}`;
  });
  await session.printStyled(s.join(lines, '\n'));
}
