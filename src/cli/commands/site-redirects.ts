/** `docsctl site redirect …`: paths of a site that lead to a section, site space or page (real API `site-redirects`). */
import { UsageError } from '../../api/errors.js';
import type { RawInput } from '../../api/validate.js';
import { resolvePage } from '../lookups.js';
import type { FlagSpec, OperationCommandSpec } from '../operation.js';
import type { Session } from '../session.js';

const SITE = { name: 'siteId', description: 'site id' };
const REDIRECT = { name: 'siteRedirectId', description: 'redirect id' };

const destinationFlags: FlagSpec[] = [
  { flags: '--section <siteSectionId>', description: 'lead to this site section' },
  { flags: '--site-space <siteSpaceId>', description: 'lead to this site space (a variant)' },
  { flags: '--page <page>', description: 'lead to this page of the --site-space (id or path)' },
];

function body(input: RawInput): Record<string, unknown> {
  input.body ??= {};
  return input.body as Record<string, unknown>;
}

/** `--section ID`, `--site-space ID` or `--site-space ID --page ID` → `destination` (none: left as it is). */
function destination(options: Record<string, unknown>, input: RawInput, required: boolean): void {
  const section = options.section as string | undefined;
  const siteSpace = options.siteSpace as string | undefined;
  const page = options.page as string | undefined;
  if (section !== undefined && (siteSpace !== undefined || page !== undefined)) {
    throw new UsageError('Pass --section, or --site-space (with --page for a page), not both');
  }
  if (page !== undefined && siteSpace === undefined) throw new UsageError('--page needs --site-space: the variant whose page it is');
  if (section !== undefined) body(input).destination = { kind: 'site-section', siteSectionId: section };
  else if (page !== undefined) body(input).destination = { kind: 'site-page', siteSpaceId: siteSpace, pageId: page };
  else if (siteSpace !== undefined) body(input).destination = { kind: 'site-space', siteSpaceId: siteSpace };
  else if (required) throw new UsageError('Missing destination: pass --section ID, --site-space ID, or --site-space ID --page ID');
}

/**
 * A `--page` given as a path becomes the page's id, in the space the `--site-space`
 * shows (the site's site spaces are read to find it; there is no read of one by id).
 */
async function pageOfSiteSpace(session: Session, input: RawInput): Promise<void> {
  const target = (input.body as { destination?: { kind?: string; siteSpaceId?: string; pageId?: string } } | undefined)?.destination;
  if (target?.kind !== 'site-page' || target.pageId === undefined) return;
  const transport = await session.transport();
  const params = input.params as Record<string, string>;
  let page: string | undefined;
  do {
    const query = { limit: 1000, ...(page ? { page } : {}) };
    const body = (await transport.request('listSiteSpaces', { params: { organizationId: params.organizationId as string, siteId: params.siteId as string }, query }))
      .body as { items?: Array<{ id: string; space?: { id?: string } }>; next?: { page?: string } | null };
    const spaceId = body.items?.find((item) => item.id === target.siteSpaceId)?.space?.id;
    if (spaceId !== undefined) {
      target.pageId = await resolvePage(transport, { spaceId }, target.pageId);
      return;
    }
    page = body.next?.page;
  } while (page);
}

/** Moves the SOURCE argument from the path params to `to` (`body.source` or `query.source`). */
function sourceArgument(input: RawInput, to: 'body' | 'query'): void {
  const params = input.params as Record<string, string>;
  const target = (to === 'body' ? body(input) : (input.query ??= {})) as Record<string, unknown>;
  target.source = params.source;
  delete params.source;
}

const SOURCE = { name: 'source', description: 'path on the site, e.g. /old/page, or a prefix ending in * (/old/*)' };

/** 0.202's redirect flags; an edit also takes their --no- forms (`--no-draft` makes a draft live). */
function redirectFlags(edit: boolean): FlagSpec[] {
  const flags: FlagSpec[] = [
    { flags: '--draft', description: 'a draft: not live until made live (site redirect edit --no-draft)', to: 'body.draft', type: 'boolean' },
    { flags: '--capture-wildcard', description: 'append what the source\'s final * matched to the destination', to: 'body.captureWildcard', type: 'boolean' },
    { flags: '--permanent', description: 'served as a permanent redirect (308) rather than a temporary one (307)', to: 'body.permanent', type: 'boolean' },
  ];
  if (!edit) return flags;
  return [
    ...flags,
    { flags: '--no-draft', description: 'make a draft redirect live', to: 'body.draft', type: 'boolean' },
    { flags: '--no-capture-wildcard', description: 'stop appending what the * matched', to: 'body.captureWildcard', type: 'boolean' },
    { flags: '--no-permanent', description: 'serve it as a temporary redirect (307)', to: 'body.permanent', type: 'boolean' },
  ];
}

