/**
 * The organization file of `docsctl apply -f` / `diff -f` / `export org`: one list per kind,
 * the API's own field names, objects named by title (collections nested; a space's `parent`
 * and a site section's `space` are title paths such as `Engineering/Handbook`), `id:` pinning
 * one object. Every object is strict: an unknown key is an error naming it (parse.ts adds the
 * line and a "did you mean"). `apply --schema` prints this as JSON Schema for editors.
 *
 * The enums come from the route declarations (src/api/schemas/common.ts), so the file accepts
 * exactly what the API does.
 */
import * as z from 'zod';
import {
  ContentVisibility,
  CustomFieldType,
  DefaultLevel,
  Emoji,
  MemberRole,
  SiteType,
  SiteVisibility,
  SpaceEditMode,
  TeamMemberRole,
  TranslationLanguage,
} from '../api/schemas/common.js';
import { ChannelPattern, RepositoryPattern, SiteChannelRole, SiteChannelType, SiteFindingChangeRequests, SiteScanTopics } from '../api/schemas/site-agents.js';

const Title = z.string().min(1).max(128);
const Id = z.string().min(1).max(100).describe('pins the object: matched by id, so a changed title is a rename');
/** A title path: titles joined by `/` (`Engineering/Handbook/Onboarding`). */
const TitlePath = z.string().min(1).max(1000).describe('title path: collection titles and the title, joined by /');

/** An organization role, or `guest` (the API's null). */
export const FileMemberRole = z.enum([...MemberRole.options, 'guest']);

const Member = z.strictObject({
  email: z.email().max(320),
  role: FileMemberRole.optional().describe('omitted: a new member gets the API default, an existing one keeps theirs'),
});

/** A role granted on a space, collection or site, to a member (by e-mail) or a team (by title). */
const Permission = z.union([
  z.strictObject({ user: z.email().max(320).describe('a member of the organization, by e-mail'), role: MemberRole }),
  z.strictObject({ team: z.string().min(1).max(100).describe('a team, by title'), role: MemberRole }),
]);
const Permissions = z
  .array(Permission)
  .optional()
  .describe('roles granted on this object (grants the file leaves out are removed only with --prune)');

export interface FileCollection {
  id?: string | undefined;
  title: string;
  description?: string | undefined;
  defaultLevel?: z.infer<typeof DefaultLevel> | undefined;
  collections?: FileCollection[] | undefined;
  permissions?: FilePermission[] | undefined;
}

const Collection: z.ZodType<FileCollection> = z.lazy(() =>
  z.strictObject({
    id: Id.optional(),
    title: z.string().min(1).max(50),
    description: z.string().max(100).optional(),
    defaultLevel: DefaultLevel.optional(),
    collections: z.array(Collection).optional(),
    permissions: Permissions,
  }),
);

const CustomFieldValue = z.union([z.string().max(256), z.number(), z.boolean(), z.array(z.string().max(256))]).nullable();

/** Where a space's content comes from: a repository in GitBook's Git Sync layout, imported by apply. */
const GitSource = z.strictObject({
  url: z.string().min(1).max(2000).describe('repository URL (https://, ssh://, git@host:path, file://) or a local path'),
  ref: z.string().min(1).max(255).optional().describe('branch (main), full ref (refs/heads/main, refs/tags/v1) or HEAD (default)'),
  dir: z.string().min(1).max(500).optional().describe('project directory inside the repository (a monorepo)'),
});

const Space = z.strictObject({
  id: Id.optional(),
  title: z.string().min(1).max(50),
  emoji: Emoji.optional(),
  visibility: ContentVisibility.optional().describe('follows the parent: in-collection inside a collection, private at the top'),
  defaultLevel: DefaultLevel.optional(),
  editMode: SpaceEditMode.optional(),
  language: z.string().min(2).max(10).optional(),
  parent: TitlePath.nullable().optional(),
  customFields: z.record(z.string(), CustomFieldValue).optional(),
  git: GitSource.optional().describe("content imported from Git when the space is created or its source changes (the organization file does not hold content)"),
  permissions: Permissions,
});

const TeamMember = z.union([z.email().max(320), z.strictObject({ email: z.email().max(320), role: TeamMemberRole.default('member') })]);

const Team = z.strictObject({
  id: Id.optional(),
  title: z.string().min(1).max(100),
  members: z.array(TeamMember).optional(),
});

const CustomField = z.strictObject({
  name: z
    .string()
    .min(1)
    .max(50)
    .regex(/^[a-z_\-0-9]+$/, 'must contain only lowercase letters, digits, "_" and "-"'),
  type: CustomFieldType,
  title: z.string().max(100).optional(),
  description: z.string().max(200).optional(),
  placeholder: z.string().max(100).optional(),
  options: z.array(z.string().min(1).max(40)).min(1).max(50).optional(),
});

