/**
 * `docsctl site inspect [SITE]`: the interactive site browser. Pick a site →
 * a section or group → a variant (site space) → walk its page tree → read a page
 * rendered for the terminal (through `$PAGER`, else `less -R`, when it is longer
 * than the screen). Every step offers "back" and "quit"; Ctrl-C exits 130.
 * Everything is read through the API, so it works the same against a remote
 * endpoint. Without a terminal (or with --no-input) it prints `site tree SITE`.
 */
import { spawn } from 'node:child_process';
import { UsageError } from '../../api/errors.js';
import { write } from '../io.js';
import { sanitizeLine } from '../../output/sanitize.js';
import { styler } from '../../output/styled.js';
import { resolveOrganization } from '../operation.js';
import type { Session } from '../session.js';
import { renderMarkdownForTerminal } from '../terminal-markdown.js';
import type { ApiSiteSpace } from '../../domain/sites/tree-shape.js';
import { type ApiStructure, PAGE_TREE_QUERY, printSiteTree, readSiteTree, siteTreeQuery } from './site-tree.js';
import type { RouteId } from '../../api/route-id.js';

export const BACK = '__back';
export const QUIT = '__quit';
type Outcome = 'back' | 'quit';

interface Page {
  id: string;
  type?: string;
  title: string;
  path?: string;
  markdown?: string;
  href?: string;
  pages?: Page[];
}
type SiteSpace = ApiSiteSpace;
interface Section {
  object: 'site-section';
  id: string;
  title: string;
  default?: boolean;
  siteSpaces: SiteSpace[];
}
interface Group {
  object: 'site-section-group';
  id: string;
  title: string;
  children: Array<Section | Group>;
}
type Item = Section | Group | SiteSpace;
interface Site {
  id: string;
  title: string;
  published: boolean;
}

const controls = [
  { value: BACK, name: '← Back' },
  { value: QUIT, name: '✕ Quit' },
];

