/**
 * The commands of each group, loaded by group (a command needs only its own group's):
 * the operation commands derived from the route table (src/cli/generated/<group>.ts,
 * written by the build; run by src/cli/operation.ts) and the hand-written multi-step
 * commands some groups add (`commandModules`, `moduleGroups`). `groupDescriptions`
 * names every group for help and suggestions without loading any.
 */
import type { Command } from 'commander';
import { derivedGroups } from '../generated/groups.js';
import type { OperationCommandSpec } from '../operation.js';
import type { Session } from '../session.js';

/** Every group's description, top-level groups in the order help lists them. */
export const groupDescriptions: Record<string, string> = {
  org: 'Organizations you belong to',
  system: 'The API server: version and build',
  user: 'Users',
  token: 'API tokens of the local store (printed once, stored as a hash)',
  member: 'Members of an organization',
  'invite-link': 'Invite links: secret links to join an organization with a role',
  font: 'Custom fonts of an organization',
  team: 'Teams of an organization',
  'team members': 'Members of a team (list, add, remove, sync from a file)',
  collection: 'Collections: groups of spaces inside an organization',
  space: 'Spaces: containers of documentation content',
  cr: 'Change requests: propose, review, merge content changes',
  page: 'Pages of a space or change request',
  file: 'Files (assets) of a space or change request',
  comment: 'Comments and replies on a space or change request',
  search: 'Search page titles and text',
  url: 'What a URL points to (app URLs of spaces, change requests, pages, collections), and how it embeds',
  document: "Documents: a page's body as GitBook's JSON document",
  reusable: 'Reusable contents: blocks pages include (Git Sync: .gitbook/includes/*.md)',
  site: 'Sites: publish spaces as documentation sites (sections, variants, share links)',
  'site section': 'Sections of a site (each shows one or more spaces as variants)',
  'site section-group': 'Groups of sections in a site',
  'site space': 'Site spaces: the spaces a site shows (variants of a section)',
  'site share-link': 'Secret links to a share-link site',
  'site adaptive-schema': 'Adaptive content schema (visitor claims) of a site',
  'site redirect': 'Redirects from paths of a site to its sections, site spaces or pages',
  'site mcp-server': 'MCP servers the assistant of a site may call',
  'site link': 'External links shown among the sections of a site',
  'site auth': 'Visitor authentication of a site: backend, URLs and signing key',
  'site agent': "A site's AI agent settings: topic scans, change requests for findings, the editing agent's instructions",
  'site channel': 'GitBook Agent channels of a site: the Slack, Linear, GitHub or Discord places where it answers or collaborates',
  'site context': 'Context sources of a site: connections to where GitBook learns what readers ask (tickets, discussions, records pushed through the API)',
  'site context-record': "Records a site's context connections brought in (pushed through its api connection)",
  'site insights': "Visitors' events on a site: track them, count them over time (views, searches, referrers, 404s), visitor segments",
  'site styleguide': "A site's writing style guide: the space GitBook's editing agent checks content against",
  'org agent-instructions': "The instructions the organization's Docs agent follows",
  'org conversation': "Conversations with the organization's Docs agent (provisioned by a client under its own id)",
  'site ads': "The ads program of a site: submit it, change its topic, disable live ads",
  ads: "The ad partner's side of the ads program (X-GitBook-Partner-Key from DOCSCTL_ADS_PARTNER_KEY)",
  'ads site': 'Sites submitted to the ads program: list them, accept or reject them',
  'ads partner-key': "The ad partner's key this store accepts",
  'site hostname': 'Custom hostnames serving sites',
  'custom-field': 'Custom fields: typed metadata an organization defines for its spaces',
  translation: 'Translations of an organization: settings, translations of spaces and their runs',
  'translation glossary': 'The glossary: a term in each language (what a translation run replaces)',
  sso: 'SAML single sign-on providers of an organization',
  openapi: 'OpenAPI specifications of an organization (and offline validation)',
  integration: 'Integrations: publish from a manifest, list, installations',
  audit: 'The audit log of an organization: who changed what, and when (admins)',
  storage: "Files uploaded to an organization's storage",
  styleguide: 'Writing style guides of an organization and the built-in templates to start one from',
};

