/**
 * The default documentation site of a new organization (`createOrganization` with
 * `withDefaultSite`): a basic public site titled like the organization, unpublished and
 * empty, as `createSite` makes one without spaces. Loaded only when asked for.
 *
 * 0.202's `onboardingPreferences` shape it (they are read nowhere else and not stored):
 * - `source: template`: the site starts with docsctl's default documentation template, as
 *   `applyTemplateToSite` fills an empty site (site-template.ts): a space titled like the site
 *   at its root. `markdown-in-git` and `import` add nothing (Git Sync and imports follow).
 * - `audience`: `public` and `mixed` keep the site public; `protected` and `internal` make it
 *   `unlisted` (kept out of search engines): visitor authentication is an Ultimate feature and
 *   the default site is Basic, so it is the most private visibility it can have.
 * - `interests` (adaptive content, API docs, GitBook's agent) tailor GitBook's recommendations:
 *   docsctl has none, so they change nothing.
 */
import { slugify } from '../../gitsync/slug.js';
import type { OrgRecord } from '../core-records.js';
import type { Prepared } from '../content/import.js';
import { commitTemplateSpace, prepareTemplateContent } from '../content/template-space.js';
import type { HandlerContext, PrepareContext } from '../handler.js';
import { reindexSite } from './origins.js';
import { type SiteRecord, orgSites, putSite } from './site-records.js';
import { DEFAULT_SITE_TEMPLATE } from './site-template.js';
import { attachSiteSpace, freePath, siteSpacePathTaken } from './structure.js';

export interface OnboardingPreferences {
  source: 'markdown-in-git' | 'import' | 'template' | null;
  audience: 'public' | 'mixed' | 'protected' | 'internal' | null;
  interests: string[];
}

/** The template's pages for a default site whose onboarding source is `template` (prepared outside the lock). */
export function prepareDefaultSiteContent(ctx: PrepareContext): Promise<Prepared> {
  // The organization does not exist yet: the default template names none of its objects.
  return prepareTemplateContent(ctx, ctx.reader, '', { id: DEFAULT_SITE_TEMPLATE });
}

export function createDefaultSite(ctx: HandlerContext, org: OrgRecord, now: string, preferences?: OnboardingPreferences, prepared?: Prepared): SiteRecord {
  const audience = preferences?.audience;
  const site: SiteRecord = {
    id: ctx.ids(),
    organization: org.id,
    type: 'basic',
    title: org.title.slice(0, 128),
    visibility: audience === 'protected' || audience === 'internal' ? 'unlisted' : 'public',
    published: false,
    createdAt: now,
    updatedAt: now,
    // A new organization has no other site: the basename is free.
    basename: slugify(org.title) || 'site',
    agentsContext: 'included',
  };
  putSite(ctx.tx, site);
  reindexSite(ctx.tx, undefined, site);
  orgSites.insert(ctx.tx, org.id, site.id, null);
  if (prepared !== undefined) {
    const space = commitTemplateSpace(ctx, org.id, site.title.slice(0, 50), prepared);
    attachSiteSpace(ctx.tx, { id: ctx.ids(), site: site.id, space: space.id, path: freePath(space.title, (p) => siteSpacePathTaken(ctx.tx, site.id, p)) });
  }
  return site;
}
