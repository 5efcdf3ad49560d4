/**
 * `docsctl search QUERY [--space SPACE]`: the pages whose title or text contain
 * the query's words, best first — in one space, or across the organization's
 * spaces (one row per page, with its space). Declared with the route searchSpaceContent
 * (src/api/routes/search.ts: --space fills its spaceId); without --space the hook picks
 * searchOrganizationContent.
 */
import type { RawInput } from '../../api/validate.js';
import type { Hooks } from '../derive.js';
import { resolveOrganization } from '../operation.js';
import type { Session } from '../session.js';

interface PageHit {
  id: string;
  title?: string;
  path?: string;
  sections?: Array<{ body?: string }>;
}

/** Organization results are spaces with their pages: print one row per page, with the space. */
async function printHits(session: Session, items: unknown[], input: RawInput): Promise<void> {
  const { columns } = await import('../../output/columns.js');
  if ((input.params as Record<string, string>).spaceId !== undefined || session.format === 'json' || session.format === 'yaml') {
    await session.printList(items, columns.searchHit);
    return;
  }
  const rows = (items as Array<{ id: string; title?: string; pages?: PageHit[] }>).flatMap((space) =>
    (space.pages ?? []).map((page) => ({ ...page, space: { id: space.id, title: space.title } })),
  );
  await session.printList(rows, columns.searchHitInSpace);
}

export const hooks = {
  search: {
    route: (options) => (options.space !== undefined ? 'searchSpaceContent' : 'searchOrganizationContent'),
    flags: [{ flags: '--org <organizationId>', description: 'organization (default: DOCSCTL_ORG, the profile, or your only one)' }],
    build: async (options, input, session) => {
      if (options.space === undefined) (input.params as Record<string, string>).organizationId = await resolveOrganization(session, options.org);
    },
    printItems: printHits,
  },
} satisfies Hooks;
