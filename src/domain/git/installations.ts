/**
 * Git Sync installations (`installGitSyncProviderOnTarget`, get, update, uninstall,
 * the GitHub and GitLab listings, `listSiteGitSyncInstallations`).
 *
 * GitBook installs its GitHub App or a GitLab token on a space or a site, then picks
 * a repository and a branch among those the provider grants. docsctl has no provider
 * to ask: the provider it models is a set of Git repositories given by URL when the
 * installation is made or updated (`repositories`, a docsctl extension; a space that
 * already syncs with Git starts with its repository). Each is checked against the
 * caller's policy (reach.ts: under `serve`, local paths only below `--allow-local`,
 * no private addresses unless allowed; a URL git must never see is a 400) when it is
 * given and again whenever it is read, and never holds credentials. A repository's
 * number (GitHub's `repositoryId`, GitLab's `projectId`) is its place in the list
 * (1, 2, …); its account and name are its URL's last two path segments.
 *
 * The listings answer from those repositories, through git: the default branch and
 * the branches by `ls-remote` (nothing fetched), a file by fetching the branch into
 * the mirror cache and reading its tree (`cat-file --batch-check`). A repository
 * that cannot be reached lists with `defaultBranch: null`.
 *
 * Status: `pending` until the installation names a repository and a branch that
 * exists; then `active`, with the repository connection and ref (the commit the
 * branch pointed at when it was chosen). A space installation made with `siteId`
 * belongs to the site's installation (`parentInstallationId`) and takes its
 * repository, branch and options; uninstalling the site's installation removes its
 * space installations. One installation per space or site (409).
 *
 * Rows: `gitInstallations` (id → record), `gitInstallations.target`
 * (`space:ID` / `site:ID` → installation id), `gitInstallations.children` (KeyedSet:
 * parent → child ids).
 */
import { ApiError, badRequest, conflict, notFound } from '../../api/errors.js';
import type { StoreReader, StoreWriter } from '../../store/types.js';
import type { RepoUrl } from '../../git/credentials.js';
import type { Mirror } from '../../git/repo.js';
import type { HandlerContext, PrepareContext } from '../handler.js';
import { KeyedSet } from '../ordered.js';
import { apiUrl } from '../urls.js';
import type { MemberRole } from '../core-records.js';
import { getSpace, requireOrg } from '../core-records.js';
import { requireRole, roleIn } from '../permissions.js';
import { getSite, siteSpacesOfSite, getSiteSpace } from '../sites/site-records.js';
import { getGitSync } from './state.js';

export type Provider = 'github' | 'gitlab';
export type InstallationTarget = { type: 'space'; spaceId: string; siteId?: string | undefined } | { type: 'site'; siteId: string };

/** A repository the installation may use: its number, its URL (no credentials) and the names shown for it. */
export interface InstalledRepository {
  id: number;
  url: string;
  accountName: string;
  repositoryName: string;
}

export interface Setup {
  projectDirectory?: string | undefined;
  commitMessageTemplate?: string | undefined;
  previewExternalBranches?: boolean | undefined;
  agentInstructions?: Array<'agents' | 'claude'> | undefined;
  priority?: 'git' | 'gitbook' | undefined;
}

export interface InstallationRecord extends Setup {
  id: string;
  organization: string;
  provider: Provider;
  target: InstallationTarget;
  parentInstallationId?: string;
  repositories: InstalledRepository[];
  /** The chosen repository (its number) and branch (`refs/heads/…`); GitLab's self-hosted instance URL. */
  repositoryId?: number;
  branch?: string;
  customInstanceURL?: string;
  /** Set when a repository and branch were chosen and found: the branch's commit then, the remote's default branch. */
  connection?: { observedCommit: string; defaultBranch: string | null; connectedAt: string };
  createdAt: string;
  createdBy: string;
  updatedAt: string;
}

/** At most this many repositories per installation, and branches per listing. */
export const MAX_REPOSITORIES = 100;
export const MAX_BRANCHES = 1000;

const TABLE = 'gitInstallations';
const TARGETS = 'gitInstallations.target';
const children = new KeyedSet<null>('gitInstallations.children');

