/**
 * The plan: what makes the organization (state.ts) what the file (schema.ts) says, as steps
 * (`+` create, `~` change, `-` delete with --prune), each with the fields it changes and the
 * API requests that carry it out (apply.ts sends them). Steps are in dependency order: custom
 * fields, members, collections (parents first), spaces, teams, sites and what they hold; then
 * the deletions in reverse (what holds others last).
 *
 * Objects are matched by `id:` when pinned, else by name: a member by e-mail, a collection or
 * a space by its title path, a team, site or section by title, a share link by name, a
 * redirect by source. A request that needs the id of an object created earlier in the same
 * run holds a reference (`{ $ref: 'collection:Engineering' }`) that apply.ts resolves.
 * Everything the file names is checked here, before anything changes: a reference to nothing
 * is a usage error naming the file's line.
 */
import { type FieldChange, type PlannedRequest, type Ref, type Step, type StepOp, same } from './steps.js';
import { type Current as SyncCurrent, type Wanted as SyncWanted, batchBody, planSync } from '../cli/commands/team-sync-plan.js';
import { type FieldPath, type Located, fileError } from './parse.js';
import { type GrantObject, planGrants, prefetchGrants } from './plan-grants.js';
import { KindsPlanner, customizationFileForm } from './plan-org-kinds.js';
import { planSiteAgentSettings, planSiteChannels } from './plan-site-agent.js';
import { describeInstructions, instructionsDocument, sameInstructions } from './instructions.js';
import type { FileCollection, FileGitSource, FileOrganization, FileSectionGroup, FileSite, FileSiteSection, FileSpace, OrgFile } from './schema.js';
import type { CurrentGit, CurrentRedirect, OrgState } from './state.js';

export type { FieldChange, PlannedRequest, Ref, Step, StepOp } from './steps.js';

export interface Plan {
  steps: Step[];
  /** Things left alone and why (printed as notes). */
  notes: string[];
}

export interface PlanOptions {
  prune: boolean;
  /** The user the token acts as: --prune never removes it from the organization. */
  selfId?: string | undefined;
  /** The text of a file the organization file names (an OpenAPI source), by its path relative to the organization file. */
  readSource?: ((path: string) => Promise<string>) | undefined;
}

const ref = (key: string): Ref => ({ $ref: key });
type Named = { id: string; title: string; parent?: string | undefined };
/** An object's name in its parent (the parent's id, if any, and its title). */
const nameKey = (item: { title?: string; parent?: string | undefined }) => `${item.parent ?? ''}\u0000${item.title ?? ''}`;

/** The changes of the fields the file gives (undefined: not managed). */
function diffFields(wanted: Record<string, unknown>, current: Record<string, unknown>): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const [field, to] of Object.entries(wanted)) {
    if (to === undefined) continue;
    if (!same(to, current[field])) changes.push({ field, from: current[field], to });
  }
  return changes;
}

const bodyOf = (changes: readonly FieldChange[]) => Object.fromEntries(changes.map((c) => [c.field, c.to]));
const defined = (record: Record<string, unknown>) => Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));

class Planner {
  readonly steps: Step[] = [];
  readonly deletions: Step[] = [];
  readonly notes: string[] = [];
  /** Ref key → id of an object that exists now. */
  private readonly known = new Map<string, string>();
  /** Ref keys of objects the plan creates. */
  private readonly created = new Set<string>();
  /** Ids of the current objects the file names (--prune keeps them). */
  private readonly matched = new Set<string>();
  private readonly matchedKeys = new Map<string, string>();
  /** Names two objects of the file share (each pinned by id). */
  private readonly ambiguous = new Set<string>();
  private readonly org: { organizationId: string };
  /** Fonts, SAML providers, translations, OpenAPI specifications. */
  readonly kinds: KindsPlanner;

  constructor(
    private readonly located: Located,
    private readonly state: OrgState,
    private readonly options: PlanOptions,
  ) {
    this.org = { organizationId: state.organizationId };
    this.kinds = new KindsPlanner({
      ...this.siteContext(),
      readSource: async (path, field) => {
        if (!options.readSource) throw fileError(this.where(field), field, 'a source file needs an organization file on disk (not stdin)', 'give source: {url: …}, or apply -f a file');
        return options.readSource(path);
      },
    });
  }

  /** The file names the current object `id` as `key`. */
  private match(key: string, id: string): void {
    const earlier = this.matchedKeys.get(key);
    if (earlier !== undefined && earlier !== id) {
      // Two pinned objects share a name: nothing may refer to them by it.
      this.ambiguous.add(key);
      this.known.delete(key);
    } else if (!this.ambiguous.has(key)) this.known.set(key, id);
    this.matchedKeys.set(key, id);
    this.matched.add(id);
  }

  /** Every current collection and space by its title path (a file may refer to ones it does not list), custom fields by name, teams by title. */
  seed(): void {
    const count = new Map<string, number>();
    const paths: Array<[string, string]> = [
      ...this.state.collections.map((c): [string, string] => [`collection:${this.state.collectionPath(c.id)}`, c.id]),
      ...this.state.spaces.map((s): [string, string] => [`space:${this.state.spacePath(s)}`, s.id]),
      ...this.state.customFields.map((f): [string, string] => [`customField:${f.name}`, f.name]),
      ...this.state.teams.map((t): [string, string] => [`team:${t.title}`, t.id]),
    ];
    for (const [key] of paths) count.set(key, (count.get(key) ?? 0) + 1);
    // Two objects with one path are ambiguous: a reference to it must name one the file pins.
    for (const [key, id] of paths) if (count.get(key) === 1) this.known.set(key, id);
  }

  private where(path: FieldPath) {
    return this.located.where(path);
  }

