/** `docsctl site …` (API doc §4.3–4.7 and the real API's publish/structure routes). */
import { readFileSync } from 'node:fs';
import { type Command, Option } from 'commander';
import { UsageError } from '../../api/errors.js';
import type { RawInput } from '../../api/validate.js';
import type { FlagSpec, OperationCommandSpec } from '../operation.js';
import type { Session } from '../session.js';
import { siteMcpServerCommands } from './site-mcp-servers.js';
import { siteRedirectCommands } from './site-redirects.js';
import { printPublished, printSiteTree, readSiteTree, siteTreeQuery } from './site-tree.js';
import { webSite } from './web-targets.js';

const SITE = { name: 'siteId', description: 'site id' };
const SECTION = { name: 'siteSectionId', description: 'site section id' };
const GROUP = { name: 'siteSectionGroupId', description: 'section group id' };
const SITE_SPACE = { name: 'siteSpaceId', description: 'site space id' };
const LINK = { name: 'shareLinkId', description: 'share link id' };

const VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth'] as const;
const TYPES = ['basic', 'premium', 'ultimate', 'sponsored', 'legacy-basic', 'legacy-premium'] as const;

const positionFlags: FlagSpec[] = [
  { flags: '--before <id>', description: 'place it before this sibling' },
  { flags: '--after <id>', description: 'place it after this sibling' },
];

function body(input: RawInput): Record<string, unknown> {
  input.body ??= {};
  return input.body as Record<string, unknown>;
}

/** `--before/--after ID` → `{position: {before|after: pointer(ID)}}` (neither: to the end). */
function position(pointer: (id: string, flag: string) => Record<string, unknown>) {
  return (options: Record<string, unknown>, input: RawInput): void => {
    const before = options.before as string | undefined;
    const after = options.after as string | undefined;
    if (before && after) throw new UsageError('Pass --before or --after, not both');
    if (before) body(input).position = { before: pointer(before, '--before') };
    else if (after) body(input).position = { after: pointer(after, '--after') };
    else body(input);
  };
}

/** A section group move names `section:ID` or `group:ID`. */
function groupPointer(value: string, flag: string) {
  const match = /^(section|group):(.+)$/.exec(value);
  if (!match) throw new UsageError(`${flag} expects section:ID or group:ID, got "${value}"`);
  return { type: match[1] === 'section' ? 'site-section' : 'site-section-group', id: match[2] };
}

function readSchemaFile(options: Record<string, unknown>, input: RawInput): void {
  const file = options.file as string | undefined;
  if (file === undefined) throw new UsageError('Missing required flag --file', { hint: 'pass --file schema.json (a draft-07 JSON Schema)' });
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`Cannot read --file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    body(input).jsonSchema = JSON.parse(text) as unknown;
  } catch {
    throw new UsageError(`--file ${file} is not JSON: it must hold a draft-07 JSON Schema object`);
  }
}

/** `--file F`: the whole request body, a JSON object (customization settings or overrides). */
function readBodyFile(what: string) {
  return (options: Record<string, unknown>, input: RawInput): void => {
    const file = options.file as string | undefined;
    if (file === undefined) {
      if (input.body !== undefined) return; // --body JSON|@FILE
      throw new UsageError('Missing required flag --file', { hint: `pass --file FILE (a JSON object: ${what})` });
    }
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new UsageError(`Cannot read --file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new UsageError(`--file ${file} is not JSON: it must hold ${what}`);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new UsageError(`--file ${file} must hold a JSON object: ${what}`);
    input.body = { ...(input.body as object | undefined), ...parsed };
  };
}