export const getInstallation = (tx: StoreReader, id: string) => (id.includes('/') ? undefined : tx.get<InstallationRecord>(TABLE, id));
const targetKey = (target: InstallationTarget) => (target.type === 'site' ? `site:${target.siteId}` : `space:${target.spaceId}`);

/** The installation of a space (its Git Sync state names it), if it has one: id, provider, status. */
export function spaceInstallationState(tx: StoreReader, spaceId: string): { id: string; provider: Provider; status: 'active' | 'pending' } | undefined {
  const id = tx.get<string>(TARGETS, `space:${spaceId}`);
  const record = id === undefined ? undefined : getInstallation(tx, id);
  if (!record) return undefined;
  const status = installationView({ origin: '', tx }, record).status as 'active' | 'pending';
  return { id: record.id, provider: record.provider, status };
}

/** The organization an installation belongs to (access.ts scopes). */
export const organizationOfInstallation = (tx: StoreReader, id: string) => getInstallation(tx, id)?.organization;

type Ctx = Pick<HandlerContext, 'actor' | 'clock'>;

/** The organization of the target, once the caller holds `min` there (404 for what they cannot see). */
function targetOrganization(tx: StoreReader, ctx: Ctx, target: InstallationTarget, min: MemberRole): string {
  let organization: string | undefined;
  let what: string;
  if (target.type === 'space') {
    const space = getSpace(tx, target.spaceId);
    organization = space && space.deletedAt === undefined ? space.organization : undefined;
    what = `Space ${target.spaceId}`;
  } else {
    organization = getSite(tx, target.siteId)?.organization;
    what = `Site ${target.siteId}`;
  }
  const role = organization === undefined ? undefined : roleIn(tx, organization, ctx.actor.userId);
  if (organization === undefined || role === undefined) throw notFound(`${what} not found`);
  // The target is named by the body, not the path: its organization's role is checked here.
  requireRole(role, min, organization, 'install Git Sync on it');
  return organization;
}

/**
 * The installation, when the caller is a member of its organization (404 otherwise, as
 * for an unknown id). The role its route declares was checked before (access.ts scopes
 * `installationId`); a DELETE from a non-member reaches here and gets the 404.
 */
export function requireInstallation(tx: StoreReader, ctx: Ctx, id: string): InstallationRecord {
  const record = getInstallation(tx, id);
  if (record === undefined || roleIn(tx, record.organization, ctx.actor.userId) === undefined) throw notFound(`Git Sync installation ${id} not found`);
  return record;
}

// ─── Repositories ──────────────────────────────────────────────────────────

/** Account and name from the URL's path: `https://host/acme/docs.git` → acme, docs. */
function namesOf(repo: RepoUrl): { accountName: string; repositoryName: string } {
  const path = repo.kind === 'scp' ? (/^[^:]+:(.*)$/.exec(repo.redacted)?.[1] ?? '') : repo.kind === 'path' || repo.kind === 'file' ? repo.gitUrl : new URL(repo.redacted).pathname;
  const segments = path
    .replace(/\\/g, '/')
    .split('/')
    .filter((segment) => segment !== '' && segment !== '.')
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    });
  const repositoryName = (segments.at(-1) ?? 'repository').replace(/\.git$/i, '');
  const accountName = segments.at(-2) ?? repo.host ?? 'local';
  return { accountName, repositoryName };
}

/** The repositories of `urls`, each parsed and allowed by the caller's policy (400/403), without credentials, named uniquely. */
export async function checkRepositories(ctx: Pick<PrepareContext, 'policy'>, urls: readonly string[]): Promise<InstalledRepository[]> {
  if (urls.length > MAX_REPOSITORIES) throw badRequest(`Too many repositories: an installation holds at most ${MAX_REPOSITORIES}`);
  const [{ authorizeUrl }] = await Promise.all([import('./reach.js')]);
  const repositories: InstalledRepository[] = [];
  const names = new Set<string>();
  for (const url of urls) {
    const { repo } = await authorizeUrl(url, ctx.policy);
    if (repo.username !== undefined || repo.password !== undefined) {
      throw badRequest(`Repository ${repo.redacted}: an installation keeps no credentials; give the URL without them (git's credential helper supplies them locally)`);
    }
    const { accountName, repositoryName } = namesOf(repo);
    const fullName = `${accountName}/${repositoryName}`;
    if (names.has(fullName)) throw badRequest(`Two repositories are named ${fullName}: give each installation repository a distinct account/name path`);
    names.add(fullName);
    const shown = repo.kind === 'path' ? new URL(`file://${repo.gitUrl}`).href : repo.redacted;
    repositories.push({ id: repositories.length + 1, url: shown, accountName, repositoryName });
  }
  return repositories;
}