  private step(op: StepOp, kind: string, name: string, changes: FieldChange[], requests: PlannedRequest[]): void {
    (op === '-' ? this.deletions : this.steps).push({ op, kind, name, changes, requests });
  }

  /** The id (or a reference to the object created earlier) that `key` names; undefined when nothing does. */
  private resolve(key: string): string | Ref | undefined {
    if (this.created.has(key)) return ref(key);
    return this.known.get(key);
  }

  private need(key: string, path: FieldPath, what: string, hint: string): string | Ref {
    const found = this.resolve(key);
    if (this.ambiguous.has(key)) throw fileError(this.where(path), path, `${what} names several objects`, 'rename one of them');
    if (found === undefined) throw fileError(this.where(path), path, `no ${what} in the file or the organization`, hint);
    return found;
  }

  /** Each current list indexed once by id and by name (a file names every object: a scan per object would be quadratic). */
  private readonly indexes = new Map<readonly unknown[], { ids: Map<string, unknown>; names: Map<string, unknown[]> }>();

  private indexOf<T extends Named>(list: readonly T[]) {
    let index = this.indexes.get(list);
    if (!index) {
      index = { ids: new Map(), names: new Map() };
      for (const item of list) {
        index.ids.set(item.id, item);
        const name = nameKey(item);
        const same = index.names.get(name);
        if (same) same.push(item);
        else index.names.set(name, [item]);
      }
      this.indexes.set(list, index);
    }
    return index as { ids: Map<string, T>; names: Map<string, T[]> };
  }

  /** The current object pinned by `id`, or an error naming the line. */
  private pinned<T extends Named>(list: readonly T[], id: string, path: FieldPath, kind: string): T {
    const found = this.indexOf(list).ids.get(id);
    if (!found) throw fileError(this.where([...path, 'id']), [...path, 'id'], `no ${kind} with id ${id} in the organization`, 'remove the id to create it, or fix it');
    return found;
  }

  /** The one current object named `title` (in `parent`, for collections and spaces); two are ambiguous: pin one with id. */
  private byName<T extends Named>(list: readonly T[], title: string, parent: string | undefined, path: FieldPath, kind: string, name: string): T | undefined {
    const found = this.indexOf(list).names.get(nameKey({ title, parent })) ?? [];
    if (found.length > 1) {
      throw fileError(this.where(path), path, `${found.length} ${kind}s are named "${name}" (${found.map((item) => item.id).join(', ')})`, 'pin the one you mean with id:');
    }
    return found[0];
  }

  /** The organization's own settings: one `~` step when the file's differ. */
  async organization(wanted: FileOrganization | undefined): Promise<void> {
    if (!wanted) return;
    const current = await this.state.organization();
    const { defaultRole, agentInstructions, ...rest } = wanted;
    const changes = diffFields({ ...rest, defaultRole: defaultRole === 'guest' ? null : defaultRole }, current as unknown as Record<string, unknown>);
    const requests: PlannedRequest[] = changes.length ? [{ route: 'updateOrganizationById', params: this.org, body: bodyOf(changes) }] : [];
    if (agentInstructions !== undefined) {
      const instructions = await this.state.agentInstructions();
      if (!sameInstructions(agentInstructions, instructions)) {
        changes.push({ field: 'agentInstructions', from: describeInstructions(instructions), to: describeInstructions(agentInstructions) });
        requests.push({ route: 'updateOrganizationAgentInstructions', params: this.org, body: { instructions: instructionsDocument(agentInstructions) } });
      }
    }
    if (changes.length) this.step('~', 'organization', current.title, changes, requests);
  }

  /** The permissions of every collection, space and site the file gives them to (after teams and sites exist). */
  async permissions(file: OrgFile): Promise<void> {
    const objects: GrantObject[] = [];
    const add = (kind: GrantObject['kind'], key: string, wanted: GrantObject['wanted'] | undefined, path: FieldPath) => {
      if (!wanted) return;
      const name = key.slice(key.indexOf(':') + 1);
      objects.push({ kind, name, id: this.need(key, path, `${kind} "${name}"`, 'pin the one you mean with id:'), wanted, path });
    };
    const walk = (list: readonly FileCollection[], prefix: string, path: FieldPath) =>
      list.forEach((collection, i) => {
        const name = `${prefix}${collection.title}`;
        add('collection', `collection:${name}`, collection.permissions, [...path, i, 'permissions']);
        walk(collection.collections ?? [], `${name}/`, [...path, i, 'collections']);
      });
    walk(file.collections ?? [], '', ['collections']);
    (file.spaces ?? []).forEach((space, i) => add('space', `space:${space.parent ? `${space.parent}/${space.title}` : space.title}`, space.permissions, ['spaces', i, 'permissions']));
    (file.sites ?? []).forEach((site, i) => add('site', `site:${site.title}`, site.permissions, ['sites', i, 'permissions']));
    prefetchGrants(this.state, objects);
    const ctx = { state: this.state, prune: this.options.prune, need: this.need.bind(this), step: this.step.bind(this) };
    for (const object of objects) await planGrants(ctx, object);
  }

  customFields(fields: NonNullable<OrgFile['customFields']>): void {
    fields.forEach((field, i) => {
      const current = this.state.customFields.find((c) => c.name === field.name);
      const editable = { title: field.title, description: field.description, placeholder: field.placeholder, options: field.options };
      this.known.set(`customField:${field.name}`, field.name);
      if (!current) {
        this.step('+', 'custom field', field.name, diffFields({ type: field.type, ...editable }, {}), [
          { route: 'createOrganizationCustomField', params: this.org, body: defined({ name: field.name, type: field.type, ...editable }) },
        ]);
        return;
      }
      if (current.type !== field.type) {
        throw fileError(this.where(['customFields', i, 'type']), ['customFields', i, 'type'], `the API cannot change the type of custom field ${field.name} (${current.type} → ${field.type})`, 'give the field a new name, or delete it first');
      }
      const changes = diffFields(editable, current as unknown as Record<string, unknown>);
      if (changes.length) {
        this.step('~', 'custom field', field.name, changes, [{ route: 'updateOrganizationCustomField', params: { ...this.org, fieldName: field.name }, body: bodyOf(changes) }]);
      }
    });
  }