export const siteRedirectCommands: OperationCommandSpec[] = [
  {
    command: 'site redirect list',
    route: 'listSiteRedirects',
    summary: 'List the redirects of a site',
    aliases: ['ls'],
    args: [SITE],
    org: true,
    flags: [
      { flags: '--search <text>', description: 'only redirects whose source contains this', to: 'query.search' },
      { flags: '--drafts', description: 'list the draft redirects (not live) instead of the live ones', to: 'query.draft', type: 'boolean' },
      { flags: '--order-by <field>', description: 'createdAt (default) and updatedAt: newest first; source: alphabetical', to: 'query.orderBy', choices: ['createdAt', 'updatedAt', 'source'] },
    ],
    output: 'list',
    columns: 'siteRedirect',
    noun: 'redirect',
    examples: ['docsctl site redirect list s1t3', 'docsctl site redirect list s1t3 --search /v1/', 'docsctl site redirect list s1t3 --drafts --order-by source'],
  },
  {
    command: 'site redirect get',
    route: 'getSiteRedirectBySource',
    summary: 'Show the redirect from a path and the URL it leads to',
    args: [SITE, SOURCE],
    org: true,
    flags: [{ flags: '--share-key <key>', description: 'open a share-link site with this key', to: 'query.shareKey' }],
    build: (_options, input) => sourceArgument(input, 'query'),
    output: 'object',
    columns: 'siteRedirectTarget',
    examples: ['docsctl site redirect get s1t3 /old/page', 'docsctl site redirect get s1t3 /old/page --json | jq -r .target'],
  },
  {
    command: 'site redirect create',
    route: 'createSiteRedirect',
    summary: 'Redirect a path of a site to a section, a site space or a page',
    args: [SITE, SOURCE],
    org: true,
    flags: [...destinationFlags, ...redirectFlags(false)],
    build: (options, input) => {
      sourceArgument(input, 'body');
      destination(options, input, true);
    },
    resolve: pageOfSiteSpace,
    output: 'object',
    columns: 'siteRedirect',
    examples: [
      'docsctl site redirect create s1t3 /old-api --section s3ct',
      'docsctl site redirect create s1t3 /guide/v1 --site-space v4r',
      'docsctl site redirect create s1t3 /setup --site-space v4r --page guides/setup',
      'docsctl site redirect create s1t3 "/v1/*" --section s3ct --capture-wildcard --permanent',
    ],
  },
  {
    command: 'site redirect edit',
    route: 'updateSiteRedirectById',
    summary: 'Change the source or destination of a redirect',
    args: [SITE, REDIRECT],
    org: true,
    flags: [{ flags: '--source <url-path>', description: 'new source path', to: 'body.source' }, ...destinationFlags, ...redirectFlags(true)],
    build: (options, input) => destination(options, input, false),
    resolve: pageOfSiteSpace,
    nonEmptyBody: 'Nothing to change: pass --source, --section, --site-space (with --page), --draft/--no-draft, --capture-wildcard or --permanent (or their --no- forms)',
    output: 'object',
    columns: 'siteRedirect',
    examples: ['docsctl site redirect edit s1t3 r3d1 --source /older-api', 'docsctl site redirect edit s1t3 r3d1 --site-space v4r'],
  },
  {
    command: 'site redirect delete',
    route: 'deleteSiteRedirectById',
    summary: 'Delete a redirect',
    aliases: ['rm'],
    args: [SITE, REDIRECT],
    org: true,
    confirm: (input) => `Delete redirect ${input.params?.siteRedirectId}?`,
    output: 'delete',
    columns: 'siteRedirect',
    noun: 'redirect',
    examples: ['docsctl site redirect delete s1t3 r3d1 --yes'],
  },
];
