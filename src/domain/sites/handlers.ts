/**
 * Every handler of the sites area (API doc §4.3–4.7 and the real API's publish/structure routes).
 *
 * Sites
 *
 * `src/domain/sites/` implements API doc §4.3–4.7 plus publish/unpublish and the structure routes.
 * A site's shape is stored one row per item: `siteStructure` (an OrderedList owned by the site, or
 * by a section group, of sections and groups), `siteSpaceOrder` (the variants of a section, or the
 * site spaces at the root of a site without sections), `siteSpacesOfSite` (the site's site
 * spaces; the `siteSpaces` counter counts, at read, those whose space is not soft-deleted, so
 * deleting or restoring a space rewrites no site), `siteSpacesOfSpace` (which sites show a space: the `space` filter and
 * integrity), `siteShareLinks` and `siteShareKeys` (SHA-256 of the secret → link), `siteRedirects`,
 * `siteRedirectSources` and `siteMcpServers` (below). `structure.ts`
 * holds the tree rules (defaults handed on, cascades), `views.ts` the API objects and published
 * URLs, `features.ts` the plans, `adaptive.ts` the ajv checks, `integrity.ts` the hook that
 * `transferSpace` and `purgeSpace` call so no site keeps a space that left. `tree.ts` answers
 * `getSiteTree`, a docsctl extension (route `source: 'docsctl'`, path segment `x-docsctl`, in no
 * real OpenAPI document; `test/api/routes.test.ts` lists the extensions): the skeleton of
 * `siteStructureView` (`tree-shape.ts`, shared with the CLI, so both readers agree on which
 * variants show and their URLs) with each variant's pages projected straight from the stored
 * page objects (trie walk, no page body, no spec-shaped document). With `format=text` it answers
 * the text `site tree` prints instead (`tree-text.ts`, shared with the CLI's fallback, so every
 * way prints the same bytes), in parts (`TreeText`): the lines of groups, sections and variants,
 * and each variant's page lines as the pieces between its URL (`[pieces index, url]`). Variants
 * showing the same content share one pages array, hence one set of pieces, drawn and sent once.
 * The CLI makes each distinct part safe for a terminal (`sanitizeText`) and joins them
 * (`printSanitizedText`), rather than scanning megabytes of repeated lines; a client that only
 * prints the tree parses no page object (`--json`/`--yaml` ask for the tree; a server that
 * ignores `format` answers the tree, which the CLI draws). `serve` keeps either answer for the
 * store's generation (`AnswerCache` below). `site tree`
 * (`src/cli/commands/site-tree.ts`, via the command spec's `request` hook) reads it through the
 * transport; against a remote server answering 404/405/501 for it, it falls back to reading the
 * structure and each space's page tree through the real API, so it works against any /v1 server.
 * `site published` reads `getPublishedContentSite`.
 * 0.202's additions, each described at the top of its module: external links in the structure
 * (`external-links.ts`); visitor authentication, preview URLs, integration scripts and template
 * conditions (`publishing.ts`); custom hostnames (`hostnames.ts`); the index of where each site is
 * published (`origins.ts`), through which a published URL is resolved back to its content
 * (`published-urls.ts`); search over what a site publishes (`site-search.ts`); bulk redirect
 * writes (`redirects.ts`) and duplicated site spaces (`structure-handlers.ts`); the ads program
 * (`ads.ts`: the site admin's submission, the ad partner's lists and decisions, `ads-view.ts`); the
 * AI agent settings (`agent-settings.ts`, one row per site, defaults when absent); GitBook Agent
 * channels (`channels.ts`, a KeyedSet per site).
 * Customization (`customization.ts`): a site's `SiteCustomizationSettings` is one row
 * (`siteCustomizations`, absent: `DEFAULT_CUSTOMIZATIONS` of `published.ts`), a site space's overrides another
 * (`siteSpaceCustomizations`); both are checked with ajv against the real API's shapes, generated
 * into `customization-schema.ts` by `scripts/gen-customization-schema.mjs` (ajv loads in `prepare`,
 * only for these writes). Overrides merge by the override schema: groups of settings key by key,
 * values replaced, `null` removing one.
 * **Redirects** (`redirects.ts`): one row per redirect (`siteRedirects`, a KeyedSet per site) and one
 * row per source (`siteRedirectSources`, `${siteId}/${sha256(source)}` → id), so a duplicate source
 * (409) and a lookup by source (`getSiteRedirectBySource`) read one row. Sources are kept in RFC 3986
 * normal form (percent-encodings upper case, encoded unreserved characters decoded); `.`/`..`
 * segments and encoded control characters are refused beyond the real API's pattern. A destination
 * (section, site space, page of a site space's current content) is checked when written; resolving
 * answers its published URL, or a 404 naming it once it is gone. **MCP servers** (`mcp-servers.ts`,
 * a KeyedSet per site): URLs must be http(s) without credentials and are never fetched; headers are
 * checked (HTTP tokens, no client-set names, no control characters); all five routes need `admin`,
 * and a listing shows header names with hidden values (get by id shows them). Deleting a site
 * deletes both. In the fallback the page trees come from
 * `listPages?bodies=false` (docsctl's query option, ignored by other servers): the view leaves the
 * Markdown out and reads no page body object, and `pagesView` walks the pages trie once instead of
 * looking up each page. `site tree` prints as it reads: variants' page trees are read in tree
 * order (up to 8 ahead against a remote endpoint, one locally), each answer is turned into a small
 * tree at once and printed, so memory stays a few variants deep (`--json` builds the whole tree). `site inspect` (`site-inspect.ts`,
 * loaded only when run) walks the same reads with the injected prompter and renders pages with
 * `src/cli/terminal-markdown.ts`; tests drive it with a scripted prompter.
 */
import type { Handler } from '../handler.js';
import { adsHandlers } from './ads.js';
import { agentSettingsHandlers } from './agent-settings.js';
import { channelHandlers } from './channels.js';
import { customizationHandlers } from './customization.js';
import { externalLinkHandlers } from './external-links.js';
import { hostnameHandlers } from './hostnames.js';
import { publishedUrlHandlers } from './published-urls.js';
import { publishingHandlers } from './publishing.js';
import { siteSearchHandlers } from './site-search.js';
import { mcpServerHandlers } from './mcp-servers.js';
import { bulkRedirectHandlers, redirectHandlers } from './redirects.js';
import { shareLinkHandlers } from './share-links.js';
import { siteHandlers } from './site-handlers.js';
import { duplicateSiteSpaceHandlers, structureHandlers } from './structure-handlers.js';
import { siteTemplateHandlers } from './site-template.js';

export const sitesAreaHandlers: Record<string, Handler> = {
  ...siteHandlers,
  ...structureHandlers,
  ...shareLinkHandlers,
  ...customizationHandlers,
  ...redirectHandlers,
  ...mcpServerHandlers,
  ...externalLinkHandlers,
  ...publishingHandlers,
  ...hostnameHandlers,
  ...siteSearchHandlers,
  ...bulkRedirectHandlers,
  ...duplicateSiteSpaceHandlers,
  ...publishedUrlHandlers,
  ...siteTemplateHandlers,
  ...adsHandlers,
  ...agentSettingsHandlers,
  ...channelHandlers,
};