  members(members: NonNullable<OrgFile['members']>): void {
    const byEmail = new Map(this.state.members.map((m) => [m.email.toLowerCase(), m]));
    for (const m of this.state.members) this.known.set(`member:${m.email.toLowerCase()}`, m.id);
    for (const member of members) {
      const key = member.email.toLowerCase();
      const current = byEmail.get(key);
      const role = member.role === undefined ? undefined : member.role === 'guest' ? null : member.role;
      if (!current) {
        this.created.add(`member:${key}`);
        this.step('+', 'member', member.email, role === undefined ? [] : [{ field: 'role', to: member.role }], [
          { route: 'inviteUsersToOrganization', params: this.org, body: { emails: [role === undefined ? member.email : { email: member.email, role }] } },
        ]);
      } else if (role !== undefined && role !== current.role) {
        this.step('~', 'member', member.email, [{ field: 'role', from: current.role ?? 'guest', to: member.role }], [
          { route: 'updateMemberInOrganizationById', params: { ...this.org, userId: current.id }, body: { role } },
        ]);
      }
    }
  }

  collections(list: readonly FileCollection[], parentKey: string | undefined, path: FieldPath): void {
    const parentId = parentKey === undefined ? undefined : this.resolve(parentKey);
    list.forEach((collection, i) => {
      const here = [...path, i];
      const name = parentKey === undefined ? collection.title : `${parentKey.slice('collection:'.length)}/${collection.title}`;
      const key = `collection:${name}`;
      const current = collection.id
        ? this.pinned(this.state.collections, collection.id, here, 'collection')
        : typeof parentId === 'object'
          ? undefined
          : this.byName(this.state.collections, collection.title, parentId, [...here, 'title'], 'collection', name);
      const settings = { description: collection.description, defaultLevel: collection.defaultLevel };
      if (!current) {
        this.created.add(key);
        const requests: PlannedRequest[] = [
          { route: 'createCollection', params: this.org, body: defined({ title: collection.title, parent: parentId }), bind: { [key]: 'id' } },
        ];
        const changes = diffFields(settings, {});
        if (changes.length) requests.push({ route: 'updateCollectionById', params: { collectionId: ref(key) }, body: bodyOf(changes) });
        this.step('+', 'collection', name, changes, requests);
      } else {
        this.match(key, current.id);
        const changes = diffFields({ title: collection.title, ...settings }, current as unknown as Record<string, unknown>);
        const requests: PlannedRequest[] = [];
        if (changes.length) requests.push({ route: 'updateCollectionById', params: { collectionId: current.id }, body: bodyOf(changes) });
        if (!same(typeof parentId === 'object' ? parentKey : parentId, current.parent)) {
          changes.push({ field: 'parent', from: current.parent ? this.state.collectionPath(current.parent) : null, to: parentKey?.slice('collection:'.length) ?? null });
          requests.push({ route: 'moveCollection', params: { collectionId: current.id }, body: { parent: parentId ?? null } });
        }
        if (requests.length) this.step('~', 'collection', name, changes, requests);
      }
      this.collections(collection.collections ?? [], key, [...here, 'collections']);
    });
  }

