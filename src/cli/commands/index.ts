/** Every data-declared command, and the descriptions of their groups. */
import type { OperationCommandSpec } from '../operation.js';
import { contentCommands, contentGroupDescriptions } from './change-requests.js';
import { collectionCommands } from './collections.js';
import { commentCommands, commentGroupDescriptions } from './comments.js';
import { reviewCommands } from './reviews.js';
import { searchCommands } from './search.js';
import { memberCommands } from './members.js';
import { orgCatalogCommands, orgCatalogGroupDescriptions } from './org-catalog.js';
import { orgCommands } from './orgs.js';
import { spaceCommands } from './spaces.js';
import { teamCommands } from './teams.js';
import { siteCommands, siteGroupDescriptions } from './sites.js';

export const operationCommands: readonly OperationCommandSpec[] = [
  ...orgCommands,
  ...memberCommands,
  ...teamCommands,
  ...collectionCommands,
  ...spaceCommands,
  ...contentCommands,
  ...commentCommands,
  ...reviewCommands,
  ...searchCommands,
  ...siteCommands,
  ...orgCatalogCommands,
];

export const groupDescriptions: Record<string, string> = {
  org: 'Organizations you belong to',
  user: 'Users',
  member: 'Members of an organization',
  team: 'Teams of an organization',
  'team members': 'Members of a team (list, add, remove, sync from a file)',
  collection: 'Collections: groups of spaces inside an organization',
  space: 'Spaces: containers of documentation content',
  ...contentGroupDescriptions,
  ...commentGroupDescriptions,
  search: 'Search page titles and text',
  ...siteGroupDescriptions,
  ...orgCatalogGroupDescriptions,
};
