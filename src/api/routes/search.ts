/**
 * Full-text search of content (real API): `searchSpaceContent` over one space's
 * primary content, `searchOrganizationContent` over the spaces of an organization.
 */
import * as z from 'zod';
import { defineRoute } from '../route.js';
import { paginationQuery, pathParams } from '../schemas/common.js';

const searchQuery = () => z.object({ query: z.string().min(1).max(512), ...paginationQuery });

export const searchSpaceContent = defineRoute({
  id: 'searchSpaceContent',
  method: 'GET',
  path: '/v1/spaces/{spaceId}/search',
  summary: 'Search the pages of a space (titles and text), best matches first',
  source: 'real-api',
  access: 'read',
  params: pathParams('spaceId'),
  query: searchQuery(),
  paginated: true,
  cli: {
    command: 'search',
    summary: 'Search page titles and text, best matches first (one space with --space, else every space of the organization)',
    args: [{ name: 'query', to: 'query.query' }],
    argHelp: { query: 'the words to look for' },
    flags: { 'params.spaceId': { flag: '--space <spaceId>', description: 'search this space only' } },
    columns: 'searchHit',
    noun: 'match',
    examples: [
      'docsctl search "install upgrade"',
      'docsctl search kubernetes --space sp4c3 --format tsv',
      'docsctl search helm --all --json | jq length',
    ],
  },
});

export const searchOrganizationContent = defineRoute({
  id: 'searchOrganizationContent',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/search',
  summary: 'Search the spaces of an organization, best matches first',
  source: 'real-api',
  access: 'read',
  params: pathParams('organizationId'),
  query: searchQuery(),
  paginated: true,
});