  async spaces(spaces: readonly FileSpace[]): Promise<void> {
    // Custom-field values are read per space: those of the spaces the file gives values to, at once.
    const withFields = spaces.filter((space) => space.customFields);
    const titles = new Set(withFields.map((space) => space.title));
    const pinnedIds = new Set(withFields.map((space) => space.id));
    for (const space of this.state.spaces) if (titles.has(space.title) || pinnedIds.has(space.id)) this.state.spaceFields(space.id).catch(() => undefined);
    // The Git sources of the spaces that name one, read at once as well.
    const withGit = spaces.filter((space) => space.git);
    const gitTitles = new Set(withGit.map((space) => space.title));
    const gitIds = new Set(withGit.map((space) => space.id));
    for (const space of this.state.spaces) if (gitTitles.has(space.title) || gitIds.has(space.id)) this.state.spaceGit(space.id).catch(() => undefined);
    for (const [i, space] of spaces.entries()) {
      const here = ['spaces', i];
      const parentKey = space.parent ? `collection:${space.parent}` : undefined;
      const parentId = parentKey ? this.need(parentKey, [...here, 'parent'], `collection "${space.parent}"`, 'add it to collections, or fix the title path') : undefined;
      const name = space.parent ? `${space.parent}/${space.title}` : space.title;
      const key = `space:${name}`;
      const current = space.id
        ? this.pinned(this.state.spaces, space.id, here, 'space')
        : typeof parentId === 'object'
          ? undefined
          : this.byName(this.state.spaces, space.title, parentId, [...here, 'title'], 'space', name);
      const moved = current !== undefined && !same(typeof parentId === 'object' ? parentKey : parentId, current.parent);
      const visibilityAfter = !current || moved ? (parentId ? 'in-collection' : 'private') : current.visibility;
      if (space.visibility !== undefined && space.visibility !== visibilityAfter) {
        throw fileError(this.where([...here, 'visibility']), [...here, 'visibility'], `the API cannot make this space ${space.visibility}: it would be ${visibilityAfter}`, 'a space is in-collection inside a collection and private at the top; publish it through a site');
      }
      const fields = await this.spaceFieldChanges(space, current?.id, here);
      const settings = { emoji: space.emoji, editMode: space.editMode, language: space.language, defaultLevel: space.defaultLevel };
      const fieldsRequest = (spaceId: string | Ref): PlannedRequest => ({
        route: 'updateSpaceCustomFields',
        params: { spaceId },
        body: { values: Object.fromEntries(fields.map((c) => [c.field.slice('customFields.'.length), { value: c.to }])) },
      });
      if (!current) {
        this.created.add(key);
        const { defaultLevel, ...createFields } = settings;
        const requests: PlannedRequest[] = [
          { route: 'createSpace', params: this.org, body: defined({ title: space.title, ...createFields, parent: parentId }), bind: { [key]: 'id' } },
        ];
        if (defaultLevel !== undefined) requests.push({ route: 'updateSpaceById', params: { spaceId: ref(key) }, body: { defaultLevel } });
        if (fields.length) requests.push(fieldsRequest(ref(key)));
        const git = space.git ? gitImport(space.git, ref(key), undefined) : undefined;
        if (git) requests.push(git.request);
        this.step('+', 'space', name, [...diffFields(settings, {}), ...fields, ...(git ? [git.change] : [])], requests);
        continue;
      }
      this.match(key, current.id);
      const changes = diffFields({ title: space.title, ...settings }, { ...current, emoji: current.emoji || undefined } as unknown as Record<string, unknown>);
      const requests: PlannedRequest[] = [];
      if (changes.length) requests.push({ route: 'updateSpaceById', params: { spaceId: current.id }, body: bodyOf(changes) });
      if (moved) {
        changes.push({ field: 'parent', from: current.parent ? this.state.collectionPath(current.parent) : null, to: space.parent ?? null });
        requests.push({ route: 'moveSpace', params: { spaceId: current.id }, body: { parent: parentId ?? null } });
      }
      if (fields.length) requests.push(fieldsRequest(current.id));
      changes.push(...fields);
      const git = space.git ? gitImport(space.git, current.id, await this.state.spaceGit(current.id)) : undefined;
      if (git) {
        changes.push(git.change);
        requests.push(git.request);
      }
      if (requests.length) this.step('~', 'space', name, changes, requests);
    }
  }

  private async spaceFieldChanges(space: FileSpace, spaceId: string | undefined, here: FieldPath): Promise<FieldChange[]> {
    if (!space.customFields) return [];
    for (const fieldName of Object.keys(space.customFields)) {
      this.need(`customField:${fieldName}`, [...here, 'customFields', fieldName], `custom field "${fieldName}"`, 'add it to customFields');
    }
    const current = spaceId ? await this.state.spaceFields(spaceId) : {};
    return diffFields(space.customFields, current).map((change) => ({ ...change, field: `customFields.${change.field}` }));
  }

  async teams(teams: NonNullable<OrgFile['teams']>): Promise<void> {
    // The memberships of the teams the file names, read at once rather than one after another.
    const titles = new Set(teams.filter((team) => team.members && !team.id).map((team) => team.title));
    const pinnedIds = new Set(teams.filter((team) => team.members && team.id).map((team) => team.id));
    this.state.prefetchTeamMembers(this.state.teams.filter((team) => titles.has(team.title) || pinnedIds.has(team.id)).map((team) => team.id));
    for (const [i, team] of teams.entries()) {
      const here = ['teams', i];
      const current = team.id ? this.pinned(this.state.teams, team.id, here, 'team') : this.byName(this.state.teams, team.title, undefined, [...here, 'title'], 'team', team.title);
      const key = `team:${team.title}`;
      const wanted: SyncWanted[] | undefined = team.members?.map((member, m) => {
        const email = typeof member === 'string' ? member : member.email;
        this.need(`member:${email.toLowerCase()}`, [...here, 'members', m], `member ${email}`, 'add them to members first');
        return { ref: email, role: typeof member === 'string' ? 'member' : member.role, line: m + 1 };
      });
      const teamId: string | Ref = current ? current.id : ref(key);
      const requests: PlannedRequest[] = [];
      const changes: FieldChange[] = [];
      if (!current) {
        this.created.add(key);
        requests.push({ route: 'createOrganizationTeam', params: this.org, body: { title: team.title }, bind: { [key]: 'id' } });
      } else {
        this.match(key, current.id);
        if (current.title !== team.title) {
          changes.push({ field: 'title', from: current.title, to: team.title });
          requests.push({ route: 'updateTeamInOrganizationById', params: { ...this.org, teamId: current.id }, body: { title: team.title } });
        }
      }
      if (wanted) {
        const members: SyncCurrent[] = current ? await this.state.teamMembers(current.id) : [];
        const sync = planSync(wanted, members);
        for (const change of sync.steps) {
          changes.push({ field: `members.${change.user}`, ...(change.op === '+' ? {} : { from: change.from ?? change.role }), ...(change.op === '-' ? {} : { to: change.role }) });
        }
        if (sync.steps.length) requests.push({ route: 'updateMembersInOrganizationTeam', params: { ...this.org, teamId }, body: batchBody(sync) });
      }
      if (requests.length) this.step(current ? '~' : '+', 'team', team.title, changes, requests);
    }
  }