export const siteCommands: OperationCommandSpec[] = [
  // ─── Sites ───────────────────────────────────────────────────────────────
  {
    command: 'site list',
    route: 'listSites',
    summary: 'List the sites of an organization',
    aliases: ['ls'],
    org: true,
    flags: [
      { flags: '--space <spaceId>', description: 'only sites showing this space', to: 'query.space' },
      { flags: '--title <text>', description: 'only sites whose title contains this', to: 'query.title' },
      { flags: '--published <bool>', description: 'only published (true) or unpublished (false) sites', to: 'query.published', choices: ['true', 'false'] },
      { flags: '--type <type...>', description: 'only sites of these types (repeatable)', to: 'query.type' },
    ],
    output: 'list',
    columns: 'site',
    noun: 'site',
    examples: ['docsctl site list', 'docsctl site list --space sp4c3 --format ids', 'docsctl site list --type premium --type ultimate --published true'],
  },
  {
    command: 'site get',
    route: 'getSiteById',
    summary: 'Show a site',
    args: [SITE],
    org: true,
    output: 'object',
    columns: 'site',
    web: webSite,
    examples: ['docsctl site get s1t3', 'docsctl site get s1t3 --json | jq .urls.published'],
  },
  {
    command: 'site create',
    route: 'createSite',
    summary: 'Create a site (basic and public unless told otherwise)',
    org: true,
    flags: [
      { flags: '--title <title>', description: 'title (2 to 128 characters)', to: 'body.title', required: true },
      { flags: '--visibility <visibility>', description: 'who can read it once published', to: 'body.visibility', choices: VISIBILITIES },
      { flags: '--type <type>', description: 'plan of the site (decides its features)', to: 'body.type', choices: TYPES },
      { flags: '--space <spaceId...>', description: 'spaces to show at its root (repeatable)', to: 'body.spaces' },
    ],
    output: 'object',
    columns: 'site',
    examples: ['docsctl site create --title "Help Center" --type premium --space sp4c3', 'id=$(docsctl site create --title Docs --format ids)'],
  },
  {
    command: 'site edit',
    route: 'updateSiteById',
    summary: 'Change the title, visibility, basename, defaults, proxy or adaptive content of a site',
    args: [SITE],
    org: true,
    flags: [
      { flags: '--title <title>', description: 'new title', to: 'body.title' },
      { flags: '--visibility <visibility>', description: 'new visibility', to: 'body.visibility', choices: VISIBILITIES },
      { flags: '--basename <name>', description: 'last part of the published URL', to: 'body.basename' },
      { flags: '--adaptive-content <enabled>', description: 'adaptive content on or off', to: 'body.adaptiveContent.enabled', type: 'boolean', choices: ['true', 'false'] },
      { flags: '--agents-context <mode>', description: 'include the site in AI agents context', to: 'body.agentsContext', choices: ['included', 'excluded'] },
      { flags: '--default-section <sectionId>', description: 'section visitors land on', to: 'body.defaultSiteSection' },
      { flags: '--default-site-space <siteSpaceId>', description: 'variant visitors land on (root or default section)', to: 'body.defaultSiteSpace' },
      { flags: '--proxy <origin>', description: 'serve under host/path (e.g. acme.com/docs; "none" removes it)', to: 'body.proxy', noneIsNull: true },
    ],
    nonEmptyBody: 'Nothing to change: pass --title, --visibility, --basename, --adaptive-content, --agents-context, --default-section, --default-site-space or --proxy',
    output: 'object',
    columns: 'site',
    examples: ['docsctl site edit s1t3 --title "Help Center" --visibility unlisted'],
  },
  {
    command: 'site delete',
    route: 'deleteSiteById',
    summary: 'Delete a site with its sections, site spaces and share links (the spaces stay)',
    aliases: ['rm'],
    args: [SITE],
    org: true,
    confirm: (input) => `Delete site ${input.params?.siteId}?`,
    output: 'delete',
    columns: 'site',
    noun: 'site',
    examples: ['docsctl site delete s1t3 --yes'],
  },
  {
    command: 'site publish',
    route: 'publishSite',
    summary: 'Publish a site',
    args: [SITE],
    org: true,
    unchanged: (site) => site.published === true && `site ${String(site.id)} is already published`,
    output: 'object',
    columns: 'site',
    examples: ['docsctl site publish s1t3'],
  },
  {
    command: 'site unpublish',
    route: 'unpublishSite',
    summary: 'Unpublish a site',
    args: [SITE],
    org: true,
    unchanged: (site) => site.published === false && `site ${String(site.id)} is not published`,
    output: 'object',
    columns: 'site',
    examples: ['docsctl site unpublish s1t3'],
  },
  {
    command: 'site published',
    route: 'getPublishedContentSite',
    summary: 'Show what a site publishes: every section and variant with its URL (--json: the API answer; --rows --json: the rows of the table)',
    args: [SITE],
    org: true,
    flags: [
      { flags: '--share-key <key>', description: 'open a share-link site with this key', to: 'query.shareKey' },
      { flags: '--rows', description: 'with --json/--yaml: print the rows of the table (section, variant, default, url) instead of the API answer' },
    ],
    output: 'object',
    columns: 'publishedItem',
    after: printPublished,
    examples: [
      'docsctl site published s1t3',
      'docsctl site published s1t3 --json | jq .structure',
      'docsctl site published s1t3 --rows --json | jq -r ".[] | select(.default) | .url"',
    ],
  },
  {
    command: 'site tree',
    route: 'getSiteTree',
    request: readSiteTree,
    resolve: async (session, input) => {
      input.query = siteTreeQuery(session);
    },
    summary: 'Print the structure of a site: groups, sections, variants and their page trees with URLs',
    args: [SITE],
    org: true,
    output: 'object',
    columns: 'publishedItem',
    after: printSiteTree,
    examples: ['docsctl site tree s1t3', 'docsctl site tree s1t3 --json | jq ".[0]"'],
  },

  // ─── Sections ────────────────────────────────────────────────────────────
  {
    command: 'site section list',
    route: 'listSiteSections',
    summary: 'List the sections of a site',
    aliases: ['ls'],
    args: [SITE],
    org: true,
    output: 'list',
    columns: 'siteSection',
    noun: 'section',
    examples: ['docsctl site section list s1t3'],
  },
  {
    command: 'site section add',
    route: 'addSectionToSite',
    summary: 'Add a space to a site as a new section (the first section is the default)',
    args: [SITE, { name: 'spaceId', description: 'space shown by the section' }],
    org: true,
    flags: [
      { flags: '--title <title>', description: 'section title (default: the space title)', to: 'body.title' },
      { flags: '--icon <icon>', description: 'icon name', to: 'body.icon' },
      { flags: '--draft', description: 'add it as a draft: not published until made live (edit --no-draft)', to: 'body.draft', type: 'boolean' },
    ],
    build: (_options, input) => {
      const params = input.params as Record<string, string>;
      body(input).spaceId = params.spaceId;
      delete params.spaceId;
    },
    output: 'object',
    columns: 'siteSection',
    examples: ['docsctl site section add s1t3 sp4c3 --title "API reference"'],
  },
  {
    command: 'site section edit',
    route: 'updateSiteSectionById',
    summary: 'Change the title, path, default variant, condition, icon or description of a section',
    args: [SITE, SECTION],
    org: true,
    flags: [
      { flags: '--title <title>', description: 'new title', to: 'body.title' },
      { flags: '--path <url-path>', description: 'URL path (unique in the site)', to: 'body.path' },
      { flags: '--default-site-space <siteSpaceId>', description: 'default variant', to: 'body.defaultSiteSpace' },
      { flags: '--condition <expression>', description: 'visibility condition ("none" removes it)', to: 'body.condition', noneIsNull: true },
      { flags: '--icon <icon>', description: 'icon name ("none" removes it)', to: 'body.icon', noneIsNull: true },
      { flags: '--description <text>', description: 'description ("none" removes it)', to: 'body.description', noneIsNull: true },
      { flags: '--draft', description: 'make it a draft: left out of the published site', to: 'body.draft', type: 'boolean' },
      { flags: '--no-draft', description: 'make a draft live: published with the site', to: 'body.draft', type: 'boolean' },
    ],
    nonEmptyBody: 'Nothing to change: pass --title, --path, --default-site-space, --condition, --icon, --description or --draft/--no-draft',
    output: 'object',
    columns: 'siteSection',
    examples: ['docsctl site section edit s1t3 s3ct --path api --icon code'],
  },
  {
    command: 'site section move',
    route: 'moveSiteSection',
    summary: 'Move a section before or after another one (to the end without a position)',
    args: [SITE, SECTION],
    org: true,
    flags: positionFlags,
    build: position((id) => ({ type: 'site-section', siteSection: id })),
    output: 'object',
    columns: 'siteSection',
    examples: ['docsctl site section move s1t3 s3ct --before 0th3r'],
  },
  {
    command: 'site section remove',
    route: 'deleteSiteSectionById',
    summary: 'Remove a section and its variants from a site (the spaces stay)',
    aliases: ['rm'],
    args: [SITE, SECTION],
    org: true,
    confirm: (input) => `Remove section ${input.params?.siteSectionId} from site ${input.params?.siteId}?`,
    output: 'delete',
    columns: 'siteSection',
    noun: 'section',
    examples: ['docsctl site section remove s1t3 s3ct --yes'],
  },

  // ─── Section groups ──────────────────────────────────────────────────────
  {
    command: 'site section-group list',
    route: 'listSiteSectionGroups',
    summary: 'List the section groups of a site',
    aliases: ['ls'],
    args: [SITE],
    org: true,
    output: 'list',
    columns: 'siteSectionGroup',
    noun: 'section group',
    examples: ['docsctl site section-group list s1t3'],
  },
  {
    command: 'site section-group add',
    route: 'addSectionGroupToSite',
    summary: 'Add a section group (optionally with sections, or nested in another group)',
    args: [SITE],
    org: true,
    flags: [
      { flags: '--title <title>', description: 'title (1 to 100 characters)', to: 'body.title', required: true },
      { flags: '--section <sectionId...>', description: 'sections to put in it, in order (repeatable)', to: 'body.sections' },
      { flags: '--icon <icon>', description: 'icon name', to: 'body.icon' },
      { flags: '--parent <groupId>', description: 'nest it in this group', to: 'body.parent' },
      { flags: '--draft', description: 'add it as a draft: not published until made live (edit --no-draft)', to: 'body.draft', type: 'boolean' },
    ],
    output: 'object',
    columns: 'siteSectionGroup',
    examples: ['docsctl site section-group add s1t3 --title Products --section s3ct1 --section s3ct2'],
  },
  {
    command: 'site section-group edit',
    route: 'updateSiteSectionGroupById',
    summary: 'Change the title or icon of a section group',
    args: [SITE, GROUP],
    org: true,
    flags: [
      { flags: '--title <title>', description: 'new title', to: 'body.title' },
      { flags: '--icon <icon>', description: 'icon name ("none" removes it)', to: 'body.icon', noneIsNull: true },
      { flags: '--draft', description: 'make it a draft: left out of the published site', to: 'body.draft', type: 'boolean' },
      { flags: '--no-draft', description: 'make a draft live: published with the site', to: 'body.draft', type: 'boolean' },
    ],
    nonEmptyBody: 'Nothing to change: pass --title, --icon or --draft/--no-draft',
    output: 'object',
    columns: 'siteSectionGroup',
    examples: ['docsctl site section-group edit s1t3 gr0up --title Guides'],
  },
  {
    command: 'site section-group move',
    route: 'moveSiteSectionGroup',
    summary: 'Move a section group next to a section or group (to the end without a position)',
    args: [SITE, GROUP],
    org: true,
    flags: [
      { flags: '--before <kind:id>', description: 'place it before section:ID or group:ID' },
      { flags: '--after <kind:id>', description: 'place it after section:ID or group:ID' },
    ],
    build: position(groupPointer),
    output: 'object',
    columns: 'siteSectionGroup',
    examples: ['docsctl site section-group move s1t3 gr0up --before section:s3ct'],
  },
  {
    command: 'site section-group remove',
    route: 'deleteSiteSectionGroupById',
    summary: 'Remove a section group (its sections go back to the top level)',
    aliases: ['rm'],
    args: [SITE, GROUP],
    org: true,
    confirm: (input) => `Remove section group ${input.params?.siteSectionGroupId}?`,
    output: 'delete',
    columns: 'siteSectionGroup',
    noun: 'section group',
    examples: ['docsctl site section-group remove s1t3 gr0up --yes'],
  },
  {
    command: 'site section-group add-section',
    route: 'addSectionToGroup',
    summary: 'Put a section into a section group',
    args: [SITE, GROUP, { name: 'sectionId', description: 'site section id' }],
    org: true,
    build: (_options, input) => {
      const params = input.params as Record<string, string>;
      body(input).sectionId = params.sectionId;
      delete params.sectionId;
    },
    output: 'object',
    columns: 'siteSectionGroup',
    examples: ['docsctl site section-group add-section s1t3 gr0up s3ct'],
  },
  {
    command: 'site section-group remove-section',
    route: 'removeSectionFromGroup',
    summary: 'Take a section out of a section group (back to the top level)',
    args: [SITE, GROUP, SECTION],
    org: true,
    output: 'delete',
    columns: 'siteSection',
    noun: 'section in that group',
    examples: ['docsctl site section-group remove-section s1t3 gr0up s3ct'],
  },

  // ─── Site spaces ─────────────────────────────────────────────────────────
  {
    command: 'site space list',
    route: 'listSiteSpaces',
    summary: 'List the site spaces (variants) of a site',
    aliases: ['ls'],
    args: [SITE],
    org: true,
    flags: [{ flags: '--default <bool>', description: 'only default (true) or other (false) variants', to: 'query.default', choices: ['true', 'false'] }],
    output: 'list',
    columns: 'siteSpace',
    noun: 'site space',
    examples: ['docsctl site space list s1t3'],
  },
  {
    command: 'site space add',
    route: 'addSpaceToSite',
    summary: 'Add a space to a site (a variant of a section, or at the root)',
    args: [SITE, { name: 'spaceId', description: 'space id' }],
    org: true,
    flags: [
      { flags: '--section <sectionId>', description: 'section to add it to (default: the default section)', to: 'body.sectionId' },
      { flags: '--draft', description: 'add it as a draft: not published until made live (edit --no-draft)', to: 'body.draft', type: 'boolean' },
    ],
    build: (_options, input) => {
      const params = input.params as Record<string, string>;
      body(input).spaceId = params.spaceId;
      delete params.spaceId;
    },
    output: 'object',
    columns: 'siteSpace',
    examples: ['docsctl site space add s1t3 sp4c3 --section s3ct'],
  },
  {
    command: 'site space edit',
    route: 'updateSiteSpaceById',
    summary: 'Change the path, condition or space of a site space',
    args: [SITE, SITE_SPACE],
    org: true,
    flags: [
      { flags: '--path <url-path>', description: 'URL path (unique in its section)', to: 'body.path' },
      { flags: '--condition <expression>', description: 'visibility condition ("none" removes it)', to: 'body.condition', noneIsNull: true },
      { flags: '--space <spaceId>', description: 'show this space instead', to: 'body.spaceId' },
      { flags: '--draft', description: 'make it a draft: left out of the published site', to: 'body.draft', type: 'boolean' },
      { flags: '--no-draft', description: 'make a draft live: published with the site', to: 'body.draft', type: 'boolean' },
    ],
    nonEmptyBody: 'Nothing to change: pass --path, --condition, --space or --draft/--no-draft',
    output: 'object',
    columns: 'siteSpace',
    examples: ['docsctl site space edit s1t3 v4r --path v2'],
  },
  {
    command: 'site space move',
    route: 'moveSiteSpace',
    summary: 'Move a variant before or after another of its section (to the end without a position)',
    args: [SITE, SITE_SPACE],
    org: true,
    flags: positionFlags,
    build: position((id) => ({ type: 'site-space', siteSpace: id })),
    output: 'object',
    columns: 'siteSpace',
    examples: ['docsctl site space move s1t3 v4r --before v0'],
  },
  {
    command: 'site space remove',
    route: 'deleteSiteSpaceById',
    summary: 'Remove a space from a site (the space stays)',
    aliases: ['rm'],
    args: [SITE, SITE_SPACE],
    org: true,
    confirm: (input) => `Remove site space ${input.params?.siteSpaceId} from site ${input.params?.siteId}?`,
    output: 'delete',
    columns: 'siteSpace',
    noun: 'site space',
    examples: ['docsctl site space remove s1t3 v4r --yes'],
  },

  // ─── Share links ─────────────────────────────────────────────────────────
  {
    command: 'site share-link list',
    route: 'listSiteShareLinks',
    summary: 'List the share links of a site (their secret URLs are shown only at creation)',
    aliases: ['ls'],
    args: [SITE],
    org: true,
    output: 'list',
    columns: 'shareLink',
    noun: 'share link',
    examples: ['docsctl site share-link list s1t3'],
  },
  {
    command: 'site share-link create',
    route: 'createSiteShareLink',
    summary: 'Create a share link; prints its secret URL once',
    args: [SITE],
    org: true,
    flags: [{ flags: '--name <name>', description: 'name (max 50 characters)', to: 'body.name' }],
    build: (_options, input) => {
      body(input).name ??= '';
    },
    output: 'object',
    columns: 'shareLink',
    examples: ['docsctl site share-link create s1t3 --name Partners', 'url=$(docsctl site share-link create s1t3 --json | jq -r .urls.published)'],
  },
  {
    command: 'site share-link edit',
    route: 'updateSiteShareLinkById',
    summary: 'Rename, activate or deactivate a share link',
    args: [SITE, LINK],
    org: true,
    flags: [
      { flags: '--name <name>', description: 'new name', to: 'body.name' },
      { flags: '--active', description: 'let the link open the site' },
      { flags: '--inactive', description: 'stop the link from opening the site' },
    ],
    build: (options, input) => {
      if (options.active && options.inactive) throw new UsageError('Pass --active or --inactive, not both');
      if (options.active) body(input).active = true;
      if (options.inactive) body(input).active = false;
    },
    nonEmptyBody: 'Nothing to change: pass --name, --active or --inactive',
    output: 'object',
    columns: 'shareLink',
    examples: ['docsctl site share-link edit s1t3 l1nk --inactive'],
  },
  {
    command: 'site share-link delete',
    route: 'deleteSiteShareLinkById',
    summary: 'Delete a share link',
    aliases: ['rm'],
    args: [SITE, LINK],
    org: true,
    confirm: (input) => `Delete share link ${input.params?.shareLinkId}?`,
    output: 'delete',
    columns: 'shareLink',
    noun: 'share link',
    examples: ['docsctl site share-link delete s1t3 l1nk --yes'],
  },

  // ─── Adaptive schema ─────────────────────────────────────────────────────
  {
    command: 'site adaptive-schema get',
    route: 'getSiteAdaptiveSchema',
    summary: 'Show the adaptive content schema of a site',
    args: [SITE],
    org: true,
    output: 'object',
    columns: 'adaptiveSchema',
    examples: ['docsctl site adaptive-schema get s1t3 --json | jq .jsonSchema'],
  },
  {
    command: 'site adaptive-schema set',
    route: 'updateSiteAdaptiveSchema',
    summary: 'Set the adaptive content schema of a site from a draft-07 JSON Schema file',
    args: [SITE],
    org: true,
    flags: [{ flags: '--file <file>', description: 'JSON file holding the schema (required)' }],
    build: readSchemaFile,
    output: 'object',
    columns: 'adaptiveSchema',
    examples: ['docsctl site adaptive-schema set s1t3 --file claims.json'],
  },

  // ─── Customization ───────────────────────────────────────────────────────
  {
    command: 'site customization get',
    route: (options) => (typeof options.siteSpace === 'string' ? 'getSiteSpaceCustomizationById' : 'getSiteCustomizationById'),
    summary: "Show the customization settings of a site (or of one site space, the site's with its overrides)",
    args: [SITE],
    org: true,
    flags: [{ flags: '--site-space <siteSpaceId>', description: 'the settings one site space shows', to: 'params.siteSpaceId' }],
    output: 'object',
    columns: 'customization',
    examples: ['docsctl site customization get s1t3', 'docsctl site customization get s1t3 --site-space v4r --json | jq .styling'],
  },
  {
    command: 'site customization set',
    route: 'updateSiteCustomizationById',
    summary: 'Replace the customization settings of a site with a JSON file (every group, as `get --json` prints them)',
    args: [SITE],
    org: true,
    flags: [{ flags: '--file <file>', description: 'JSON file holding the settings' }],
    build: readBodyFile('the settings, as `site customization get --json` prints them'),
    output: 'object',
    columns: 'customization',
    examples: ['docsctl site customization get s1t3 --json > look.json && docsctl site customization set s1t3 --file look.json'],
  },
  {
    command: 'site customization override',
    route: 'overrideSiteSpaceCustomizationById',
    summary: "Override some of the site's customization settings for one site space (null resets an override)",
    args: [SITE, SITE_SPACE],
    org: true,
    flags: [{ flags: '--file <file>', description: 'JSON file holding the overrides, e.g. {"styling": {"theme": "bold"}}' }],
    build: readBodyFile('the overrides, e.g. {"styling": {"theme": "bold"}}'),
    output: 'object',
    columns: 'customization',
    examples: ['docsctl site customization override s1t3 v4r --file dark.json', 'docsctl site customization override s1t3 v4r --body \'{"styling":{"theme":null}}\''],
  },
  {
    command: 'site customization reset',
    route: 'deleteSiteSpaceCustomizationById',
    summary: "Remove every customization override of a site space (it shows the site's settings again)",
    args: [SITE, SITE_SPACE],
    org: true,
    confirm: (input) => `Remove the customization overrides of site space ${input.params?.siteSpaceId}?`,
    output: 'delete',
    columns: 'customization',
    noun: 'customization override',
    examples: ['docsctl site customization reset s1t3 v4r --yes'],
  },
  ...siteRedirectCommands,
  ...siteMcpServerCommands,
];