// eslint-disable-next-line max-lines-per-function -- the interactive loop: each level (site, section, variant, page) is one state of it
export async function runSiteInspect(session: Session, siteArg: string | undefined, options: Record<string, unknown>): Promise<void> {
  const orgId = await resolveOrganization(session, options.org);
  const transport = await session.transport();
  const get = async <T>(route: RouteId, params: Record<string, string>, query: Record<string, unknown> = {}): Promise<T> =>
    (await transport.request(route, { params: { organizationId: orgId, ...params }, query })).body as T;

  const onlySite = async (): Promise<Site | undefined> => {
    const { items } = await get<{ items: Site[] }>('listSites', {}, { limit: 2 });
    return items.length === 1 ? items[0] : undefined;
  };

  if (!session.canPrompt) {
    const siteId = siteArg ?? (await onlySite())?.id;
    if (siteId === undefined) {
      throw new UsageError('site inspect needs a terminal to pick a site', {
        hint: 'pass SITE to print its tree (as docsctl site tree SITE does), or run it in a terminal',
      });
    }
    const input = { params: { organizationId: orgId, siteId }, query: siteTreeQuery(session) };
    await printSiteTree(session, (await readSiteTree(transport, input)).body);
    return;
  }

  const s = await styler(session.ctx.io.colorEnabled);
  const prompter = session.ctx.prompter;
  // Titles are data: the prompt shows them sanitized, as every other output does.
  const pick = (message: string, choices: Array<{ value: string; name: string }>) =>
    prompter.select(sanitizeLine(message), [...choices.map((c) => ({ ...c, name: sanitizeLine(c.name) })), ...controls]);

  const show = async (text: string) => {
    const out = session.ctx.io.out as NodeJS.WriteStream;
    const rows = out.isTTY === true ? out.rows : undefined;
    if (rows !== undefined && text.split('\n').length > rows - 2 && (await page(text, session.ctx.env))) return;
    await write(session.ctx.io.out, text);
  };

  // The tree is read without bodies; the page shown is read on its own, as Markdown.
  const markdownOf = async (variant: SiteSpace, page: Page): Promise<string> => {
    if (page.markdown !== undefined) return page.markdown;
    const { body } = await transport.request('getPageById', { params: { spaceId: variant.space.id, pageId: page.id }, query: { format: 'markdown' } });
    return (body as { markdown?: string }).markdown ?? '';
  };

  const showPage = async (variant: SiteSpace, page: Page) => {
    const url = variant.urls.published ? `${variant.urls.published}${page.path ?? ''}` : '(not published)';
    const header = s`${s.bold(page.title)}\n${s.dim(url)}\n\n`;
    const body =
      page.type === 'link'
        ? s`Link to ${page.href ?? '?'}\n`.text
        : renderMarkdownForTerminal(await markdownOf(variant, page), s, session.ctx.io.columns ?? 80);
    await show(`${header.text}${body}\n`);
  };

  const browsePages = async (variant: SiteSpace, pages: Page[], where: string): Promise<Outcome> => {
    for (;;) {
      if (pages.length === 0) await session.info('No pages here.');
      const choice = await pick(
        `${where}: pick a page`,
        pages.map((p) => ({ value: p.id, name: `${p.title}${(p.pages?.length ?? 0) > 0 ? ' ▸' : ''}` })),
      );
      if (choice === QUIT) return 'quit';
      if (choice === BACK) return 'back';
      const chosen = pages.find((p) => p.id === choice);
      if (!chosen) continue;
      if (chosen.type !== 'group') await showPage(variant, chosen);
      if ((chosen.pages?.length ?? 0) > 0 && (await browsePages(variant, chosen.pages ?? [], chosen.title)) === 'quit') return 'quit';
    }
  };

  const browseVariant = async (variant: SiteSpace): Promise<Outcome> => {
    const { pages } = await transport.request('listPages', { params: { spaceId: variant.space.id }, query: { ...PAGE_TREE_QUERY } }).then(
      (r) => r.body as { pages?: Page[] },
    );
    return browsePages(variant, pages ?? [], variant.title);
  };

  // A level with one choice is entered without asking; "back" from inside it goes up past it.
  const browseVariants = async (section: Section): Promise<Outcome> => {
    if (section.siteSpaces.length === 1) return browseVariant(section.siteSpaces[0] as SiteSpace);
    for (;;) {
      const choice = await pick(
        `${section.title}: pick a variant`,
        section.siteSpaces.map((ss) => ({ value: ss.id, name: `${ss.title}${ss.default ? ' (default)' : ''}  ${ss.urls.published ?? ''}`.trim() })),
      );
      if (choice === QUIT) return 'quit';
      if (choice === BACK) return 'back';
      const variant = section.siteSpaces.find((ss) => ss.id === choice);
      if (variant && (await browseVariant(variant)) === 'quit') return 'quit';
    }
  };

  const enter = (item: Item): Promise<Outcome> =>
    'object' in item && item.object === 'site-section-group'
      ? browseLevel(item.children, item.title)
      : 'object' in item && item.object === 'site-section'
        ? browseVariants(item)
        : browseVariant(item as SiteSpace);

  const browseLevel = async (all: Item[], where: string): Promise<Outcome> => {
    // External links (0.202) lead out of the site: there is nothing in them to inspect.
    const items = all.filter((item) => (item as { object?: string }).object !== 'site-external-link');
    if (items.length === 1) return enter(items[0] as Item);
    for (;;) {
      const choice = await pick(
        `${where}: pick a section, group or variant`,
        items.map((item) => ({
          value: item.id,
          name:
            'object' in item && item.object === 'site-section-group'
              ? `[${item.title}] ▸`
              : `${item.title}${item.default ? ' (default)' : ''}`,
        })),
      );
      if (choice === QUIT) return 'quit';
      if (choice === BACK) return 'back';
      const item = items.find((i) => i.id === choice);
      if (item && (await enter(item)) === 'quit') return 'quit';
    }
  };

  const browseSite = async (siteId: string): Promise<Outcome> => {
    const site = await get<Site>('getSiteById', { siteId });
    const structure = await get<ApiStructure>('getSiteStructure', { siteId });
    await session.info(`${site.title}${site.published ? '' : ' (not published)'}`);
    return browseLevel(structure.structure as Item[], site.title);
  };

  const only = siteArg ?? (await onlySite())?.id;
  if (only !== undefined) {
    await browseSite(only);
    return;
  }
  for (;;) {
    const { items } = await get<{ items: Site[] }>('listSites', {}, { limit: 1000 });
    const choice = await prompter.select('Pick a site', [
      ...items.map((site) => ({ value: site.id, name: sanitizeLine(`${site.title}${site.published ? '' : ' (not published)'}`) })),
      { value: QUIT, name: '✕ Quit' },
    ]);
    if (choice === QUIT || (await browseSite(choice)) === 'quit') return;
  }
}

/**
 * Shows `text` through the user's pager (`$PAGER`, else `less -R`). False when no
 * pager could be started (the caller then prints the text). The text goes on the
 * pager's stdin, never on its command line.
 */
function page(text: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  const command = env.PAGER?.trim() || 'less -R';
  return new Promise((resolve) => {
    let started = false;
    const child = spawn(command, { shell: true, stdio: ['pipe', 'inherit', 'inherit'], env: { LESS: 'FRX', ...env } });
    child.on('spawn', () => {
      started = true;
      child.stdin.end(text);
    });
    child.stdin.on('error', () => undefined); // the user quit the pager before reading everything
    child.on('error', () => resolve(false));
    child.on('close', (code) => resolve(started && code !== 127));
  });
}
