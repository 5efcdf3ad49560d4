/**
 * The hand-written route modules by name: what the route table gathers (table.ts) and
 * what `RouteId` is derived from (route-id.ts imports only this module's type, so the
 * type does not depend on the table that uses it).
 */
import * as audit from './routes/audit.js';
import * as storage from './routes/storage.js';
import * as changeRequests from './routes/change-requests.js';
import * as collections from './routes/collections.js';
import * as comments from './routes/comments.js';
import * as content from './routes/content.js';
import * as conversations from './routes/conversations.js';
import * as customFields from './routes/custom-fields.js';
import * as documents from './routes/documents.js';
import * as emulator from './routes/emulator.js';
import * as fonts from './routes/fonts.js';
import * as git from './routes/git.js';
import * as imports from './routes/imports.js';
import * as reviews from './routes/reviews.js';
import * as search from './routes/search.js';
import * as users from './routes/users.js';
import * as integrations from './routes/integrations.js';
import * as inviteLinks from './routes/invite-links.js';
import * as members from './routes/members.js';
import * as openapi from './routes/openapi.js';
import * as orgs from './routes/orgs.js';
import * as orgConversations from './routes/org-conversations.js';
import * as permissions from './routes/permissions.js';
import * as sites from './routes/sites.js';
import * as siteStructure from './routes/site-structure.js';
import * as sitePublishing from './routes/site-publishing.js';
import * as siteContext from './routes/site-context.js';
import * as siteInsights from './routes/site-insights.js';
import * as spaces from './routes/spaces.js';
import * as sso from './routes/sso.js';
import * as styleguides from './routes/styleguides.js';
import * as system from './routes/system.js';
import * as teams from './routes/teams.js';
import * as translations from './routes/translations.js';

/** The hand-written route modules by name (their route ids make up `RouteId`). */
export const handWrittenModules = {
  orgs,
  'org-conversations': orgConversations,
  'invite-links': inviteLinks,
  fonts,
  system,
  collections,
  spaces,
  sites,
  'site-structure': siteStructure,
  'site-publishing': sitePublishing,
  'site-context': siteContext,
  'site-insights': siteInsights,
  styleguides,
  'change-requests': changeRequests,
  content,
  documents,
  conversations,
  comments,
  'custom-fields': customFields,
  integrations,
  sso,
  openapi,
  translations,
  members,
  teams,
  permissions,
  git,
  imports,
  reviews,
  search,
  users,
  audit,
  emulator,
  storage,
} as const;