/** The repository's mirror, checked against the caller's policy again (it may differ from the one that added it). */
async function mirrorFor(ctx: Pick<PrepareContext, 'policy' | 'git'>, repository: InstalledRepository): Promise<Mirror> {
  const [{ authorizeUrl }, { mirrorOf }, { gitSettingsOf }] = await Promise.all([import('./reach.js'), import('../../git/repo.js'), import('./plan.js')]);
  return mirrorOf(await authorizeUrl(repository.url, ctx.policy), await gitSettingsOf(ctx));
}

/** The repositories an installation uses: its own, or its parent's (a site's space installation). */
export function repositoriesOf(tx: StoreReader, record: InstallationRecord): InstallationRecord {
  if (record.parentInstallationId === undefined) return record;
  return getInstallation(tx, record.parentInstallationId) ?? record;
}

function findRepository(record: InstallationRecord, match: (repository: InstalledRepository) => boolean, what: string): InstalledRepository {
  const repository = record.repositories.find(match);
  if (repository === undefined) throw notFound(`${what} is not among the repositories of Git Sync installation ${record.id}`);
  return repository;
}

function requireProvider(record: InstallationRecord, provider: Provider): void {
  if (record.provider !== provider) {
    const other = record.provider === 'github' ? 'github/repos' : 'gitlab/projects';
    throw notFound(`Git Sync installation ${record.id} is a ${record.provider} installation: list its repositories at /git/installations/${record.id}/${other}`);
  }
}

// ─── Views ─────────────────────────────────────────────────────────────────

export function installationView(ctx: { origin: string; tx: StoreReader }, record: InstallationRecord): Record<string, unknown> {
  const source = repositoriesOf(ctx.tx, record);
  const inherited = source !== record;
  const repositoryId = source.repositoryId;
  const branch = source.branch;
  const repository = repositoryId === undefined ? undefined : source.repositories.find((entry) => entry.id === repositoryId);
  const providerConfiguration: Record<string, unknown> =
    record.provider === 'github'
      ? { ...(repositoryId !== undefined ? { repositoryId } : {}), ...(branch !== undefined ? { branch } : {}) }
      : { ...(repositoryId !== undefined ? { projectId: repositoryId } : {}), ...(branch !== undefined ? { branch } : {}), ...(source.customInstanceURL !== undefined ? { customInstanceURL: source.customInstanceURL } : {}) };
  const connection = source.connection;
  const active = repository !== undefined && branch !== undefined && connection !== undefined;
  const setup = (key: keyof Setup) => (inherited && key !== 'projectDirectory' ? source[key] : record[key]);
  const view: Record<string, unknown> = {
    object: 'git-sync-installation',
    id: record.id,
    provider: record.provider,
    providerConfiguration,
    target: record.target,
    status: active ? 'active' : 'pending',
  };
  for (const key of ['projectDirectory', 'commitMessageTemplate', 'previewExternalBranches', 'agentInstructions', 'priority'] as const) {
    const value = setup(key);
    if (value !== undefined) view[key] = value;
  }
  if (record.parentInstallationId !== undefined) view.parentInstallationId = record.parentInstallationId;
  if (active) {
    const fullName = `${repository.accountName}/${repository.repositoryName}`;
    view.repositoryConnection = {
      object: 'git-repository-connection',
      id: `${source.id}-${repository.id}`,
      provider: record.provider,
      repositoryId: String(repository.id),
      repositoryName: fullName,
      repositoryUrl: repository.url,
      ...(connection.defaultBranch !== null ? { defaultBranch: connection.defaultBranch } : {}),
      authState: 'active',
      capabilities: { pullRequests: false, commitStatuses: false },
      createdAt: connection.connectedAt,
      updatedAt: connection.connectedAt,
    };
    view.repositoryRef = {
      object: 'git-repository-ref',
      id: `${source.id}-${repository.id}-${branch}`,
      name: branch,
      type: 'branch',
      latestObservedCommitId: connection.observedCommit,
      ...latestImported(ctx.tx, record, repository.url, branch),
      updatedAt: connection.connectedAt,
    };
  }
  view.repositories = source.repositories.map((entry) => ({ id: entry.id, url: entry.url, fullName: `${entry.accountName}/${entry.repositoryName}` }));
  Object.assign(view, {
    createdAt: record.createdAt,
    createdBy: record.createdBy,
    updatedAt: record.updatedAt,
    urls: { location: apiUrl(origin(ctx), `git/installations/${encodeURIComponent(record.id)}`) },
  });
  return view;
}

