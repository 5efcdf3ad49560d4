/**
 * Zod building blocks of a site's AI agents (0.202): its agent settings and GitBook Agent
 * channels. Shared by the routes (routes/sites.ts) and the organization file (orgcode/schema.ts);
 * kept out of common.ts, which every route module loads.
 */
import * as z from 'zod';

export const SiteScanTopics = z.enum(['auto', 'never']);
export const SiteFindingChangeRequests = z.enum(['always', 'auto-fixable', 'never']);
export const SiteChannelType = z.enum(['builtin:slack', 'builtin:linear', 'builtin:github', 'builtin:discord']);
export const SiteChannelRole = z.enum(['collaborator', 'support']);
/** 0.202 `GenericChannelPattern` (`general`, `support-*`); at most 256 characters here. */
export const ChannelPattern = z.string().min(1).max(256).regex(/^[a-zA-Z0-9_*-]+$/, 'use letters, digits, _, - and * (e.g. support-*)');
/** 0.202 `GitHubRepositoryPattern` (`my-org/my-repo`, `my-org/*`). */
export const RepositoryPattern = z.string().min(3).max(256).regex(/^[a-zA-Z0-9._*-]+\/[a-zA-Z0-9._*-]+$/, 'use owner/repository, e.g. my-org/docs or my-org/*');