const SiteSection = z.strictObject({
  id: Id.optional(),
  title: z.string().min(1).max(100),
  space: TitlePath,
  path: z.string().min(1).max(100).optional(),
  draft: z.boolean().optional(),
});

export interface FileSectionGroup {
  id?: string | undefined;
  title: string;
  icon?: string | undefined;
  draft?: boolean | undefined;
  sections?: Array<z.infer<typeof SiteSection>> | undefined;
  sectionGroups?: FileSectionGroup[] | undefined;
}

/** A group of sections in a site's navigation: the sections it holds, and groups nested in it. */
const SectionGroup: z.ZodType<FileSectionGroup> = z.lazy(() =>
  z.strictObject({
    id: Id.optional(),
    title: z.string().min(1).max(100),
    icon: z.string().min(1).max(50).optional(),
    draft: z.boolean().optional(),
    sections: z.array(SiteSection).optional(),
    sectionGroups: z.array(SectionGroup).optional(),
  }),
);

const SiteSpace = z.strictObject({
  space: TitlePath,
  path: z.string().min(1).max(100).optional(),
});

const ShareLink = z.strictObject({ name: z.string().min(1).max(50) });

/** Where a redirect leads, named as the rest of the file names things. */
const RedirectDestination = z.union([
  z.strictObject({ section: z.string().min(1).describe('a section title of the site') }),
  z.strictObject({ space: TitlePath.describe('the title path of a space the site shows') }),
]);

const Redirect = z.strictObject({
  source: z.string().min(1).max(512),
  destination: RedirectDestination,
  permanent: z.boolean().optional(),
  captureWildcard: z.boolean().optional(),
  draft: z.boolean().optional(),
});

/** Instructions for an AI agent: plain text (paragraphs between blank lines), or a JSON document as the API takes it. */
const AgentInstructions = z.union([
  z.string().max(100_000),
  z.strictObject({ object: z.literal('document'), data: z.record(z.string(), z.unknown()).optional(), nodes: z.array(z.unknown()).max(10_000) }),
]);

/** A site's AI agent settings (the API's groups; a group the file leaves out keeps its current value). */
const SiteAgentSettings = z.strictObject({
  scans: z.strictObject({ topics: SiteScanTopics }).optional(),
  findings: z.strictObject({ changeRequests: SiteFindingChangeRequests }).optional(),
  editing: z
    .strictObject({ customInstructions: AgentInstructions.describe("the editing agent's instructions for the site: plain text or a JSON document") })
    .optional(),
});

/** A GitBook Agent channel of a site: one tool, the patterns it may act in, the agent's role there. */
const SiteChannel = z.strictObject({
  id: Id.optional(),
  type: SiteChannelType,
  role: SiteChannelRole.optional().describe('support: answers from the docs (the API default); collaborator: may open change requests'),
  setupSettings: z
    .strictObject({
      allowedChannels: z.array(ChannelPattern).max(100).optional().describe('Slack or Discord channels (empty: all)'),
      allowedTeams: z.array(ChannelPattern).max(100).optional().describe('Linear team keys (empty: all)'),
      allowedRepositories: z.array(RepositoryPattern).max(100).optional().describe('GitHub repositories (empty: all)'),
    })
    .optional()
    .describe("the one list the channel's tool takes (Slack, Discord: allowedChannels; Linear: allowedTeams; GitHub: allowedRepositories)"),
});

const Site = z.strictObject({
  id: Id.optional(),
  title: Title,
  type: SiteType.optional(),
  visibility: SiteVisibility.optional(),
  sections: z.array(SiteSection).optional(),
  sectionGroups: z.array(SectionGroup).optional().describe('groups of sections (each section listed once: at the top or in one group)'),
  spaces: z.array(SiteSpace).optional().describe('site spaces at the root (a site without sections)'),
  shareLinks: z.array(ShareLink).optional(),
  redirects: z.array(Redirect).optional(),
  customization: z.record(z.string(), z.unknown()).optional().describe('the customization settings to hold (merged into the current ones)'),
  agentSettings: SiteAgentSettings.optional().describe("the site's AI agent settings"),
  channels: z
    .array(SiteChannel)
    .max(100)
    .optional()
    .describe('GitBook Agent channels, matched by type in order (pin one with id:); channels the file leaves out are removed only with --prune'),
  permissions: Permissions,
});