const origin = (ctx: Pick<HandlerContext, 'origin'>) => ctx.origin;

/** The commit the space last imported from this repository and branch, when it did. */
function latestImported(tx: StoreReader, record: InstallationRecord, url: string, branch: string): { latestImportedCommitId?: string } {
  if (record.target.type !== 'space') return {};
  const sync = getGitSync(tx, record.target.spaceId);
  if (sync?.lastOid === undefined || sync.url !== url || sync.ref !== branch || sync.lastDirection !== 'import') return {};
  return { latestImportedCommitId: sync.lastOid };
}

// ─── Install ───────────────────────────────────────────────────────────────

export interface InstallBody {
  provider: Provider;
  target: InstallationTarget;
  repositories?: string[] | undefined;
}

export interface InstallPrepared {
  repositories: InstalledRepository[];
}

/** The repositories of a new installation: those given, else the repository the space already syncs with. */
export async function prepareInstall(ctx: PrepareContext, body: InstallBody): Promise<InstallPrepared> {
  targetOrganization(ctx.reader, ctx, body.target, 'admin');
  if (body.target.type === 'space' && body.target.siteId !== undefined) {
    if (body.repositories !== undefined) throw badRequest('A space installation under a site uses the site installation\'s repositories: give "repositories" to the site\'s installation');
    return { repositories: [] };
  }
  const given = body.repositories ?? [];
  if (given.length === 0 && body.target.type === 'space') {
    const url = getGitSync(ctx.reader, body.target.spaceId)?.url;
    if (url !== undefined) return { repositories: await checkRepositories(ctx, [url]) };
  }
  return { repositories: await checkRepositories(ctx, given) };
}

export function install(ctx: HandlerContext, body: InstallBody, prepared: InstallPrepared): InstallationRecord {
  const organization = targetOrganization(ctx.tx, ctx, body.target, 'admin');
  const key = targetKey(body.target);
  const existing = ctx.tx.get<string>(TARGETS, key);
  if (existing !== undefined) throw conflict(`${body.target.type === 'site' ? 'Site' : 'Space'} ${body.target.type === 'site' ? body.target.siteId : body.target.spaceId} already has Git Sync installation ${existing}: update it, or uninstall it first`);
  let parent: InstallationRecord | undefined;
  if (body.target.type === 'space' && body.target.siteId !== undefined) {
    const site = getSite(ctx.tx, body.target.siteId);
    if (site === undefined || site.organization !== organization) throw notFound(`Site ${body.target.siteId} not found in organization ${organization}`);
    const parentId = ctx.tx.get<string>(TARGETS, `site:${site.id}`);
    parent = parentId === undefined ? undefined : getInstallation(ctx.tx, parentId);
    if (parent === undefined) throw notFound(`Site ${site.id} has no Git Sync installation: install on the site first`);
    if (parent.provider !== body.provider) throw badRequest(`Site ${site.id}'s Git Sync installation uses ${parent.provider}, not ${body.provider}`);
    const spaceId = body.target.spaceId;
    if (!siteSpacesOfSite.all(ctx.tx, site.id).some((entry) => getSiteSpace(ctx.tx, entry.id)?.space === spaceId)) {
      throw badRequest(`Space ${spaceId} is not in site ${site.id}: add it to the site first, or install on the space alone (no siteId)`);
    }
  }
  const now = ctx.clock().toISOString();
  const record: InstallationRecord = {
    id: ctx.ids(),
    organization,
    provider: body.provider,
    target: body.target.type === 'site' ? { type: 'site', siteId: body.target.siteId } : { type: 'space', spaceId: body.target.spaceId, ...(parent ? { siteId: body.target.siteId } : {}) },
    ...(parent ? { parentInstallationId: parent.id } : {}),
    repositories: prepared.repositories,
    createdAt: now,
    createdBy: ctx.actor.userId,
    updatedAt: now,
  };
  ctx.tx.put(TABLE, record.id, record);
  ctx.tx.put(TARGETS, key, record.id);
  if (parent) children.put(ctx.tx, parent.id, record.id, null);
  return record;
}

