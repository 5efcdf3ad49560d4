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
