/**
 * The organization as it is now, read through the transport with the public API's list
 * operations (the requests remote mode sends, so `--remote` against `serve` or GitBook plans the
 * same): one read per list, 1,000 items a page. What only a per-object read gives (a team's
 * members, a space's custom-field values, a site's sections, site spaces, share links,
 * redirects and customization) is read on demand, once, for the objects the file names
 * (everything, for `export`).
 */
import { ApiError } from '../api/errors.js';
import type { RouteId } from '../api/route-id.js';
import type { Transport } from '../transport/types.js';

export interface CurrentMember {
  id: string;
  email: string;
  /** null: guest. */
  role: string | null;
}
/** A space's Git source as getSpaceGitInfo tells it (the URL without credentials). */
export interface CurrentGit {
  url: string;
  ref: string;
  dir: string;
}

export interface CurrentCollection {
  id: string;
  title: string;
  parent?: string | undefined;
  description?: string | undefined;
  defaultLevel?: string | null | undefined;
}
export interface CurrentSpace {
  id: string;
  title: string;
  emoji?: string | undefined;
  parent?: string | undefined;
  visibility: string;
  defaultLevel?: string | null | undefined;
  editMode?: string | undefined;
  language?: string | undefined;
}
export interface CurrentCustomField {
  name: string;
  type: string;
  title?: string | undefined;
  description?: string | undefined;
  placeholder?: string | undefined;
  options?: string[] | undefined;
}
export interface CurrentTeam {
  id: string;
  title: string;
}
export interface CurrentTeamMember {
  id: string;
  email?: string | undefined;
  role: 'owner' | 'member';
}
export interface CurrentSite {
  id: string;
  title: string;
  type: string;
  visibility: string;
}
export interface CurrentSection {
  id: string;
  title: string;
  path: string;
  draft?: boolean | undefined;
  /** The group it is in. */
  group?: string | undefined;
  /** The space of its default variant. */
  spaceId?: string | undefined;
  siteSpaceId?: string | undefined;
}
export interface CurrentSiteSpace {
  id: string;
  spaceId: string;
  path: string;
  sectionId?: string | undefined;
}
export interface CurrentShareLink {
  id: string;
  name: string;
}
export interface CurrentRedirect {
  id: string;
  source: string;
  destination: { kind: string; siteSectionId?: string; siteSpaceId?: string; pageId?: string };
  permanent?: boolean | undefined;
  captureWildcard?: boolean | undefined;
  draft?: boolean | undefined;
}
export interface CurrentSectionGroup {
  id: string;
  title: string;
  icon?: string | undefined;
  draft?: boolean | undefined;
  /** The group it is nested in. */
  parent?: string | undefined;
}
/** A grant on a space, collection or site: to a user (by id, with their e-mail) or a team. */
export interface CurrentGrant {
  principal: 'user' | 'team';
  id: string;
  /** The user's e-mail or the team's title. */
  name: string;
  role: string;
}
export interface CurrentOrganization {
  title: string;
  emailDomains: string[];
  hostname?: string | undefined;
  defaultRole?: string | null | undefined;
  inviteLinks?: boolean | undefined;
}
export interface SiteDetails {
  sections: CurrentSection[];
  sectionGroups: CurrentSectionGroup[];
  siteSpaces: CurrentSiteSpace[];
  shareLinks: CurrentShareLink[];
  redirects: CurrentRedirect[];
  customization: Record<string, unknown>;
}

/** A site's AI agent settings as the API answers them (`updatedAt` absent: never set, the defaults). */
export interface CurrentAgentSettings {
  scans: { topics: string };
  findings: { changeRequests: string };
  editing: { customInstructions: unknown };
  updatedAt?: string | undefined;
}
/** A GitBook Agent channel of a site. */
export interface CurrentChannel {
  id: string;
  type: string;
  role: string;
  setupSettings: Record<string, string[] | undefined>;
}

export interface CurrentFont {
  id: string;
  fontFamily: string;
  /** By weight: the file's `storageKey` is the face's first source URL. */
  fontFaces: Array<{ weight: number; storageKey: string }>;
  /** The definition a site's customization embeds (the list's item without its permissions). */
  definition: Record<string, unknown>;
}
export interface CurrentSamlProvider {
  id: string;
  label: string;
  ssoURL?: string | undefined;
  entityID?: string | undefined;
  certificate?: string | undefined;
  /** The default team's id. */
  defaultTeam?: string | undefined;
  /** null: guest. */
  defaultRole?: string | null | undefined;
}
export interface CurrentTranslation {
  id: string;
  source: { space: string; language: string };
  language: string;
  instructions?: unknown;
}
export interface CurrentOpenAPISpec {
  id: string;
  slug: string;
  sourceURL?: string | undefined;
  visibility?: string | undefined;
}