/** The organization's own settings. */
const Organization = z.strictObject({
  title: z.string().min(2).max(255),
  emailDomains: z.array(z.string().min(1).max(255)).optional(),
  hostname: z.string().min(3).max(32).optional().describe('the subdomain of its sites, <hostname>.gitbook.io'),
  defaultRole: FileMemberRole.optional().describe('role of people invited without one'),
  inviteLinks: z.boolean().optional(),
  agentInstructions: AgentInstructions.optional().describe("instructions the organization's Docs agent follows: plain text or a JSON document"),
});

/** A custom font of the organization, named by its family (a site's customization names it as `{fontFamily: Inter}`). */
const Font = z.strictObject({
  id: Id.optional(),
  fontFamily: z.string().min(1).max(50),
  fontFaces: z
    .array(
      z.strictObject({
        weight: z.number().int().min(1).max(1000),
        storageKey: z.string().min(1).max(512).describe("the face's file: its https:// URL in docsctl (on GitBook, the storage key of an upload)"),
      }),
    )
    .min(1)
    .describe('every face of the font (one of weight 400 is required); faces the file leaves out are removed'),
});

/** A SAML provider of the organization's SSO, named by its label. */
const SamlProvider = z.strictObject({
  id: Id.optional(),
  label: z.string().min(1).max(30),
  ssoURL: z.string().max(2048).optional(),
  entityID: z.string().max(1024).optional(),
  certificate: z.string().max(10000).optional().describe("the identity provider's PEM X.509 certificate"),
  defaultTeam: z.string().min(1).max(100).optional().describe('the team new SSO members join, by title'),
  defaultRole: FileMemberRole.optional().describe('role of new SSO members'),
});

/** A translation of a space into another language (the real API's Translation), named by its source space and language. */
const Translation = z.strictObject({
  id: Id.optional(),
  source: z.strictObject({ space: TitlePath.describe('the title path of the space translated'), language: TranslationLanguage }),
  language: TranslationLanguage.describe('the language it is translated into'),
  instructions: z.record(z.string(), z.unknown()).optional().describe('instructions for the translation (a JSON document)'),
});

/** Where an OpenAPI specification comes from: a URL, or a file beside the organization file (its text is sent). */
const OpenAPISource = z.union([
  z.strictObject({ url: z.string().min(1).max(2048) }),
  z.strictObject({ file: z.string().min(1).max(1000).describe('a path, relative to the organization file') }),
]);

/** An OpenAPI specification, named by its slug; its published versions are content (not in the file). */
const OpenAPISpec = z.strictObject({
  id: Id.optional(),
  slug: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be lowercase letters and digits joined by single hyphens'),
  source: OpenAPISource.optional().describe('required to create it; left out: the source is not managed'),
  visibility: z.enum(['private', 'public']).optional(),
});

export const OrgFileSchema = z.strictObject({
  organization: Organization.optional(),
  members: z.array(Member).optional(),
  customFields: z.array(CustomField).optional(),
  collections: z.array(Collection).optional(),
  spaces: z.array(Space).optional(),
  teams: z.array(Team).optional(),
  sites: z.array(Site).optional(),
  fonts: z.array(Font).optional(),
  samlProviders: z.array(SamlProvider).optional(),
  translations: z.array(Translation).optional(),
  openAPISpecs: z.array(OpenAPISpec).optional(),
});

export type OrgFile = z.infer<typeof OrgFileSchema>;
export type FileMember = z.infer<typeof Member>;
export type FileSpace = z.infer<typeof Space>;
export type FileGitSource = z.infer<typeof GitSource>;
export type FileTeam = z.infer<typeof Team>;
export type FileCustomField = z.infer<typeof CustomField>;
export type FileSite = z.infer<typeof Site>;
export type FileRedirect = z.infer<typeof Redirect>;
export type FileSiteSection = z.infer<typeof SiteSection>;
export type FilePermission = z.infer<typeof Permission>;
export type FileOrganization = z.infer<typeof Organization>;
export type FileFont = z.infer<typeof Font>;
export type FileSamlProvider = z.infer<typeof SamlProvider>;
export type FileTranslation = z.infer<typeof Translation>;
export type FileOpenAPISpec = z.infer<typeof OpenAPISpec>;
export type FileAgentInstructions = z.infer<typeof AgentInstructions>;
export type FileSiteAgentSettings = z.infer<typeof SiteAgentSettings>;
export type FileSiteChannel = z.infer<typeof SiteChannel>;

/** The JSON Schema of the file (`apply --schema`), for editors' YAML language servers. */
export function orgFileJsonSchema(): unknown {
  return {
    ...z.toJSONSchema(OrgFileSchema, { io: 'input', unrepresentable: 'any' }),
    title: 'docsctl organization file (docsctl apply -f)',
  };
}