/** `site inspect [SITE]`: hand-written (an optional argument, prompts); its code loads only when run. */
export function registerSiteInspect(program: Command, getSession: (command: Command) => Session): void {
  const group = program.commands.find((c) => c.name() === 'site');
  if (!group) return;
  group
    .command('inspect')
    .description('Browse a site interactively: sections, variants, page trees, pages (prints `site tree` without a terminal)')
    .argument('[siteId]', 'site to open (picked from a list when absent)')
    .addOption(new Option('--org <organizationId>', 'organization (default: DOCSCTL_ORG, the profile, or your only one)'))
    .addHelpText(
      'after',
      '\nEvery step offers Back and Quit; Ctrl-C leaves (exit 130). Long pages open in $PAGER (else less -R).\n\nExamples:\n  $ docsctl site inspect\n  $ docsctl site inspect s1t3\n  $ docsctl site inspect s1t3 --no-input    # prints the tree\n',
    )
    .action(async (siteId: string | undefined, options: Record<string, unknown>, command: Command) => {
      const { runSiteInspect } = await import('./site-inspect.js');
      await runSiteInspect(getSession(command), siteId, options);
    });
}

/** `site preview SITE`: hand-written (a server or a static copy); its code (src/preview/) loads only when run. */
export function registerSitePreview(program: Command, getSession: (command: Command) => Session): void {
  const site = program.commands.find((c) => c.name() === 'site');
  if (!site) return;
  site
    .command('preview')
    .description('Preview a site in a browser: served on 127.0.0.1 with live reload, or written as static files (--out)')
    .argument('<siteId>', 'site to preview')
    .addOption(new Option('--org <organizationId>', 'organization (default: DOCSCTL_ORG, the profile, or your only one)'))
    .option('--port <port>', 'port on 127.0.0.1 (0 = any free port)', '4001')
    .option('--change-request <changeRequest>', "show this change request's content (id or number) in its space, before it is merged")
    .option('--out <dir>', 'write a static copy to DIR (a CI artifact) instead of serving it')
    .option('--open', 'open the preview in the browser')
    .addHelpText(
      'after',
      `
Sections and variants are the navigation, each space's page tree the sidebar; pages are rendered
from their Markdown with GitBook's blocks (hints, tabs, code, files, page links). The search box
uses docsctl's search. A served preview reloads when the content changes: locally on every
change of the store, remotely by polling while a browser has it open. It reads only /v1
operations, so it works the same against any server. Page content is sanitized and runs no
script.

Examples:
  $ docsctl site preview s1t3                       # http://127.0.0.1:4001/
  $ docsctl site preview s1t3 --port 0 --open
  $ docsctl site preview s1t3 --change-request 12   # the change request's pages
  $ docsctl site preview s1t3 --out preview/        # static files for a CI artifact
`,
    )
    .action(async (siteId: string, options: { org?: string; port?: string; changeRequest?: string; out?: string; open?: boolean }, command: Command) => {
      const [{ runPreview }, { resolveOrganization }] = await Promise.all([import('./site-preview.js'), import('../operation.js')]);
      const session = getSession(command);
      const organizationId = await resolveOrganization(session, options.org);
      await runPreview(session, { kind: 'site', organizationId, siteId }, options);
    });
}
