/**
 * The stored installations of integrations (0.202), shared by the installation handlers
 * (integration-installations.ts), the catalog (integrations.ts: unpublishing removes
 * them) and the events (integration-events.ts: which installations cover a space).
 *
 * | table                          | key                                        | value |
 * |--------------------------------|--------------------------------------------|-------|
 * | integrationInstallations       | KeyedSet `${integration}/${installationId}` | InstallationRecord (one per organization) |
 * | integrationSpaceInstallations  | `${integration}/${installationId}~${spaceId}` | ContentInstallationRecord |
 * | integrationSiteInstallations   | `${integration}/${installationId}~${siteId}`  | ContentInstallationRecord |
 * | …Installations.n               | integration                                | how many space (site) installations it has, all organizations |
 * | integrationInstalledTargets    | `${orgId}/${type}:${targetId}:${integration}` | installationId (type: organization, space, site) |
 * | integrationInstalledOrgs       | orgId                                      | number of its target rows (absent: nothing installed) |
 *
 * `integrationInstalledTargets` answers every question asked by organization, space or
 * site with one prefix scan of its own rows: what is installed on the organization
 * (`org/organization:org:`), on a space (`org/space:id:`), everything (`org/`). An
 * installation's `spaces`/`sites` counts live on its record, so no listing counts rows.
 */
import type { StoreReader, StoreWriter } from '../store/types.js';
import type { SpaceRecord } from './core-records.js';
import { KeyedSet, isKeyedId } from './ordered.js';

export type Selection = 'all' | 'selected';
export type TargetType = 'organization' | 'space' | 'site';
export type ContentKind = 'space' | 'site';

export interface InstallationRecord {
  id: string;
  organization: string;
  status: 'active' | 'pending' | 'paused';
  space_selection: Selection;
  site_selection: Selection;
  /** Spaces it is installed on (selected ones). */
  spaces: number;
  /** Sites it is installed on (selected ones); absent on installations of earlier versions (0). */
  sites?: number;
  configuration: Record<string, unknown>;
  externalIds: string[];
  /** Who installed it: an installation token acts with this user's role, narrowed (installation-scope.ts). */
  installedBy?: string;
  createdAt: string;
  updatedAt: string;
}

/** An installation on one space or site. */
export interface ContentInstallationRecord {
  integration: string;
  installation: string;
  /** The space or site id. */
  target: string;
  status: 'active' | 'pending' | 'paused';
  configuration: Record<string, unknown>;
  externalIds: string[];
  createdAt: string;
  updatedAt: string;
}

/** The installations of an integration, by installation id. */
export const integrationInstallations = new KeyedSet<InstallationRecord>('integrationInstallations');

export const contentTables: Readonly<Record<ContentKind, string>> = {
  space: 'integrationSpaceInstallations',
  site: 'integrationSiteInstallations',
};
const INSTALLED_TARGETS = 'integrationInstalledTargets';
const INSTALLED_ORGS = 'integrationInstalledOrgs';

const contentKey = (integration: string, installation: string, target: string) => `${integration}/${installation}~${target}`;
/** Rows of one installation's spaces (sites) in `contentTables[kind]`. */
export const installationPrefix = (integration: string, installation: string) => `${integration}/${installation}~`;
/** Rows of one organization's targets of a type (and one target) in `integrationInstalledTargets`. */
export const targetPrefix = (orgId: string, type?: TargetType, targetId?: string) =>
  `${orgId}/${type === undefined ? '' : `${type}:${targetId === undefined ? '' : `${targetId}:`}`}`;

export function getContentInstallation(tx: StoreReader, kind: ContentKind, integration: string, installation: string, target: string) {
  return isKeyedId(target) && !target.includes('~')
    ? tx.get<ContentInstallationRecord>(contentTables[kind], contentKey(integration, installation, target))
    : undefined;
}

export function putContentInstallation(tx: StoreWriter, kind: ContentKind, record: ContentInstallationRecord): void {
  tx.put(contentTables[kind], contentKey(record.integration, record.installation, record.target), record);
}

export function contentCount(tx: StoreReader, kind: ContentKind, integration: string): number {
  return tx.get<number>(`${contentTables[kind]}.n`, integration) ?? 0;
}

function addCount(tx: StoreWriter, table: string, key: string, delta: number): void {
  const count = (tx.get<number>(table, key) ?? 0) + delta;
  if (count > 0) tx.put(table, key, count);
  else tx.delete(table, key);
}

