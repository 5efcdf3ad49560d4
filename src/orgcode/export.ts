/**
 * `docsctl export org`: the organization as it is, in the file format of `apply` (schema.ts),
 * so `export` then `apply` plans nothing. Objects are named by title paths as in a hand-written
 * file; an object whose name is not unique (two top-level spaces called "Untitled") is pinned
 * with `id:` so the file stays exact, and `withIds` pins every object. What the format cannot
 * name (a redirect to a single page, a team member without an e-mail) is left out and reported.
 */
import { stringify } from 'yaml';
import { fileGrants, targetOf, type GrantKind } from './plan-grants.js';
import type { FileCollection, FilePermission, FileSectionGroup, FileSiteSection, OrgFile } from './schema.js';
import type { CurrentCollection, CurrentSite, OrgState, SiteDetails } from './state.js';

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
function exportSectionTree(details: SiteDetails, section: (s: SiteDetails['sections'][number]) => FileSiteSection[]) {
  const tree = (parent: string | undefined): FileSectionGroup[] =>
    details.sectionGroups
      .filter((group) => group.parent === parent)
      .map((group) => {
        const sections = details.sections.filter((s) => s.group === group.id).flatMap(section);
        const nested = tree(group.id);
        return {
          title: group.title,
          ...(group.icon ? { icon: group.icon } : {}),
          ...(group.draft ? { draft: true } : {}),
          ...(sections.length ? { sections } : {}),
          ...(nested.length ? { sectionGroups: nested } : {}),
        };
      });
  return { sections: details.sections.filter((s) => s.group === undefined).flatMap(section), sectionGroups: tree(undefined) };
}

async function exportSite(state: OrgState, site: CurrentSite, spacePathById: ReadonlyMap<string, string>, skipped: string[], grants: Grants) {
  const [details, permissions] = await Promise.all([state.site(site.id), grants('site', site.id, site.title)]);
  const sectionTitle = new Map(details.sections.map((section) => [section.id, section.title]));
  const siteSpacePath = new Map(details.siteSpaces.map((siteSpace) => [siteSpace.id, spacePathById.get(siteSpace.spaceId)]));
  const { sections, sectionGroups } = exportSectionTree(details, (section) => {
    const space = section.spaceId ? spacePathById.get(section.spaceId) : undefined;
    if (!space) skipped.push(`site "${site.title}": section "${section.title}" shows no space of the organization`);
    return space ? [{ title: section.title, space, path: section.path, ...(section.draft ? { draft: true } : {}) }] : [];
  });
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
    customization: details.customization,
    ...permissions,
  };
}

export async function exportOrganization(state: OrgState, options: { withIds: boolean }): Promise<Exported> {
  const skipped: string[] = [];
  const pin: Pin = (id, duplicate) => (options.withIds || duplicate ? { id } : {});
  const spacePathById = new Map(state.spaces.map((s) => [s.id, state.spacePath(s)]));
  const siteDuplicate = sharedNames(state.sites.map((s) => s.title));
  const grants = grantsOf(state, skipped);
  const [organization, collections, spaces, teams, sites] = await Promise.all([
    state.organization(),
    exportCollections(state, pin, grants),
    exportSpaces(state, pin, grants),
    exportTeams(state, pin, skipped),
    Promise.all(state.sites.map(async (site) => ({ ...pin(site.id, siteDuplicate(site.title)), ...(await exportSite(state, site, spacePathById, skipped, grants)) }))),
  ]);
  const file = {
    organization: {
      title: organization.title,
      emailDomains: organization.emailDomains,
      ...(organization.hostname ? { hostname: organization.hostname } : {}),
      ...(organization.defaultRole !== undefined ? { defaultRole: organization.defaultRole ?? 'guest' } : {}),
      ...(organization.inviteLinks !== undefined ? { inviteLinks: organization.inviteLinks } : {}),
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
  } as OrgFile;
  return { file, skipped };
}

/** The exported file as text: JSON for a `.json` path, YAML otherwise. */
export function formatOrgFile(file: OrgFile, path: string | undefined): string {
  if (path?.endsWith('.json')) return `${JSON.stringify(file, null, 2)}\n`;
  return `# docsctl organization file: docsctl apply -f FILE (docsctl apply --schema prints its JSON Schema)\n${stringify(file, { lineWidth: 0, aliasDuplicateObjects: false })}`;
}
