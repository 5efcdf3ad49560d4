/** `docsctl site redirect …`: paths of a site that lead to a section, site space or page (real API `site-redirects`); declared with the routes (src/api/routes/sites.ts), the destination flags here. */
import { UsageError } from '../../api/errors.js';
import type { RawInput } from '../../api/validate.js';
import { resolvePage } from '../lookups.js';
import type { Hooks } from '../derive.js';
import type { FlagSpec } from '../operation.js';
import type { Session } from '../session.js';

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

export const hooks = {
  'site redirect create': {
    flags: destinationFlags,
    build: (options, input) => destination(options, input, true),
    resolve: pageOfSiteSpace,
  },
  'site redirect edit': {
    flags: destinationFlags,
    build: (options, input) => destination(options, input, false),
    resolve: pageOfSiteSpace,
  },
} satisfies Hooks;