/** Adds a space or site installation: its row, the target row, the counts. */
export function addContentInstallation(tx: StoreWriter, kind: ContentKind, orgId: string, record: ContentInstallationRecord): void {
  putContentInstallation(tx, kind, record);
  addCount(tx, `${contentTables[kind]}.n`, record.integration, 1);
  addTarget(tx, orgId, kind, record.target, record.integration, record.installation);
}

/** Removes a space or site installation; false when there was none. */
export function removeContentInstallation(tx: StoreWriter, kind: ContentKind, orgId: string, integration: string, installation: string, target: string): boolean {
  if (!getContentInstallation(tx, kind, integration, installation, target)) return false;
  tx.delete(contentTables[kind], contentKey(integration, installation, target));
  addCount(tx, `${contentTables[kind]}.n`, integration, -1);
  removeTarget(tx, orgId, kind, target, integration);
  return true;
}

export function addTarget(tx: StoreWriter, orgId: string, type: TargetType, targetId: string, integration: string, installation: string): void {
  tx.put(INSTALLED_TARGETS, `${targetPrefix(orgId, type, targetId)}${integration}`, installation);
  addCount(tx, INSTALLED_ORGS, orgId, 1);
}

function removeTarget(tx: StoreWriter, orgId: string, type: TargetType, targetId: string, integration: string): void {
  if (tx.delete(INSTALLED_TARGETS, `${targetPrefix(orgId, type, targetId)}${integration}`)) addCount(tx, INSTALLED_ORGS, orgId, -1);
}

/** The installation of `integration` on organization `orgId`, if any. */
export function orgInstallationId(tx: StoreReader, orgId: string, integration: string): string | undefined {
  return tx.get<string>(INSTALLED_TARGETS, `${targetPrefix(orgId, 'organization', orgId)}${integration}`);
}

/** The target rows under a prefix (see `targetPrefix`) as `{type, target, integration, installation}`, in key order. */
export function parseTarget(key: string, installation: string) {
  const [, rest = ''] = key.split('/', 2);
  const [type, target, integration] = rest.split(':') as [TargetType, string, string];
  return { type, target, integration, installation };
}

export const INSTALLED_TARGETS_TABLE = INSTALLED_TARGETS;

/** True when something is installed in the organization (one row read: the fast "no events to record" test). */
export function installedAnywhere(tx: StoreReader, orgId: string): boolean {
  return (tx.get<number>(INSTALLED_ORGS, orgId) ?? 0) > 0;
}

/**
 * The installations covering `target` (a space or a site) of organization `orgId`:
 * installed on it, or on the organization with `all` of its spaces (sites) selected.
 * Bounded by the integrations installed in the organization, not by its content.
 */
export function coveringInstallationsOf(tx: StoreReader, orgId: string, kind: ContentKind, targetId: string): Array<{ integration: string; installation: string }> {
  const found = new Map<string, string>();
  for (const [key, installation] of tx.scan<string>(INSTALLED_TARGETS, { prefix: targetPrefix(orgId, kind, targetId) })) {
    found.set(parseTarget(key, installation).integration, installation);
  }
  for (const [key, installation] of tx.scan<string>(INSTALLED_TARGETS, { prefix: targetPrefix(orgId, 'organization', orgId) })) {
    const { integration } = parseTarget(key, installation);
    if (found.has(integration)) continue;
    const record = integrationInstallations.get(tx, integration, installation);
    if ((kind === 'space' ? record?.space_selection : record?.site_selection) === 'all') found.set(integration, installation);
  }
  return [...found].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([integration, installation]) => ({ integration, installation }));
}

export function coveringInstallations(tx: StoreReader, space: SpaceRecord) {
  return coveringInstallationsOf(tx, space.organization, 'space', space.id);
}

/**
 * Removes an installation with its space and site installations and target rows (an
 * uninstall, or the unpublishing of its integration). Reads the installation's own rows.
 */
export function removeInstallation(tx: StoreWriter, integration: string, record: InstallationRecord): void {
  for (const kind of ['space', 'site'] as const) {
    for (const [, row] of tx.scan<ContentInstallationRecord>(contentTables[kind], { prefix: installationPrefix(integration, record.id) })) {
      removeContentInstallation(tx, kind, record.organization, integration, record.id, row.target);
    }
  }
  removeTarget(tx, record.organization, 'organization', record.organization, integration);
  integrationInstallations.remove(tx, integration, record.id);
}
