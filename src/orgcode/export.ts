/**
 * `docsctl export org`: the organization as it is, in the file format of `apply` (schema.ts),
 * so `export` then `apply` plans nothing. Objects are named by title paths as in a hand-written
 * file; an object whose name is not unique (two top-level spaces called "Untitled") is pinned
 * with `id:` so the file stays exact, and `withIds` pins every object. What the format cannot
 * name (a redirect to a single page, a team member without an e-mail) is left out and reported.
 */
import { ApiError } from '../api/errors.js';
import { loadYaml } from './parse.js';
import { fileGrants, targetOf, type GrantKind } from './plan-grants.js';
import { customizationFileForm } from './plan-org-kinds.js';
import { CHANNEL_SETTING, type SiteChannelType } from '../api/site-channel-settings.js';
import { fileInstructions } from './instructions.js';
import type {
  FileCollection,
  FileFont,
  FileOpenAPISpec,
  FilePermission,
  FileSamlProvider,
  FileSectionGroup,
  FileSiteAgentSettings,
  FileSiteChannel,
  FileSiteSection,
  FileTranslation,
  OrgFile,
} from './schema.js';
import type { CurrentAgentSettings, CurrentChannel, CurrentCollection, CurrentFont, CurrentSite, OrgState, SiteDetails } from './state.js';

export interface Exported {
  file: OrgFile;
  /** What was left out, one line each. */
  skipped: string[];
}

type Pin = (id: string, duplicate: boolean) => { id?: string };

/** An object's grants as `{ permissions }` (nothing when it has none), read per object. */
type Grants = (kind: GrantKind, id: string, name: string) => Promise<{ permissions?: FilePermission[] }>;

function grantsOf(state: OrgState, skipped: string[]): Grants {
  const sharedTeam = sharedNames(state.teams.map((t) => t.title));
  return async (kind, id, name) => {
    const grants = fileGrants(await state.grants(targetOf(kind, id)), sharedTeam, (why) => skipped.push(`${kind} "${name}": a permission of ${why}`));
    return grants.length ? { permissions: grants } : {};
  };
}

/** A test of whether a name is shared by several of `names`. */
function sharedNames(names: readonly string[]): (name: string) => boolean {
  const seen = new Map<string, number>();
  for (const name of names) seen.set(name, (seen.get(name) ?? 0) + 1);
  return (name) => (seen.get(name) ?? 0) > 1;
}

async function exportCollections(state: OrgState, pin: Pin, grants: Grants): Promise<FileCollection[]> {
  const duplicate = sharedNames(state.collections.map((c) => state.collectionPath(c.id)));
  const children = new Map<string | undefined, CurrentCollection[]>();
  for (const collection of state.collections) children.set(collection.parent, [...(children.get(collection.parent) ?? []), collection]);
  const tree = (parent: string | undefined): Promise<FileCollection[]> =>
    Promise.all(
      (children.get(parent) ?? []).map(async (c) => {
        const [nested, permissions] = await Promise.all([tree(c.id), grants('collection', c.id, state.collectionPath(c.id))]);
        return {
          ...pin(c.id, duplicate(state.collectionPath(c.id))),
          title: c.title,
          ...(c.description ? { description: c.description } : {}),
          ...(c.defaultLevel !== undefined ? { defaultLevel: c.defaultLevel as FileCollection['defaultLevel'] } : {}),
          ...(nested.length ? { collections: nested } : {}),
          ...permissions,
        };
      }),
    );
  return tree(undefined);
}

function exportSpaces(state: OrgState, pin: Pin, grants: Grants) {
  const duplicate = sharedNames(state.spaces.map((s) => state.spacePath(s)));
  return Promise.all(
    state.spaces.map(async (s) => {
      const [fields, git, permissions] = await Promise.all([
        state.customFields.length ? state.spaceFields(s.id) : {},
        state.spaceGit(s.id),
        grants('space', s.id, state.spacePath(s)),
      ]);
      return {
        ...pin(s.id, duplicate(state.spacePath(s))),
        title: s.title,
        ...(s.emoji ? { emoji: s.emoji } : {}),
        visibility: s.visibility,
        ...(s.parent ? { parent: state.collectionPath(s.parent) } : {}),
        ...(s.defaultLevel !== undefined ? { defaultLevel: s.defaultLevel } : {}),
        ...(s.editMode ? { editMode: s.editMode } : {}),
        ...(s.language ? { language: s.language } : {}),
        ...(Object.keys(fields).length ? { customFields: fields } : {}),
        ...(git ? { git: { url: git.url, ref: git.ref, ...(git.dir ? { dir: git.dir } : {}) } } : {}),
        ...permissions,
      };
    }),
  );
}

