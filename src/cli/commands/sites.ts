/** `docsctl site …` (API doc §4.3–4.7 and the real API's publish/structure routes): declared with the routes (src/api/routes/sites.ts); what data cannot say, and the hand-written `site inspect` and `site preview`. */
import { type Command, Option } from 'commander';
import { UsageError } from '../../api/errors.js';
import { CHANNEL_SETTING, type SiteChannelType as ChannelType } from '../../api/site-channel-settings.js';
import type { RawInput } from '../../api/validate.js';
import type { Hooks } from '../derive.js';
import { readJsonFile } from '../json-file.js';
import type { FlagSpec } from '../operation.js';
import type { Session } from '../session.js';
import { printPublished, printSiteTree, readSiteTree, siteTreeQuery } from './site-tree.js';
import { webSite } from './web-targets.js';

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
  body(input).jsonSchema = readJsonFile(file, 'a draft-07 JSON Schema object');
}

/** `--file F`: the whole request body, a JSON object (customization settings or overrides). */
function readBodyFile(what: string) {
  return (options: Record<string, unknown>, input: RawInput): void => {
    const file = options.file as string | undefined;
    if (file === undefined) {
      if (input.body !== undefined) return; // --body JSON|@FILE
      throw new UsageError('Missing required flag --file', { hint: `pass --file FILE (a JSON object: ${what})` });
    }
    const parsed = readJsonFile(file, what);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new UsageError(`--file ${file} must hold a JSON object: ${what}`);
    input.body = { ...(input.body as object | undefined), ...parsed };
  };
}

/**
 * `--localized-title fr=Titre` (repeatable): the whole map of per-language texts, as the API takes it
 * (`none` removes them all). The API checks the languages and lengths (a 400 naming the field).
 */
function localizedFlag(flag: string, field: string): { flag: FlagSpec; build: (options: Record<string, unknown>, input: RawInput) => void } {
  const attribute = field;
  return {
    flag: { flags: `--${flag} <lang=text...>`, description: `${field === 'localizedTitle' ? 'title' : 'description'} per language, e.g. fr=… (repeat it; the whole set; "none" removes them)` },
    build: (options, input) => {
      const given = options[attribute] as string[] | undefined;
      if (given === undefined) return;
      const map: Record<string, string> = {};
      if (!(given.length === 1 && given[0] === 'none')) {
        for (const item of given) {
          const at = item.indexOf('=');
          if (at <= 0) throw new UsageError(`--${flag} expects LANG=TEXT (e.g. fr=Guide), got "${item}"`);
          map[item.slice(0, at)] = item.slice(at + 1);
        }
      }
      body(input)[field] = map;
    },
  };
}

const sectionTitles = localizedFlag('localized-title', 'localizedTitle');
const sectionDescriptions = localizedFlag('localized-description', 'localizedDescription');

/** Sections and external links take both per-language maps. */
function localizedTexts(options: Record<string, unknown>, input: RawInput): void {
  sectionTitles.build(options, input);
  sectionDescriptions.build(options, input);
}

/** Without a SPACE argument, `site section add`/`site space add` make a new space (`spaceId: null`). */
function newSpaceUnlessNamed(_options: Record<string, unknown>, input: RawInput): void {
  const fields = body(input);
  if (fields.spaceId === undefined) fields.spaceId = null;
}

const allowFlag: FlagSpec = {
  flags: '--allow <patterns>',
  description: 'where the agent may act, comma-separated: channels or team keys (support-*), or repositories (my-org/*) for GitHub; default: everywhere',
};
const patternsOf = (raw: unknown) =>
  String(raw)
    .split(',')
    .map((pattern) => pattern.trim())
    .filter(Boolean);

/**
 * The ad partner's calls carry its key from DOCSCTL_ADS_PARTNER_KEY (an environment variable, not a
 * flag: a flag would show the key in the process list); the transport sends it as X-GitBook-Partner-Key.
 */
function partnerKey(_options: Record<string, unknown>, input: RawInput, session: Session): void {
  const key = session.ctx.env.DOCSCTL_ADS_PARTNER_KEY;
  if (key === undefined || key === '') {
    throw new UsageError("Set DOCSCTL_ADS_PARTNER_KEY to the ad partner's key (it is sent as X-GitBook-Partner-Key)");
  }
  input.partnerKey = key;
}