  async sites(sites: readonly FileSite[]): Promise<void> {
    for (const [i, site] of sites.entries()) {
      const here = ['sites', i];
      const current = site.id ? this.pinned(this.state.sites, site.id, here, 'site') : this.byName(this.state.sites, site.title, undefined, [...here, 'title'], 'site', site.title);
      const key = `site:${site.title}`;
      const settings = { type: site.type, visibility: site.visibility };
      if (!current) {
        this.created.add(key);
        this.step('+', 'site', site.title, diffFields(settings, {}), [{ route: 'createSite', params: this.org, body: defined({ title: site.title, ...settings }), bind: { [key]: 'id' } }]);
      } else {
        this.match(key, current.id);
        if (site.type !== undefined && site.type !== current.type) {
          throw fileError(this.where([...here, 'type']), [...here, 'type'], `the API cannot change the type of site "${site.title}" (${current.type} → ${site.type})`, 'change it in the GitBook app, or leave type out');
        }
        const changes = diffFields({ title: site.title, visibility: site.visibility }, current as unknown as Record<string, unknown>);
        if (changes.length) this.step('~', 'site', site.title, changes, [{ route: 'updateSiteById', params: { ...this.org, siteId: current.id }, body: bodyOf(changes) }]);
      }
      await new SitePlanner(this, site, here, current ? await this.state.site(current.id) : undefined, current ? current.id : ref(key)).plan();
    }
  }

  /** For the site planner: resolution and steps. */
  siteContext() {
    return {
      org: this.org,
      state: this.state,
      prune: this.options.prune,
      where: (path: FieldPath) => this.where(path),
      resolve: (key: string) => this.resolve(key),
      need: (key: string, path: FieldPath, what: string, hint: string) => this.need(key, path, what, hint),
      know: (key: string, id: string) => this.known.set(key, id),
      create: (key: string) => this.created.add(key),
      step: (op: StepOp, kind: string, name: string, changes: FieldChange[], requests: PlannedRequest[]) => this.step(op, kind, name, changes, requests),
      kinds: this.kinds,
    };
  }

  /** --prune: every object of a kind the file lists that the file does not name. */
  async prune(file: OrgFile): Promise<void> {
    await this.kinds.prune(file);
    const kept = this.matched;
    if (file.sites) {
      for (const site of this.state.sites.filter((s) => !kept.has(s.id))) {
        this.step('-', 'site', site.title, [], [{ route: 'deleteSiteById', params: { ...this.org, siteId: site.id } }]);
      }
    }
    if (file.teams) {
      for (const team of this.state.teams.filter((t) => !kept.has(t.id))) {
        this.step('-', 'team', team.title, [], [{ route: 'removeTeamFromOrganizationById', params: { ...this.org, teamId: team.id } }]);
      }
    }
    if (file.spaces) {
      for (const space of this.state.spaces.filter((s) => !kept.has(s.id))) {
        this.step('-', 'space', this.state.spacePath(space), [], [{ route: 'deleteSpaceById', params: { spaceId: space.id } }]);
      }
    }
    if (file.collections) {
      const depth = (id: string) => this.state.collectionPath(id).split('/').length;
      const gone = this.state.collections.filter((c) => !kept.has(c.id)).sort((a, b) => depth(b.id) - depth(a.id));
      for (const collection of gone) {
        this.step('-', 'collection', this.state.collectionPath(collection.id), [], [{ route: 'deleteCollectionById', params: { collectionId: collection.id } }]);
      }
    }
    if (file.members) {
      const kept = new Set(file.members.map((m) => m.email.toLowerCase()));
      for (const member of this.state.members.filter((m) => !kept.has(m.email.toLowerCase()))) {
        if (member.id === this.options.selfId) {
          this.notes.push(`kept member ${member.email}: the token acts as them (--prune never removes you)`);
          continue;
        }
        this.step('-', 'member', member.email, [], [{ route: 'removeMemberFromOrganizationById', params: { ...this.org, userId: member.id } }]);
      }
    }
    if (file.customFields) {
      const kept = new Set(file.customFields.map((f) => f.name));
      for (const field of this.state.customFields.filter((f) => !kept.has(f.name))) {
        this.step('-', 'custom field', field.name, [], [{ route: 'deleteOrganizationCustomField', params: { ...this.org, fieldName: field.name } }]);
      }
    }
  }
}

type SiteContext = ReturnType<Planner['siteContext']>;

/** A site's sections, root site spaces, share links, redirects and customization. */
class SitePlanner {
  private readonly ctx: SiteContext;

  constructor(
    planner: Planner,
    private readonly site: FileSite,
    private readonly here: FieldPath,
    private readonly current: Awaited<ReturnType<OrgState['site']>> | undefined,
    private readonly siteId: string | Ref,
  ) {
    this.ctx = planner.siteContext();
  }

  private get params() {
    return { ...this.ctx.org, siteId: this.siteId };
  }

  async plan(): Promise<void> {
    this.sectionGroups(this.site.sectionGroups ?? [], undefined, [...this.here, 'sectionGroups']);
    this.sections();
    this.rootSpaces();
    this.shareLinks();
    this.redirects();
    await this.customization();
    const target = { site: this.site, here: this.here, params: this.params, currentId: typeof this.siteId === 'string' ? this.siteId : undefined };
    await planSiteAgentSettings(this.ctx, target);
    await planSiteChannels(this.ctx, target);
    if (this.ctx.prune) this.pruneParts();
  }

  private spaceRef(path: FieldPath, spacePath: string): string | Ref {
    return this.ctx.need(`space:${spacePath}`, path, `space "${spacePath}"`, 'add it to spaces, or fix the title path');
  }

  /** Every section the file gives the site, at the top or in a group (`group`: the group's title), with where it is. */
  private wantedSections(): Array<{ section: FileSiteSection; here: FieldPath; group?: FileSectionGroup }> {
    const out: Array<{ section: FileSiteSection; here: FieldPath; group?: FileSectionGroup }> = [];
    (this.site.sections ?? []).forEach((section, i) => out.push({ section, here: [...this.here, 'sections', i] }));
    const walk = (groups: readonly FileSectionGroup[], path: FieldPath) =>
      groups.forEach((group, g) => {
        const here = [...path, g];
        (group.sections ?? []).forEach((section, i) => out.push({ section, here: [...here, 'sections', i], group }));
        walk(group.sectionGroups ?? [], [...here, 'sectionGroups']);
      });
    walk(this.site.sectionGroups ?? [], [...this.here, 'sectionGroups']);
    return out;
  }