function exportTeams(state: OrgState, pin: Pin, skipped: string[]) {
  const duplicate = sharedNames(state.teams.map((t) => t.title));
  state.prefetchTeamMembers(state.teams.map((t) => t.id));
  return Promise.all(
    state.teams.map(async (t) => {
      const members = [];
      for (const member of await state.teamMembers(t.id)) {
        if (!member.email) skipped.push(`team "${t.title}": member ${member.id} has no e-mail`);
        else members.push(member.role === 'owner' ? { email: member.email, role: member.role } : member.email);
      }
      return { ...pin(t.id, duplicate(t.title)), title: t.title, members };
    }),
  );
}

/** A site's sections as the file nests them: those outside groups, and the groups (nested) with theirs. */
function exportSectionTree(details: SiteDetails, section: (s: SiteDetails['sections'][number]) => FileSiteSection[], pin: Pin) {
  // Two groups of one site may share a title: each is then pinned by id, so the round trip is exact.
  const duplicate = sharedNames(details.sectionGroups.map((group) => group.title));
  const tree = (parent: string | undefined): FileSectionGroup[] =>
    details.sectionGroups
      .filter((group) => group.parent === parent)
      .map((group) => {
        const sections = details.sections.filter((s) => s.group === group.id).flatMap(section);
        const nested = tree(group.id);
        return {
          ...pin(group.id, duplicate(group.title)),
          title: group.title,
          ...(group.icon ? { icon: group.icon } : {}),
          ...(group.draft ? { draft: true } : {}),
          ...(sections.length ? { sections } : {}),
          ...(nested.length ? { sectionGroups: nested } : {}),
        };
      });
  return { sections: details.sections.filter((s) => s.group === undefined).flatMap(section), sectionGroups: tree(undefined) };
}

/** A site's AI agent settings when it ever set them (a site that never did answers the defaults: nothing to hold). */
function exportAgentSettings(settings: CurrentAgentSettings | undefined): FileSiteAgentSettings | undefined {
  if (!settings?.updatedAt) return undefined;
  const instructions = fileInstructions(settings.editing?.customInstructions);
  return {
    scans: { topics: settings.scans.topics },
    findings: { changeRequests: settings.findings.changeRequests },
    ...(instructions !== undefined ? { editing: { customInstructions: instructions } } : {}),
  } as FileSiteAgentSettings;
}

/** A site's channels in the API's order (the order apply matches them by), each with its tool's list of patterns. */
function exportChannels(channels: readonly CurrentChannel[], pin: Pin): FileSiteChannel[] {
  return channels.map((channel) => {
    const key = CHANNEL_SETTING[channel.type as SiteChannelType];
    return { ...pin(channel.id, false), type: channel.type, role: channel.role, setupSettings: { [key]: channel.setupSettings[key] ?? [] } } as FileSiteChannel;
  });
}

