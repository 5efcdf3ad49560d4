/**
 * `docsctl search QUERY [--space SPACE]`: the pages whose title or text contain
 * the query's words, best first — in one space, or across the organization's
 * spaces (one row per page, with its space).
 */
import type { RawInput } from '../../api/validate.js';
import { type OperationCommandSpec, resolveOrganization } from '../operation.js';
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

export const searchCommands: OperationCommandSpec[] = [
  {
    command: 'search',
    route: (options) => (options.space !== undefined ? 'searchSpaceContent' : 'searchOrganizationContent'),
    summary: 'Search page titles and text, best matches first (one space with --space, else every space of the organization)',
    args: [{ name: 'query', param: '__query', description: 'the words to look for' }],
    flags: [
      { flags: '--space <spaceId>', description: 'search this space only', to: 'params.spaceId' },
      { flags: '--org <organizationId>', description: 'organization (default: DOCSCTL_ORG, the profile, or your only one)' },
    ],
    build: async (options, input, session) => {
      const params = input.params as Record<string, string>;
      (input.query as Record<string, unknown>).query = params.__query;
      delete params.__query;
      if (options.space === undefined) params.organizationId = await resolveOrganization(session, options.org);
    },
    output: 'list',
    columns: 'searchHit',
    noun: 'match',
    printItems: printHits,
    examples: ['docsctl search "install upgrade"', 'docsctl search kubernetes --space sp4c3 --format tsv', 'docsctl search helm --all --json | jq length'],
  },
];