  /** A group's reference key: by id when pinned (two groups of a site may share a title), else by title. */
  private groupKey(group: FileSectionGroup): string {
    return group.id ? `group:${this.site.title}/#${group.id}` : `group:${this.site.title}/${group.title}`;
  }

  /** Ids of the current groups the file names (--prune deletes the others). */
  private readonly keptGroups = new Set<string>();

  /** Section groups, parents first: created, renamed (when pinned), icon and draft changed. */
  private sectionGroups(groups: readonly FileSectionGroup[], parent: FileSectionGroup | undefined, path: FieldPath): void {
    const title = this.site.title;
    const list = this.current?.sectionGroups ?? [];
    groups.forEach((group, g) => {
      const here = [...path, g];
      const key = this.groupKey(group);
      const name = `${title}/${group.title}`;
      const parentId = parent ? this.ctx.resolve(this.groupKey(parent)) : undefined;
      const named = group.id ? [] : list.filter((c) => c.title === group.title);
      if (named.length > 1) throw fileError(this.ctx.where([...here, 'title']), [...here, 'title'], `${named.length} section groups of site "${title}" are titled "${group.title}" (${named.map((c) => c.id).join(', ')})`, 'pin the one you mean with id:');
      const current = group.id ? list.find((c) => c.id === group.id) : named[0];
      if (group.id && !current) throw fileError(this.ctx.where([...here, 'id']), [...here, 'id'], `no section group with id ${group.id} in site "${title}"`, 'remove the id to create it');
      if (current) this.keptGroups.add(current.id);
      const settings = { icon: group.icon, draft: group.draft };
      if (!current) {
        this.ctx.create(key);
        this.ctx.step('+', 'section group', name, diffFields({ ...settings, parent: parent?.title }, {}), [
          { route: 'addSectionGroupToSite', params: this.params, body: defined({ title: group.title, ...settings, parent: parentId }), bind: { [key]: 'id' } },
        ]);
      } else {
        this.ctx.know(key, current.id);
        if (typeof parentId === 'object' || parentId !== current.parent) {
          throw fileError(this.ctx.where([...here, 'title']), [...here, 'title'], `section group "${group.title}" is in another group now; the API cannot move a group into another`, 'give the group a new title (and --prune the old one)');
        }
        const changes = diffFields({ title: group.title, ...settings }, { ...current, draft: current.draft === true } as unknown as Record<string, unknown>);
        if (changes.length) this.ctx.step('~', 'section group', name, changes, [{ route: 'updateSiteSectionGroupById', params: { ...this.params, siteSectionGroupId: current.id }, body: bodyOf(changes) }]);
      }
      this.sectionGroups(group.sectionGroups ?? [], group, [...here, 'sectionGroups']);
    });
  }

  private sections(): void {
    const title = this.site.title;
    const groupTitle = new Map((this.current?.sectionGroups ?? []).map((g) => [g.id, g.title]));
    for (const { section, here, group } of this.wantedSections()) {
      const spaceId = this.spaceRef([...here, 'space'], section.space);
      const key = `section:${title}/${section.title}`;
      const name = `${title}/${section.title}`;
      const list = this.current?.sections ?? [];
      const current = section.id ? list.find((s) => s.id === section.id) : list.find((s) => s.title === section.title);
      if (section.id && !current) throw fileError(this.ctx.where([...here, 'id']), [...here, 'id'], `no section with id ${section.id} in site "${title}"`, 'remove the id to create it');
      const siteSpaceKey = `siteSpace:${title}/${section.space}`;
      const groupId = group === undefined ? undefined : (this.ctx.resolve(this.groupKey(group)) as string | Ref);
      const intoGroup = (sectionId: string | Ref): PlannedRequest => ({ route: 'addSectionToGroup', params: { ...this.params, siteSectionGroupId: groupId as string | Ref }, body: { sectionId } });
      if (!current) {
        this.ctx.create(key);
        this.ctx.create(siteSpaceKey);
        const requests: PlannedRequest[] = [
          { route: 'addSectionToSite', params: this.params, body: defined({ spaceId, title: section.title, draft: section.draft }), bind: { [key]: 'id', [siteSpaceKey]: 'siteSpaces.0.id' } },
        ];
        if (section.path) requests.push({ route: 'updateSiteSectionById', params: { ...this.params, siteSectionId: ref(key) }, body: { path: section.path } });
        if (groupId !== undefined) requests.push(intoGroup(ref(key)));
        this.ctx.step('+', 'site section', name, diffFields({ space: section.space, path: section.path, draft: section.draft, group: group?.title }, {}), requests);
        continue;
      }
      this.ctx.know(key, current.id);
      if (current.siteSpaceId) this.ctx.know(siteSpaceKey, current.siteSpaceId);
      if (typeof spaceId === 'object' || spaceId !== current.spaceId) {
        throw fileError(this.ctx.where([...here, 'space']), [...here, 'space'], `section "${section.title}" shows another space now; the API cannot swap it`, 'give the section a new title (and --prune the old one)');
      }
      const changes = diffFields({ title: section.title, path: section.path, draft: section.draft }, current as unknown as Record<string, unknown>);
      const requests: PlannedRequest[] = [];
      if (changes.length) requests.push({ route: 'updateSiteSectionById', params: { ...this.params, siteSectionId: current.id }, body: bodyOf(changes) });
      if (groupId !== current.group) {
        changes.push({ field: 'group', from: current.group === undefined ? undefined : groupTitle.get(current.group), to: group?.title });
        if (groupId !== undefined) requests.push(intoGroup(current.id));
        else requests.push({ route: 'removeSectionFromGroup', params: { ...this.params, siteSectionGroupId: current.group as string, siteSectionId: current.id } });
      }
      if (requests.length) this.ctx.step('~', 'site section', name, changes, requests);
    }
  }