async function exportSite(state: OrgState, site: CurrentSite, spacePathById: ReadonlyMap<string, string>, skipped: string[], grants: Grants, pin: Pin, fonts: readonly CurrentFont[]) {
  const [details, permissions, agent, channels] = await Promise.all([
    state.site(site.id),
    grants('site', site.id, site.title),
    optional(() => state.siteAgentSettings(site.id), "sites' agent settings", skipped),
    optional(() => state.siteChannels(site.id), "sites' channels", skipped),
  ]);
  const agentSettings = exportAgentSettings(agent);
  const sectionTitle = new Map(details.sections.map((section) => [section.id, section.title]));
  const siteSpacePath = new Map(details.siteSpaces.map((siteSpace) => [siteSpace.id, spacePathById.get(siteSpace.spaceId)]));
  const { sections, sectionGroups } = exportSectionTree(details, (section) => {
    const space = section.spaceId ? spacePathById.get(section.spaceId) : undefined;
    if (!space) skipped.push(`site "${site.title}": section "${section.title}" shows no space of the organization`);
    return space ? [{ title: section.title, space, path: section.path, ...(section.draft ? { draft: true } : {}) }] : [];
  }, pin);
  const rootSpaces = details.siteSpaces
    .filter((siteSpace) => !siteSpace.sectionId && spacePathById.has(siteSpace.spaceId))
    .map((siteSpace) => ({ space: spacePathById.get(siteSpace.spaceId) as string, path: siteSpace.path }));
  const redirects = details.redirects.flatMap((r) => {
    const { kind, siteSectionId, siteSpaceId } = r.destination;
    const section = kind === 'site-section' && siteSectionId ? sectionTitle.get(siteSectionId) : undefined;
    const space = kind === 'site-space' && siteSpaceId ? siteSpacePath.get(siteSpaceId) : undefined;
    if (!section && !space) {
      skipped.push(`site "${site.title}": redirect ${r.source} leads to a ${kind} the file cannot name`);
      return [];
    }
    const flags = { ...(r.permanent ? { permanent: true } : {}), ...(r.captureWildcard ? { captureWildcard: true } : {}), ...(r.draft ? { draft: true } : {}) };
    return [{ source: r.source, destination: section ? { section } : { space: space as string }, ...flags }];
  });
  return {
    title: site.title,
    type: site.type,
    visibility: site.visibility,
    ...(sections.length ? { sections } : {}),
    ...(sectionGroups.length ? { sectionGroups } : {}),
    ...(rootSpaces.length ? { spaces: rootSpaces } : {}),
    ...(details.shareLinks.length ? { shareLinks: details.shareLinks.map((l) => ({ name: l.name })) } : {}),
    ...(redirects.length ? { redirects } : {}),
    customization: customizationFileForm(details.customization, fonts),
    ...(agentSettings ? { agentSettings } : {}),
    ...(channels?.length ? { channels: exportChannels(channels, pin) } : {}),
    ...permissions,
  };
}

/**
 * What the organization may not offer: a server without the operation (404, 405, 501) or a
 * token that may not read it (403, the SAML providers of a non-administrator) leaves the kind
 * out of the file, reported once.
 */
async function optional<T>(read: () => Promise<T>, kind: string, skipped: string[]): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof ApiError && [403, 404, 405, 501].includes(error.status)) {
      const note = `${kind}: not readable here (${error.status}); left out of the file`;
      if (!skipped.includes(note)) skipped.push(note);
      return undefined;
    }
    throw error;
  }
}

function exportFonts(fonts: readonly CurrentFont[], pin: Pin): FileFont[] {
  const duplicate = sharedNames(fonts.map((f) => f.fontFamily));
  return fonts.map((f) => ({ ...pin(f.id, duplicate(f.fontFamily)), fontFamily: f.fontFamily, fontFaces: f.fontFaces }));
}

async function exportSaml(state: OrgState, pin: Pin, skipped: string[]): Promise<FileSamlProvider[] | undefined> {
  const providers = await optional(() => state.samlProviders(), 'samlProviders', skipped);
  if (!providers) return undefined;
  const duplicate = sharedNames(providers.map((p) => p.label));
  const sharedTeam = sharedNames(state.teams.map((t) => t.title));
  return providers.map((p) => {
    const team = p.defaultTeam === undefined ? undefined : state.teams.find((t) => t.id === p.defaultTeam);
    if (team && sharedTeam(team.title)) skipped.push(`SAML provider "${p.label}": its default team "${team.title}" shares its title with another team`);
    return {
      ...pin(p.id, duplicate(p.label)),
      label: p.label,
      ...(p.ssoURL ? { ssoURL: p.ssoURL } : {}),
      ...(p.entityID ? { entityID: p.entityID } : {}),
      ...(p.certificate ? { certificate: p.certificate } : {}),
      ...(team && !sharedTeam(team.title) ? { defaultTeam: team.title } : {}),
      ...(p.defaultRole !== undefined ? { defaultRole: p.defaultRole ?? 'guest' } : {}),
    } as FileSamlProvider;
  });
}

async function exportTranslations(state: OrgState, spacePathById: ReadonlyMap<string, string>, pin: Pin, skipped: string[]): Promise<FileTranslation[] | undefined> {
  const translations = await optional(() => state.translations(), 'translations', skipped);
  if (!translations) return undefined;
  const duplicate = sharedNames(translations.map((t) => `${t.source.space}\u0000${t.language}`));
  const sharedSpace = sharedNames([...spacePathById.values()]);
  return translations.flatMap((t) => {
    const space = spacePathById.get(t.source.space);
    if (!space || sharedSpace(space)) {
      skipped.push(`translation ${t.id}: its source space ${space ? `"${space}" shares its title path with another space` : `${t.source.space} is not a space of the organization`}`);
      return [];
    }
    return [{ ...pin(t.id, duplicate(`${t.source.space}\u0000${t.language}`)), source: { space, language: t.source.language }, language: t.language, ...(t.instructions !== undefined ? { instructions: t.instructions } : {}) } as FileTranslation];
  });
}