// ─── Update ────────────────────────────────────────────────────────────────

export interface UpdateBody extends Setup {
  provider: Provider;
  providerConfiguration: { repositoryId?: number | undefined; projectId?: number | undefined; branch?: string | undefined; customInstanceURL?: string | null | undefined; accessToken?: string | undefined };
  childInstallationProjectDirectories?: Record<string, string> | undefined;
  repositories?: string[] | undefined;
}

export interface UpdatePrepared {
  repositories?: InstalledRepository[];
  /** The chosen branch as the remote has it, when a repository and branch are chosen. */
  connection?: { observedCommit: string; defaultBranch: string | null };
  repositoryId?: number;
  branch?: string;
}

async function normalizedDirectory(value: string): Promise<string> {
  const [{ normalizeProjectDirectory }, { GitSyncError }] = await Promise.all([import('../../gitsync/config.js'), import('../../gitsync/errors.js')]);
  try {
    return normalizeProjectDirectory(value);
  } catch (error) {
    if (error instanceof GitSyncError) throw badRequest(`Invalid projectDirectory: ${error.message}`);
    throw error;
  }
}

/** Checks what the update names against the repositories (their branches by ls-remote): 400/404 for what is not there. */
export async function prepareUpdate(ctx: PrepareContext, id: string, body: UpdateBody): Promise<UpdatePrepared> {
  const record = requireInstallation(ctx.reader, ctx, id);
  if (body.provider !== record.provider) throw badRequest(`Git Sync installation ${id} uses ${record.provider}: its provider cannot change to ${body.provider} (uninstall it and install again)`);
  if (body.projectDirectory !== undefined) body.projectDirectory = await normalizedDirectory(body.projectDirectory);
  for (const [child, directory] of Object.entries(body.childInstallationProjectDirectories ?? {})) {
    (body.childInstallationProjectDirectories as Record<string, string>)[child] = await normalizedDirectory(directory);
  }
  const prepared: UpdatePrepared = {};
  const configuration = body.providerConfiguration;
  const chosenId = record.provider === 'github' ? configuration.repositoryId : configuration.projectId;
  if (record.parentInstallationId !== undefined) {
    if (chosenId !== undefined || configuration.branch !== undefined || body.repositories !== undefined) {
      throw badRequest(`Git Sync installation ${id} belongs to site installation ${record.parentInstallationId}: its repository and branch are the site installation's`);
    }
    return prepared;
  }
  if (body.repositories !== undefined) prepared.repositories = await checkRepositories(ctx, body.repositories);
  const repositories = prepared.repositories ?? record.repositories;
  const repositoryId = chosenId ?? record.repositoryId;
  const branch = configuration.branch ?? record.branch;
  if (repositoryId === undefined || branch === undefined) return prepared;
  const repository = findRepository({ ...record, repositories }, (entry) => entry.id === repositoryId, `${record.provider === 'github' ? 'Repository' : 'Project'} ${repositoryId}`);
  const mirror = await mirrorFor(ctx, repository);
  const remote = await mirror.remoteBranches(Number.MAX_SAFE_INTEGER);
  const name = branch.replace(/^refs\/heads\//, '');
  const found = remote.branches.find((entry) => entry.name === name);
  if (found === undefined) throw notFound(`Branch ${name} not found in ${repository.url} (list them at /git/installations/${id}/${record.provider === 'github' ? `github/repos/${repository.accountName}/${repository.repositoryName}` : `gitlab/projects/${repository.id}`}/branches)`);
  return { ...prepared, repositoryId, branch, connection: { observedCommit: found.oid, defaultBranch: remote.head } };
}

export function update(ctx: HandlerContext, id: string, body: UpdateBody, prepared: UpdatePrepared): InstallationRecord {
  const record = requireInstallation(ctx.tx, ctx, id);
  const now = ctx.clock().toISOString();
  const next: InstallationRecord = { ...record, updatedAt: now };
  for (const key of ['projectDirectory', 'commitMessageTemplate', 'previewExternalBranches', 'agentInstructions', 'priority'] as const) {
    if (body[key] === undefined) continue;
    if (record.parentInstallationId !== undefined && key !== 'projectDirectory' && key !== 'commitMessageTemplate') {
      throw badRequest(`${key} of Git Sync installation ${id} is inherited from site installation ${record.parentInstallationId} and cannot be set`);
    }
    (next as unknown as Record<string, unknown>)[key] = body[key];
  }
  const custom = body.providerConfiguration.customInstanceURL;
  if (custom === null) delete next.customInstanceURL;
  else if (custom !== undefined && record.provider === 'gitlab') next.customInstanceURL = custom;
  if (prepared.repositories !== undefined) {
    next.repositories = prepared.repositories;
    if (prepared.repositoryId === undefined) {
      delete next.repositoryId;
      delete next.connection;
    }
  }
  if (prepared.repositoryId !== undefined && prepared.branch !== undefined && prepared.connection !== undefined) {
    next.repositoryId = prepared.repositoryId;
    next.branch = prepared.branch;
    next.connection = { ...prepared.connection, connectedAt: now };
  } else if (body.providerConfiguration.branch !== undefined) {
    next.branch = body.providerConfiguration.branch;
  }
  ctx.tx.put(TABLE, next.id, next);
  for (const [childId, directory] of Object.entries(body.childInstallationProjectDirectories ?? {})) {
    const child = children.has(ctx.tx, record.id, childId) ? getInstallation(ctx.tx, childId) : undefined;
    if (child === undefined) throw notFound(`Git Sync installation ${childId} is not a space installation of ${record.id}`);
    ctx.tx.put(TABLE, child.id, { ...child, projectDirectory: directory, updatedAt: now });
  }
  return next;
}

// ─── Uninstall ─────────────────────────────────────────────────────────────

function remove(tx: StoreWriter, record: InstallationRecord): void {
  for (const child of children.all(tx, record.id)) {
    const installed = getInstallation(tx, child.id);
    if (installed) remove(tx, installed);
  }
  if (record.parentInstallationId !== undefined) children.remove(tx, record.parentInstallationId, record.id);
  tx.delete(TARGETS, targetKey(record.target));
  tx.delete(TABLE, record.id);
}

export function uninstall(ctx: HandlerContext, id: string): void {
  remove(ctx.tx, requireInstallation(ctx.tx, ctx, id));
}

// ─── Listings ──────────────────────────────────────────────────────────────

export interface ProviderRepository {
  id: number;
  accountName: string;
  repositoryName: string;
  fullName: string;
  defaultBranch: string | null;
}

/** The installation's repositories, each with the default branch its remote names (null when it names none or cannot be reached). */
export async function listRepositories(ctx: PrepareContext, id: string, provider: Provider): Promise<{ items: ProviderRepository[] }> {
  const record = requireInstallation(ctx.reader, ctx, id);
  requireProvider(record, provider);
  const source = repositoriesOf(ctx.reader, record);
  const items: ProviderRepository[] = [];
  // A few at a time: each is one ls-remote, bounded by the git timeout.
  for (let start = 0; start < source.repositories.length; start += 4) {
    const batch = source.repositories.slice(start, start + 4);
    const heads = await Promise.all(
      batch.map(async (repository) => {
        try {
          return (await (await mirrorFor(ctx, repository)).remoteBranches(0)).head;
        } catch (error) {
          if (error instanceof ApiError && error.status !== 403) return null;
          throw error;
        }
      }),
    );
    batch.forEach((repository, index) =>
      items.push({ id: repository.id, accountName: repository.accountName, repositoryName: repository.repositoryName, fullName: `${repository.accountName}/${repository.repositoryName}`, defaultBranch: heads[index] ?? null }),
    );
  }
  return { items };
}

export type RepositoryName = { accountName: string; repositoryName: string } | { projectId: number };

function repositoryNamed(tx: StoreReader, ctx: Ctx, id: string, provider: Provider, name: RepositoryName): InstalledRepository {
  const record = requireInstallation(tx, ctx, id);
  requireProvider(record, provider);
  const source = repositoriesOf(tx, record);
  return 'projectId' in name
    ? findRepository(source, (entry) => entry.id === name.projectId, `Project ${name.projectId}`)
    : findRepository(source, (entry) => entry.accountName === name.accountName && entry.repositoryName === name.repositoryName, `Repository ${name.accountName}/${name.repositoryName}`);
}

/** The repository's branches (at most MAX_BRANCHES, in name order). */
export async function listBranches(ctx: PrepareContext, id: string, provider: Provider, name: RepositoryName): Promise<{ items: Array<{ name: string; ref: string }> }> {
  const repository = repositoryNamed(ctx.reader, ctx, id, provider, name);
  const remote = await (await mirrorFor(ctx, repository)).remoteBranches(MAX_BRANCHES);
  return { items: remote.branches.map((branch) => ({ name: branch.name, ref: `refs/heads/${branch.name}` })) };
}

/** A file of the repository at `ref` (a branch, `refs/heads/…` or `refs/tags/…`): its name, path, blob id and size. */
export async function repositoryFile(
  ctx: PrepareContext,
  id: string,
  provider: Provider,
  name: RepositoryName,
  query: { path: string; ref: string },
): Promise<{ name: string; path: string; sha: string; size: number }> {
  const repository = repositoryNamed(ctx.reader, ctx, id, provider, name);
  const { normalizePath } = await import('../../util/posix-path.js');
  const file = query.path.startsWith('/') ? null : normalizePath(query.path);
  if (file === null || file === '' || /[\0-\x1f\x7f]/.test(query.path)) throw badRequest(`Invalid path "${query.path}": give a file's path inside the repository`);
  const { checkRefName } = await import('../../git/refs.js');
  const ref = query.ref.startsWith('refs/') ? query.ref : `refs/heads/${query.ref}`;
  try {
    // A branch name never starts with "-" (git check-ref-format --branch): refused before it could look like an option.
    if (query.ref.startsWith('-')) throw new Error(`Invalid ref "${query.ref}": a branch or tag name does not start with "-"`);
    checkRefName(ref);
  } catch (error) {
    throw badRequest((error as Error).message);
  }
  const mirror = await mirrorFor(ctx, repository);
  const commit = await mirror.fetch(ref);
  if (commit === undefined) throw notFound(`No branch or tag "${query.ref}" in ${repository.url}`);
  const entry = await mirror.entryAt(commit, file);
  if (entry === undefined) throw notFound(`No file ${file} in ${repository.url} at ${query.ref}`);
  if (entry === 'directory') throw notFound(`${file} is a directory in ${repository.url} at ${query.ref}, not a file`);
  return { name: file.split('/').at(-1) as string, path: file, sha: entry.oid, size: entry.size };
}

/** The site's installation, its space installations, and the installations of the site's spaces (at most `limit`). */
export function siteInstallations(ctx: Pick<HandlerContext, 'tx' | 'origin' | 'actor' | 'clock'>, organizationId: string, siteId: string): { items: Array<Record<string, unknown>> } {
  requireOrg(ctx.tx, organizationId);
  const site = getSite(ctx.tx, siteId);
  if (site === undefined || site.organization !== organizationId) throw notFound(`Site ${siteId} not found in organization ${organizationId}`);
  const seen = new Set<string>();
  const items: Array<Record<string, unknown>> = [];
  const add = (installationId: string | undefined) => {
    const record = installationId === undefined ? undefined : getInstallation(ctx.tx, installationId);
    if (record === undefined || seen.has(record.id)) return;
    seen.add(record.id);
    items.push(installationView(ctx, record));
  };
  const siteInstallation = ctx.tx.get<string>(TARGETS, `site:${site.id}`);
  add(siteInstallation);
  if (siteInstallation !== undefined) for (const child of children.all(ctx.tx, siteInstallation)) add(child.id);
  for (const entry of siteSpacesOfSite.all(ctx.tx, site.id)) {
    const space = getSiteSpace(ctx.tx, entry.id)?.space;
    if (space !== undefined) add(ctx.tx.get<string>(TARGETS, `space:${space}`));
  }
  return { items };
}