  private rootSpaces(): void {
    const title = this.site.title;
    (this.site.spaces ?? []).forEach((entry, i) => {
      const here = [...this.here, 'spaces', i];
      const spaceId = this.spaceRef([...here, 'space'], entry.space);
      const key = `siteSpace:${title}/${entry.space}`;
      const name = `${title}/${entry.space}`;
      const current = typeof spaceId === 'string' ? this.current?.siteSpaces.find((s) => s.spaceId === spaceId && !s.sectionId) : undefined;
      if (!current) {
        this.ctx.create(key);
        const requests: PlannedRequest[] = [{ route: 'addSpaceToSite', params: this.params, body: { spaceId }, bind: { [key]: 'id' } }];
        if (entry.path) requests.push({ route: 'updateSiteSpaceById', params: { ...this.params, siteSpaceId: ref(key) }, body: { path: entry.path } });
        this.ctx.step('+', 'site space', name, diffFields({ path: entry.path }, {}), requests);
        return;
      }
      this.ctx.know(key, current.id);
      const changes = diffFields({ path: entry.path }, current as unknown as Record<string, unknown>);
      if (changes.length) this.ctx.step('~', 'site space', name, changes, [{ route: 'updateSiteSpaceById', params: { ...this.params, siteSpaceId: current.id }, body: bodyOf(changes) }]);
    });
  }

  private shareLinks(): void {
    for (const link of this.site.shareLinks ?? []) {
      if (this.current?.shareLinks.some((l) => l.name === link.name)) continue;
      this.ctx.step('+', 'share link', `${this.site.title}/${link.name}`, [], [{ route: 'createSiteShareLink', params: this.params, body: { name: link.name } }]);
    }
  }

  private redirects(): void {
    (this.site.redirects ?? []).forEach((redirect, i) => {
      const here = [...this.here, 'redirects', i];
      const destination =
        'section' in redirect.destination
          ? {
              kind: 'site-section',
              siteSectionId: this.ctx.need(`section:${this.site.title}/${redirect.destination.section}`, [...here, 'destination', 'section'], `section "${redirect.destination.section}" in this site`, 'add it to the sections'),
            }
          : {
              kind: 'site-space',
              siteSpaceId: this.ctx.need(`siteSpace:${this.site.title}/${redirect.destination.space}`, [...here, 'destination', 'space'], `site space of "${redirect.destination.space}" in this site`, 'add the space to the site'),
            };
      const flags = { permanent: redirect.permanent, captureWildcard: redirect.captureWildcard, draft: redirect.draft };
      const name = `${this.site.title}${redirect.source}`;
      const current = this.current?.redirects.find((r) => r.source === redirect.source);
      if (!current) {
        this.ctx.step('+', 'redirect', name, diffFields({ destination: describe(redirect.destination), ...flags }, {}), [
          { route: 'createSiteRedirect', params: this.params, body: defined({ source: redirect.source, destination, ...flags }) },
        ]);
        return;
      }
      const changes = diffFields(flags, current as unknown as Record<string, unknown>);
      if (!sameDestination(destination, current.destination)) changes.push({ field: 'destination', to: describe(redirect.destination) });
      if (changes.length) {
        const body = { ...bodyOf(changes.filter((c) => c.field !== 'destination')), ...(changes.some((c) => c.field === 'destination') ? { destination } : {}) };
        this.ctx.step('~', 'redirect', name, changes, [{ route: 'updateSiteRedirectById', params: { ...this.params, siteRedirectId: current.id }, body }]);
      }
    });
  }

  private async customization(): Promise<void> {
    const wanted = this.site.customization;
    if (!wanted) return;
    // Fonts are compared as the file names them ({fontFamily: Inter}) and sent as the API takes them (the whole definition).
    const body = await this.ctx.kinds.customization(wanted, [...this.here, 'customization']);
    const current = this.current ? (body === wanted ? this.current.customization : customizationFileForm(this.current.customization, await this.ctx.state.fonts())) : {};
    const changes = leafChanges(wanted, current, 'customization');
    if (body !== wanted && this.current) changes.push(...this.ctx.kinds.staleFonts(body, this.current.customization));
    if (!changes.length) return;
    this.ctx.step(this.current ? '~' : '+', 'site customization', this.site.title, changes, [
      { route: 'updateSiteCustomizationById', params: this.params, body, mergeWith: 'getSiteCustomizationById' },
    ]);
  }