type Item = Record<string, unknown>;

/** Every item of a paginated list. */
export async function listAll(transport: Transport, route: RouteId, params: Record<string, string>): Promise<Item[]> {
  const items: Item[] = [];
  let page: string | undefined;
  do {
    const { body } = await transport.request(route, { params, query: { limit: 1000, ...(page ? { page } : {}) } });
    const list = body as { items?: Item[]; next?: { page?: string } | null };
    items.push(...(list.items ?? []));
    page = list.next?.page;
  } while (page);
  return items;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export class OrgState {
  private readonly teamMembersCache = new Map<string, Promise<CurrentTeamMember[]>>();
  private readonly spaceFieldsCache = new Map<string, Promise<Record<string, unknown>>>();
  private readonly spaceGitCache = new Map<string, Promise<CurrentGit | undefined>>();
  private readonly siteCache = new Map<string, Promise<SiteDetails>>();
  private readonly agentSettingsCache = new Map<string, Promise<CurrentAgentSettings>>();
  private readonly channelsCache = new Map<string, Promise<CurrentChannel[]>>();
  private agentInstructionsCache: Promise<unknown> | undefined;
  private readonly grantsCache = new Map<string, Promise<CurrentGrant[]>>();
  private organizationCache: Promise<CurrentOrganization> | undefined;
  private readonly listCache = new Map<string, Promise<unknown>>();
  private readonly specTextCache = new Map<string, Promise<string | undefined>>();
  private readonly paths = new Map<string, string>();
  private byId: Map<string, CurrentCollection> | undefined;

  private constructor(
    readonly transport: Transport,
    readonly organizationId: string,
    readonly members: CurrentMember[],
    readonly customFields: CurrentCustomField[],
    readonly collections: CurrentCollection[],
    readonly spaces: CurrentSpace[],
    readonly teams: CurrentTeam[],
    readonly sites: CurrentSite[],
  ) {}

  /** The organization's lists, read in parallel. */
  static async read(transport: Transport, organizationId: string): Promise<OrgState> {
    const params = { organizationId };
    const [members, fields, collections, spaces, teams, sites] = await Promise.all([
      listAll(transport, 'listMembersInOrganizationById', params),
      listAll(transport, 'listOrganizationCustomFields', params),
      listAll(transport, 'listCollectionsInOrganizationById', params),
      listAll(transport, 'listSpacesInOrganizationById', params),
      listAll(transport, 'listTeamsInOrganizationById', params),
      listAll(transport, 'listSites', params),
    ]);
    return new OrgState(
      transport,
      organizationId,
      members.map((m) => ({ id: m.id as string, email: str((m.user as Item | undefined)?.email) ?? '', role: (m.role as string | null | undefined) ?? null })),
      fields.map((f) => ({
        name: f.name as string,
        type: f.type as string,
        title: str(f.title),
        description: str(f.description),
        placeholder: str(f.placeholder),
        options: Array.isArray(f.options) ? (f.options as string[]) : undefined,
      })),
      collections.map((c) => ({ id: c.id as string, title: c.title as string, parent: str(c.parent), description: str(c.description), defaultLevel: c.defaultLevel as string | null | undefined })),
      spaces.map((s) => ({
        id: s.id as string,
        title: s.title as string,
        emoji: str(s.emoji),
        parent: str(s.parent),
        visibility: s.visibility as string,
        defaultLevel: s.defaultLevel as string | null | undefined,
        editMode: str(s.editMode),
        language: str(s.language),
      })),
      teams.map((t) => ({ id: t.id as string, title: t.title as string })),
      sites.map((s) => ({ id: s.id as string, title: s.title as string, type: s.type as string, visibility: s.visibility as string })),
    );
  }

  /** `Engineering/Handbook` for a collection id (its ancestors' titles and its own), computed once per collection. */
  collectionPath(id: string): string {
    let path = this.paths.get(id);
    if (path === undefined) {
      this.byId ??= new Map(this.collections.map((c) => [c.id, c]));
      const titles: string[] = [];
      const seen = new Set<string>();
      for (let current = this.byId.get(id); current && !seen.has(current.id); current = current.parent ? this.byId.get(current.parent) : undefined) {
        seen.add(current.id);
        titles.unshift(current.title);
      }
      path = titles.join('/');
      this.paths.set(id, path);
    }
    return path;
  }

  spacePath(space: CurrentSpace): string {
    return space.parent ? `${this.collectionPath(space.parent)}/${space.title}` : space.title;
  }

  /**
   * Starts reading the memberships of these teams (those a file names; all, for export). In
   * local mode, when they are a good part of the organization's teams, that is one listing of
   * every membership (listTeamMembershipsInOrganization, a docsctl extension: 100 teams of 20
   * cost one pass over 2,000 small rows, not 100 listings of members' views); otherwise, and
   * against any server (GitBook's has no such list), one listing per team.
   */
  prefetchTeamMembers(teamIds: readonly string[]): void {
    const wanted = teamIds.filter((id) => !this.teamMembersCache.has(id));
    if (this.transport.mode === 'local' && wanted.length > 1 && wanted.length * 4 >= this.teams.length) {
      const byTeam = this.allMemberships();
      for (const id of wanted) {
        const members = byTeam.then((all) => all.get(id) ?? []);
        members.catch(() => undefined); // a failure is reported by the team that awaits it (a plan may stop before the others)
        this.teamMembersCache.set(id, members);
      }
      return;
    }
    for (const id of wanted) this.teamMembers(id).catch(() => undefined);
  }

  /** Every membership of the organization by team id, in one listing (local mode). */
  private async allMemberships(): Promise<Map<string, CurrentTeamMember[]>> {
    const emails = new Map(this.members.map((member) => [member.id, member.email]));
    const byTeam = new Map<string, CurrentTeamMember[]>();
    for (const item of await listAll(this.transport, 'listTeamMembershipsInOrganization', { organizationId: this.organizationId })) {
      const team = item.team as string;
      const user = item.user as string;
      let members = byTeam.get(team);
      if (!members) byTeam.set(team, (members = []));
      members.push({ id: user, email: emails.get(user) || undefined, role: item.role as CurrentTeamMember['role'] });
    }
    return byTeam;
  }

  teamMembers(teamId: string): Promise<CurrentTeamMember[]> {
    return cached(this.teamMembersCache, teamId, async () =>
      (await listAll(this.transport, 'listTeamMembersInOrganizationById', { organizationId: this.organizationId, teamId })).map((item) => {
        const organization = item.organization as Item;
        return { id: organization.id as string, email: str((organization.user as Item | undefined)?.email), role: (item.team as { role: 'owner' | 'member' }).role };
      }),
    );
  }

  /** The repository, ref and directory a space last synced with (undefined: no Git Sync, or a server without getSpaceGitInfo). */
  spaceGit(spaceId: string): Promise<CurrentGit | undefined> {
    return cached(this.spaceGitCache, spaceId, async () => {
      try {
        const { body } = await this.transport.request('getSpaceGitInfo', { params: { spaceId } });
        const info = body as Item;
        if (typeof info.repository !== 'string') return undefined;
        return { url: info.repository, ref: str(info.ref) ?? '', dir: str(info.projectDirectory) ?? '' };
      } catch (error) {
        if (error instanceof ApiError && (error.status === 404 || error.status === 405 || error.status === 501)) return undefined;
        throw error;
      }
    });
  }

  /** A space's custom-field values by field name (fields without a value left out). */
  spaceFields(spaceId: string): Promise<Record<string, unknown>> {
    return cached(this.spaceFieldsCache, spaceId, async () => {
      const { body } = await this.transport.request('getSpaceCustomFields', { params: { spaceId } });
      const items = (Array.isArray(body) ? body : ((body as { items?: Item[] }).items ?? [])) as Item[];
      const values: Record<string, unknown> = {};
      for (const item of items) {
        if (item.value !== undefined && item.value !== null) values[(item.customField as Item).name as string] = item.value;
      }
      return values;
    });
  }

  /** The organization's own settings (one read). */
  organization(): Promise<CurrentOrganization> {
    this.organizationCache ??= this.transport.request('getOrganizationById', { params: { organizationId: this.organizationId } }).then(({ body }) => {
      const org = body as Item;
      return {
        title: org.title as string,
        emailDomains: Array.isArray(org.emailDomains) ? (org.emailDomains as string[]) : [],
        hostname: str(org.hostname),
        defaultRole: org.defaultRole as string | null | undefined,
        inviteLinks: org.inviteLinks as boolean | undefined,
      };
    });
    return this.organizationCache;
  }

  /** The instructions the organization's Docs agent follows: a JSON document (read when the file gives them, and by export). */
  agentInstructions(): Promise<unknown> {
    this.agentInstructionsCache ??= this.transport
      .request('getOrganizationAgentInstructions', { params: { organizationId: this.organizationId } })
      .then(({ body }) => (body as Item).instructions);
    return this.agentInstructionsCache;
  }

  /** A site's AI agent settings (read when the file gives them, and by export). */
  siteAgentSettings(siteId: string): Promise<CurrentAgentSettings> {
    return cached(this.agentSettingsCache, siteId, async () => {
      const { body } = await this.transport.request('getSiteAgentSettingsById', { params: { organizationId: this.organizationId, siteId } });
      const settings = body as Item;
      return {
        scans: settings.scans as CurrentAgentSettings['scans'],
        findings: settings.findings as CurrentAgentSettings['findings'],
        editing: settings.editing as CurrentAgentSettings['editing'],
        updatedAt: str(settings.updatedAt),
      };
    });
  }

  /** A site's GitBook Agent channels, in the API's order (read when the file lists them, and by export). */
  siteChannels(siteId: string): Promise<CurrentChannel[]> {
    return cached(this.channelsCache, siteId, async () =>
      (await listAll(this.transport, 'listSiteChannels', { organizationId: this.organizationId, siteId })).map((c) => ({
        id: c.id as string,
        type: c.type as string,
        role: c.role as string,
        setupSettings: (c.setupSettings as CurrentChannel['setupSettings'] | undefined) ?? {},
      })),
    );
  }

  /** The organization's custom fonts (read when the file lists fonts or a customization names one, and by export). */
  fonts(): Promise<CurrentFont[]> {
    return cached(this.listCache as Map<string, Promise<CurrentFont[]>>, 'fonts', async () =>
      (await listAll(this.transport, 'listCustomFonts', { organizationId: this.organizationId })).map((f) => {
        const { permissions: _permissions, ...definition } = f;
        const faces = (f.fontFaces as Array<{ weight: number; sources?: Array<{ url?: string }> }> | undefined) ?? [];
        return {
          id: f.id as string,
          fontFamily: f.fontFamily as string,
          fontFaces: faces.map((face) => ({ weight: face.weight, storageKey: face.sources?.[0]?.url ?? '' })),
          definition,
        };
      }),
    );
  }

  /** The SAML providers of the organization's SSO (an admin's read). */
  samlProviders(): Promise<CurrentSamlProvider[]> {
    return cached(this.listCache as Map<string, Promise<CurrentSamlProvider[]>>, 'saml', async () =>
      (await listAll(this.transport, 'listSAMLProvidersInOrganizationById', { organizationId: this.organizationId })).map((p) => ({
        id: p.id as string,
        label: p.label as string,
        // The API answers "" for what was never set.
        ssoURL: str(p.ssoURL) || undefined,
        entityID: str(p.entityID) || undefined,
        certificate: str(p.certificate) || undefined,
        defaultTeam: str((p.defaultTeam as Item | undefined)?.id),
        defaultRole: p.defaultRole as string | null | undefined,
      })),
    );
  }

  /** The translations of spaces (the real API's shape; the API doc's translation settings are left out). */
  translations(): Promise<CurrentTranslation[]> {
    return cached(this.listCache as Map<string, Promise<CurrentTranslation[]>>, 'translations', async () =>
      (await listAll(this.transport, 'listTranslations', { organizationId: this.organizationId }))
        .filter((t) => t.source && typeof t.language === 'string')
        .map((t) => ({ id: t.id as string, source: t.source as CurrentTranslation['source'], language: t.language as string, instructions: t.instructions })),
    );
  }

  openAPISpecs(): Promise<CurrentOpenAPISpec[]> {
    return cached(this.listCache as Map<string, Promise<CurrentOpenAPISpec[]>>, 'openapi', async () =>
      (await listAll(this.transport, 'listOpenAPISpecs', { organizationId: this.organizationId })).map((s) => ({
        id: s.id as string,
        slug: s.slug as string,
        sourceURL: str(s.sourceURL),
        visibility: str(s.visibility),
      })),
    );
  }

  /** The text of a specification's latest version (undefined: none processed). */
  openAPISpecText(slug: string): Promise<string | undefined> {
    return cached(this.specTextCache, slug, async () => {
      try {
        const { body } = await this.transport.request('getLatestOpenAPISpecVersionContentRaw', { params: { organizationId: this.organizationId, specSlug: slug } });
        return typeof body === 'string' ? body : str((body as Item | undefined)?.text);
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return undefined;
        throw error;
      }
    });
  }

  /** The roles granted on a space, collection or site to users and teams (two reads, once per object). */
  grants(target: GrantTarget): Promise<CurrentGrant[]> {
    const params = grantParams(this.organizationId, target);
    return cached(this.grantsCache, `${target.kind}:${Object.values(params).join('/')}`, async () => {
      const [users, teams] = GRANT_LISTS[target.kind];
      const [userGrants, teamGrants] = await Promise.all([listAll(this.transport, users, params), listAll(this.transport, teams, params)]);
      return [
        ...userGrants.map((g): CurrentGrant => {
          const user = g.user as Item;
          return { principal: 'user', id: user.id as string, name: str(user.email) ?? '', role: g.permission as string };
        }),
        ...teamGrants.map((g): CurrentGrant => {
          const team = g.team as Item;
          return { principal: 'team', id: team.id as string, name: team.title as string, role: g.permission as string };
        }),
      ];
    });
  }

  site(siteId: string): Promise<SiteDetails> {
    return cached(this.siteCache, siteId, async () => {
      const params = { organizationId: this.organizationId, siteId };
      const [sections, groups, siteSpaces, shareLinks, redirects, customization] = await Promise.all([
        listAll(this.transport, 'listSiteSections', params),
        listAll(this.transport, 'listSiteSectionGroups', params),
        listAll(this.transport, 'listSiteSpaces', params),
        listAll(this.transport, 'listSiteShareLinks', params),
        listAll(this.transport, 'listSiteRedirects', params),
        this.transport.request('getSiteCustomizationById', { params }).then((answer) => answer.body as Record<string, unknown>),
      ]);
      return {
        sections: sections.map((s) => {
          const variants = (s.siteSpaces as Item[] | undefined) ?? [];
          const first = variants.find((v) => v.default === true) ?? variants[0];
          return {
            id: s.id as string,
            title: s.title as string,
            path: s.path as string,
            draft: s.draft as boolean | undefined,
            group: str(s.sectionGroup),
            spaceId: str((first?.space as Item | undefined)?.id),
            siteSpaceId: str(first?.id),
          };
        }),
        sectionGroups: groups.map((g) => ({ id: g.id as string, title: g.title as string, icon: str(g.icon), draft: g.draft as boolean | undefined, parent: str(g.sectionGroup) })),
        siteSpaces: siteSpaces.map((s) => ({ id: s.id as string, spaceId: (s.space as Item).id as string, path: s.path as string, sectionId: str(s.section) })),
        shareLinks: shareLinks.map((l) => ({ id: l.id as string, name: l.name as string })),
        redirects: redirects.map((r) => ({
          id: r.id as string,
          source: r.source as string,
          destination: r.destination as CurrentRedirect['destination'],
          permanent: r.permanent as boolean | undefined,
          captureWildcard: r.captureWildcard as boolean | undefined,
          draft: r.draft as boolean | undefined,
        })),
        customization,
      };
    });
  }
}

export type GrantTarget = { kind: 'space'; spaceId: string } | { kind: 'collection'; collectionId: string } | { kind: 'site'; siteId: string };

const GRANT_LISTS = {
  space: ['listUserPermissionsInSpace', 'listTeamPermissionsInSpace'],
  collection: ['listUserPermissionsInCollection', 'listTeamPermissionsInCollection'],
  site: ['listUserPermissionsInSite', 'listTeamPermissionsInSite'],
} as const satisfies Record<GrantTarget['kind'], readonly [RouteId, RouteId]>;

/** The path parameters of a grant target's permission routes. */
function grantParams(organizationId: string, target: GrantTarget): Record<string, string> {
  const { kind: _kind, ...ids } = target;
  return target.kind === 'site' ? { organizationId, ...ids } : ids;
}

function cached<T>(cache: Map<string, Promise<T>>, key: string, load: () => Promise<T>): Promise<T> {
  let value = cache.get(key);
  if (!value) {
    value = load();
    cache.set(key, value);
  }
  return value;
}