export const hooks = {
  'ads site list': { build: partnerKey },
  'ads site update': { build: partnerKey },
  'ads partner-key set': {
    // Without --key, from the environment (the key stays out of the process list).
    build: (_options: Record<string, unknown>, input: RawInput, session: Session) => {
      const fields = body(input);
      if (fields.key !== undefined) return;
      const key = session.ctx.env.DOCSCTL_ADS_PARTNER_KEY;
      if (key === undefined || key === '') throw new UsageError('Pass --key, or set DOCSCTL_ADS_PARTNER_KEY');
      fields.key = key;
    },
  },
  'site section add': { build: newSpaceUnlessNamed },
  'site space add': { build: newSpaceUnlessNamed },
  'site section edit': {
    flags: [sectionTitles.flag, sectionDescriptions.flag],
    build: localizedTexts,
  },
  'site section-group edit': { flags: [sectionTitles.flag], build: sectionTitles.build },
  'site link add': { flags: [sectionTitles.flag, sectionDescriptions.flag], build: localizedTexts },
  'site link edit': { flags: [sectionTitles.flag, sectionDescriptions.flag], build: localizedTexts },
  'site get': { web: webSite },
  'site template': {
    // The operation answers no body: what it made is the site's one site space, read back and listed.
    request: async (transport, input) => {
      await transport.request('applyTemplateToSite', input);
      return transport.request('listSiteSpaces', { params: input.params ?? {}, query: {} });
    },
    async after(session, body) {
      const { columns } = await import('../../output/columns.js');
      await session.printList((body as { items?: unknown[] }).items ?? [], columns.siteSpace);
    },
  },
  'site publish': { unchanged: (site) => site.published === true && `site ${String(site.id)} is already published` },
  'site unpublish': { unchanged: (site) => site.published === false && `site ${String(site.id)} is not published` },
  'site published': {
    flags: [{ flags: '--rows', description: 'with --json/--yaml: print the rows of the table (section, variant, default, url) instead of the API answer' }],
    after: printPublished,
  },
  'site tree': {
    request: readSiteTree,
    resolve: async (session, input) => {
      input.query = siteTreeQuery(session);
    },
    after: printSiteTree,
  },
  'site section move': { flags: positionFlags, build: position((id) => ({ type: 'site-section', siteSection: id })) },
  'site section-group move': {
    flags: [
      { flags: '--before <kind:id>', description: 'place it before section:ID or group:ID' },
      { flags: '--after <kind:id>', description: 'place it after section:ID or group:ID' },
    ],
    build: position(groupPointer),
  },
  'site space move': { flags: positionFlags, build: position((id) => ({ type: 'site-space', siteSpace: id })) },
  'site share-link create': {
    build: (_options, input) => {
      body(input).name ??= '';
    },
  },
  'site share-link edit': {
    flags: [
      { flags: '--active', description: 'let the link open the site' },
      { flags: '--inactive', description: 'stop the link from opening the site' },
    ],
    build: (options, input) => {
      if (options.active && options.inactive) throw new UsageError('Pass --active or --inactive, not both');
      if (options.active) body(input).active = true;
      if (options.inactive) body(input).active = false;
    },
  },
  'site adaptive-schema set': { flags: [{ flags: '--file <file>', description: 'JSON file holding the schema (required)' }], build: readSchemaFile },
  'site customization get': {
    route: (options) => (typeof options.siteSpace === 'string' ? 'getSiteSpaceCustomizationById' : 'getSiteCustomizationById'),
  },
  'site customization set': {
    flags: [{ flags: '--file <file>', description: 'JSON file holding the settings' }],
    build: readBodyFile('the settings, as `site customization get --json` prints them'),
  },
  'site customization override': {
    flags: [{ flags: '--file <file>', description: 'JSON file holding the overrides, e.g. {"styling": {"theme": "bold"}}' }],
    build: readBodyFile('the overrides, e.g. {"styling": {"theme": "bold"}}'),
  },
  'site agent set': {
    flags: [
      { flags: '--scan-topics <when>', description: 'scan the topics of the site for findings: auto or never', to: 'body.scans.topics', choices: ['auto', 'never'] },
      {
        flags: '--change-requests <when>',
        description: 'open change requests that fix findings: always, auto-fixable or never',
        to: 'body.findings.changeRequests',
        choices: ['always', 'auto-fixable', 'never'],
      },
      { flags: '--instructions <text>', description: 'the editing agent\'s instructions for this site, as text (blank lines separate paragraphs; "" clears them)' },
      { flags: '--instructions-file <file>', description: 'the instructions from a file: plain text, or a JSON document ("-": stdin)' },
    ],
    build: async (options, input, session) => {
      const { instructionsOption } = await import('../agent-instructions.js');
      const document = await instructionsOption(session, options, { key: 'instructions', flag: '--instructions' }, { key: 'instructionsFile', flag: '--instructions-file' });
      const body = (input.body ??= {}) as Record<string, unknown>;
      if (document !== undefined) body.editing = { customInstructions: document };
      if (Object.keys(body).length === 0) throw new UsageError('Nothing to change: pass --scan-topics, --change-requests, --instructions or --instructions-file');
    },
    // The API replaces all three groups: what the command was not given keeps its current value.
    request: async (transport, input) => {
      const current = (await transport.request('getSiteAgentSettingsById', { params: input.params ?? {}, query: {} })).body as Record<string, unknown>;
      const given = input.body as Record<string, unknown>;
      const body = { scans: given.scans ?? current.scans, findings: given.findings ?? current.findings, editing: given.editing ?? current.editing };
      return transport.request('updateSiteAgentSettingsById', { ...input, body });
    },
  },
  'site channel add': {
    flags: [
      { flags: '--type <tool>', description: 'the tool: slack, linear, github or discord', choices: ['slack', 'linear', 'github', 'discord'], required: true },
      allowFlag,
      { flags: '--role <role>', description: 'support: answers from the docs (default); collaborator: may also open change requests', to: 'body.role', choices: ['collaborator', 'support'] },
    ],
    build: (options, input) => {
      const type = `builtin:${String(options.type)}` as ChannelType;
      const body = (input.body ??= {}) as Record<string, unknown>;
      body.type = type;
      body.setupSettings = options.allow === undefined ? {} : { [CHANNEL_SETTING[type]]: patternsOf(options.allow) };
    },
  },
  'site channel edit': {
    flags: [
      allowFlag,
      { flags: '--allow-all', description: 'empty the list: the agent may act everywhere in the tool' },
      { flags: '--role <role>', description: 'support or collaborator', to: 'body.role', choices: ['collaborator', 'support'] },
    ],
    build: (options, input) => {
      if (options.allow !== undefined && options.allowAll === true) throw new UsageError('Pass --allow or --allow-all, not both');
      const body = (input.body ??= {}) as Record<string, unknown>;
      // The list's key depends on the channel's type: the request hook reads the channel first.
      if (options.allow !== undefined) body.setupSettings = { patterns: patternsOf(options.allow) };
      else if (options.allowAll === true) body.setupSettings = { patterns: [] };
      if (Object.keys(body).length === 0) throw new UsageError('Nothing to change: pass --allow, --allow-all or --role');
    },
    // The API takes a setup as its type and settings together.
    request: async (transport, input) => {
      const body = { ...(input.body as Record<string, unknown>) };
      const given = body.setupSettings as { patterns: string[] } | undefined;
      if (given !== undefined) {
        const channel = (await transport.request('getSiteChannelById', { params: input.params ?? {}, query: {} })).body as { type: ChannelType };
        body.type = channel.type;
        body.setupSettings = { [CHANNEL_SETTING[channel.type]]: given.patterns };
      }
      return transport.request('updateSiteChannelById', { ...input, body });
    },
  },
} satisfies Hooks;

/** `site inspect [SITE]`: hand-written (an optional argument, prompts); its code loads only when run. */
export function registerSiteInspect(program: Command, getSession: (command: Command) => Session): void {
  const group = program.commands.find((c) => c.name() === 'site');
  if (!group) return;
  group
    .command('inspect')
    .description('Browse a site interactively: sections, variants, page trees, pages (prints `site tree` without a terminal)')
    .argument('[siteId]', 'site to open: id, title or hostname (picked from a list when absent)')
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
    .argument('<siteId>', 'site to preview: id, title or hostname')
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
      const { idOf } = await import('../operation.js');
      await runPreview(session, { kind: 'site', organizationId, siteId: await idOf(session, 'siteId', siteId, { organizationId }) }, options);
    });
}