  private pruneParts(): void {
    if (!this.current) return;
    const title = this.site.title;
    if (this.site.redirects) {
      const kept = new Set(this.site.redirects.map((r) => r.source));
      for (const redirect of this.current.redirects.filter((r) => !kept.has(r.source))) {
        this.ctx.step('-', 'redirect', `${title}${redirect.source}`, [], [{ route: 'deleteSiteRedirectById', params: { ...this.params, siteRedirectId: redirect.id } }]);
      }
    }
    if (this.site.shareLinks) {
      const kept = new Set(this.site.shareLinks.map((l) => l.name));
      for (const link of this.current.shareLinks.filter((l) => !kept.has(l.name))) {
        this.ctx.step('-', 'share link', `${title}/${link.name}`, [], [{ route: 'deleteSiteShareLinkById', params: { ...this.params, shareLinkId: link.id } }]);
      }
    }
    if (this.site.sectionGroups) {
      const kept = this.keptGroups;
      const byId = new Map(this.current.sectionGroups.map((g) => [g.id, g]));
      const depth = (id: string | undefined): number => (id === undefined ? 0 : 1 + depth(byId.get(id)?.parent));
      const gone = this.current.sectionGroups.filter((g) => !kept.has(g.id)).sort((a, b) => depth(b.id) - depth(a.id));
      for (const group of gone) {
        this.ctx.step('-', 'section group', `${title}/${group.title}`, [], [{ route: 'deleteSiteSectionGroupById', params: { ...this.params, siteSectionGroupId: group.id } }]);
      }
    }
    if (this.site.sections || this.site.sectionGroups) {
      const kept = new Set(this.wantedSections().map(({ section }) => section.title));
      for (const section of this.current.sections.filter((s) => !kept.has(s.title))) {
        this.ctx.step('-', 'site section', `${title}/${section.title}`, [], [{ route: 'deleteSiteSectionById', params: { ...this.params, siteSectionId: section.id } }]);
      }
    }
    if (this.site.spaces) {
      const kept = new Set(this.site.spaces.map((s) => this.ctx.resolve(`space:${s.space}`)));
      for (const siteSpace of this.current.siteSpaces.filter((s) => !s.sectionId && !kept.has(s.spaceId))) {
        const space = this.ctx.state.spaces.find((s) => s.id === siteSpace.spaceId);
        this.ctx.step('-', 'site space', `${title}/${space ? this.ctx.state.spacePath(space) : siteSpace.spaceId}`, [], [
          { route: 'deleteSiteSpaceById', params: { ...this.params, siteSpaceId: siteSpace.id } },
        ]);
      }
    }
  }
}

const describe = (destination: { section: string } | { space: string }) => ('section' in destination ? `section ${destination.section}` : `space ${destination.space}`);

function sameDestination(wanted: { kind: string; siteSectionId?: string | Ref; siteSpaceId?: string | Ref }, current: CurrentRedirect['destination']): boolean {
  if (wanted.kind !== current.kind) return false;
  return wanted.kind === 'site-section' ? wanted.siteSectionId === current.siteSectionId : wanted.siteSpaceId === current.siteSpaceId;
}

/** A branch name as the import route takes it (`main` → `refs/heads/main`); HEAD when none is given. */
function fullRef(ref: string | undefined): string {
  if (ref === undefined) return 'HEAD';
  return ref === 'HEAD' || ref.startsWith('refs/') || /^[0-9a-f]{40}$/i.test(ref) ? ref : `refs/heads/${ref}`;
}

const trimSlashes = (dir: string | undefined) => (dir ?? '').replace(/^\/+|\/+$/g, '');

/** A URL as the server records it: without its credentials (a path as it is). */
function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.href;
  } catch {
    return url;
  }
}

const describeGit = (git: CurrentGit) => `${git.url} ${git.ref}${git.dir ? ` ${git.dir}/` : ''}`;

/**
 * The import that makes a space's content its Git source's: for a new space, or one whose
 * repository, ref or directory differ from what it last synced with. A space synced with the
 * same source plans nothing (Git Sync keeps it current; `git import` pulls a new commit).
 */
function gitImport(source: FileGitSource, spaceId: string | Ref, current: CurrentGit | undefined): { change: FieldChange; request: PlannedRequest } | undefined {
  const wanted: CurrentGit = { url: source.url, ref: fullRef(source.ref), dir: trimSlashes(source.dir) };
  if (current && withoutCredentials(wanted.url) === current.url && wanted.ref === current.ref && wanted.dir === trimSlashes(current.dir)) return undefined;
  return {
    change: { field: 'git', ...(current ? { from: describeGit(current) } : {}), to: describeGit({ ...wanted, url: withoutCredentials(wanted.url) }) },
    request: { route: 'importGitRepository', params: { spaceId }, body: { url: wanted.url, ref: wanted.ref, ...(wanted.dir ? { repoProjectDirectory: wanted.dir } : {}) } },
  };
}

/** The leaves of `wanted` that differ from `current` (objects compared key by key, anything else as a whole). */
export function leafChanges(wanted: unknown, current: unknown, path: string): FieldChange[] {
  if (wanted && typeof wanted === 'object' && !Array.isArray(wanted)) {
    const base = current && typeof current === 'object' && !Array.isArray(current) ? (current as Record<string, unknown>) : {};
    return Object.entries(wanted).flatMap(([key, value]) => leafChanges(value, base[key], `${path}.${key}`));
  }
  return same(wanted, current) ? [] : [{ field: path, from: current, to: wanted }];
}

export async function planOrganization(located: Located, state: OrgState, options: PlanOptions): Promise<Plan> {
  const planner = new Planner(located, state, options);
  const file = located.file;
  planner.seed();
  await planner.organization(file.organization);
  planner.customFields(file.customFields ?? []);
  planner.members(file.members ?? []);
  // Every collection and space is known by its path, so a file may refer to ones it does not list.
  planner.collections(file.collections ?? [], undefined, ['collections']);
  await planner.spaces(file.spaces ?? []);
  await planner.teams(file.teams ?? []);
  await planner.kinds.fonts(file.fonts ?? []);
  await planner.kinds.openAPISpecs(file.openAPISpecs ?? []);
  await planner.sites(file.sites ?? []);
  await planner.kinds.samlProviders(file.samlProviders ?? []);
  await planner.kinds.translations(file.translations ?? []);
  await planner.permissions(file);
  if (options.prune) await planner.prune(file);
  return { steps: [...planner.steps, ...planner.deletions], notes: planner.notes };
}

export function summarize(plan: Plan): { create: number; change: number; delete: number } {
  const count = (op: StepOp) => plan.steps.filter((step) => step.op === op).length;
  return { create: count('+'), change: count('~'), delete: count('-') };
}