type GetSession = (command: Command) => Session;

/** A module's commands: its specs, and hand-written commands it adds once the specs are registered. */
export interface CommandModule {
  /** `derived` for the commands derived from the route table (src/cli/generated/), else the hand-written module's name. */
  name?: string;
  specs: readonly OperationCommandSpec[];
  register?: (program: Command, getSession: GetSession) => void;
}

const subgroup = (program: Command, ...names: string[]): Command | undefined => {
  let command: Command | undefined = program;
  for (const name of names) command = command?.commands.find((c) => c.name() === name);
  return command;
};

const commandModules = {
  teams: async (): Promise<CommandModule> => {
    const { registerTeamSync } = await import('./team-sync.js');
    return {
      specs: [],
      register(program, getSession) {
        const members = subgroup(program, 'team', 'members');
        if (members) registerTeamSync(members, getSession);
      },
    };
  },
  // Loaded for `cr` only (its operation commands are derived): the conflict commands need the content model.
  'change-requests': async (): Promise<CommandModule> => {
    const [{ registerCrDiff }, { registerCrConflicts }, { registerCrResolve }] = await Promise.all([
      import('./change-requests.js'),
      import('./cr-conflicts.js'),
      import('./cr-resolve.js'),
    ]);
    return {
      specs: [],
      register(program, getSession) {
        const cr = subgroup(program, 'cr');
        if (!cr) return;
        registerCrDiff(cr, getSession);
        registerCrConflicts(cr, getSession);
        registerCrResolve(cr, getSession);
      },
    };
  },
  sites: async (): Promise<CommandModule> => {
    const { registerSiteInspect, registerSitePreview } = await import('./sites.js');
    return {
      specs: [],
      register(program, getSession) {
        registerSiteInspect(program, getSession);
        registerSitePreview(program, getSession);
      },
    };
  },
  openapi: async (): Promise<CommandModule> => {
    const { registerOpenApiValidate } = await import('./openapi-validate.js');
    return {
      specs: [],
      register(program, getSession) {
        const openapi = subgroup(program, 'openapi');
        if (openapi) registerOpenApiValidate(openapi, getSession);
      },
    };
  },
} satisfies Record<string, () => Promise<CommandModule>>;

export type CommandModuleName = keyof typeof commandModules;

/**
 * The top-level groups each module adds commands to, in registration order
 * (test/cli/command-groups.test.ts checks them against the modules' specs).
 */
export const moduleGroups: Record<CommandModuleName, readonly string[]> = {
  teams: ['team'],
  'change-requests': ['cr'],
  sites: ['site'],
  openapi: ['openapi'],
};

/** Every top-level group of the data-declared commands. */
export const commandGroups: ReadonlySet<string> = new Set(
  Object.keys(groupDescriptions).filter((group) => !group.includes(' ') && (group in derivedGroups || Object.values(moduleGroups).some((groups) => groups.includes(group)))),
);

/** Commands in help order: by top-level group as `groupDescriptions` lists them, then as declared. */
export function inGroupOrder(specs: readonly OperationCommandSpec[]): OperationCommandSpec[] {
  const order = [...commandGroups];
  const rank = (spec: OperationCommandSpec) => order.indexOf(spec.command.split(' ')[0] as string);
  return [...specs].sort((a, b) => rank(a) - rank(b));
}

/**
 * The modules of `group`'s commands (every module for undefined), loaded, in registration
 * order: the commands derived from the route table (src/cli/generated/) first.
 */
export async function loadCommandModules(group?: string): Promise<CommandModule[]> {
  const names = (Object.keys(moduleGroups) as CommandModuleName[]).filter((name) => group === undefined || moduleGroups[name].includes(group));
  const derived = Object.keys(derivedGroups).filter((name) => group === undefined || name === group);
  const specs = (await Promise.all(derived.map((name) => (derivedGroups[name] as () => Promise<readonly OperationCommandSpec[]>)()))).flat();
  const modules = await Promise.all(names.map((name) => commandModules[name]()));
  return specs.length ? [{ name: 'derived', specs }, ...modules] : modules;
}