async function exportOpenAPISpecs(state: OrgState, pin: Pin, skipped: string[]): Promise<FileOpenAPISpec[] | undefined> {
  const specs = await optional(() => state.openAPISpecs(), 'openAPISpecs', skipped);
  if (!specs) return undefined;
  return specs.map((s) => {
    // A spec published from a file's text has no URL: the file keeps it without a source (its versions are content).
    if (!s.sourceURL) skipped.push(`OpenAPI specification ${s.slug}: published from a file, so its source is left out (the spec is kept)`);
    return { ...pin(s.id, false), slug: s.slug, ...(s.sourceURL ? { source: { url: s.sourceURL } } : {}), ...(s.visibility ? { visibility: s.visibility as 'private' | 'public' } : {}) };
  });
}

export async function exportOrganization(state: OrgState, options: { withIds: boolean }): Promise<Exported> {
  const skipped: string[] = [];
  const pin: Pin = (id, duplicate) => (options.withIds || duplicate ? { id } : {});
  const spacePathById = new Map(state.spaces.map((s) => [s.id, state.spacePath(s)]));
  const siteDuplicate = sharedNames(state.sites.map((s) => s.title));
  const grants = grantsOf(state, skipped);
  const fonts = await optional(() => state.fonts(), 'fonts', skipped);
  const [organization, agentInstructions, collections, spaces, teams, sites, samlProviders, translations, openAPISpecs] = await Promise.all([
    state.organization(),
    optional(() => state.agentInstructions(), "the organization's agent instructions", skipped),
    exportCollections(state, pin, grants),
    exportSpaces(state, pin, grants),
    exportTeams(state, pin, skipped),
    Promise.all(state.sites.map(async (site) => ({ ...pin(site.id, siteDuplicate(site.title)), ...(await exportSite(state, site, spacePathById, skipped, grants, pin, fonts ?? [])) }))),
    exportSaml(state, pin, skipped),
    exportTranslations(state, spacePathById, pin, skipped),
    exportOpenAPISpecs(state, pin, skipped),
  ]);
  const instructions = fileInstructions(agentInstructions);
  const file = {
    organization: {
      title: organization.title,
      emailDomains: organization.emailDomains,
      ...(organization.hostname ? { hostname: organization.hostname } : {}),
      ...(organization.defaultRole !== undefined ? { defaultRole: organization.defaultRole ?? 'guest' } : {}),
      ...(organization.inviteLinks !== undefined ? { inviteLinks: organization.inviteLinks } : {}),
      ...(instructions !== undefined ? { agentInstructions: instructions } : {}),
    },
    members: state.members.map((m) => ({ email: m.email, role: m.role ?? 'guest' })),
    customFields: state.customFields.map((f) => ({
      name: f.name,
      type: f.type,
      ...(f.title ? { title: f.title } : {}),
      ...(f.description ? { description: f.description } : {}),
      ...(f.placeholder ? { placeholder: f.placeholder } : {}),
      ...(f.options?.length ? { options: f.options } : {}),
    })),
    collections,
    spaces,
    teams,
    sites,
    ...(fonts ? { fonts: exportFonts(fonts, pin) } : {}),
    ...(samlProviders ? { samlProviders } : {}),
    ...(translations ? { translations } : {}),
    ...(openAPISpecs ? { openAPISpecs } : {}),
  } as OrgFile;
  return { file, skipped };
}

/** The exported file as text: JSON for a `.json` path, YAML otherwise (`yaml` loaded then: apply and diff do without it). */
export async function formatOrgFile(file: OrgFile, path: string | undefined): Promise<string> {
  if (path?.endsWith('.json')) return `${JSON.stringify(file, null, 2)}\n`;
  const { stringify } = await loadYaml();
  return `# docsctl organization file: docsctl apply -f FILE (docsctl apply --schema prints its JSON Schema)\n${stringify(file, { lineWidth: 0, aliasDuplicateObjects: false })}`;
}
