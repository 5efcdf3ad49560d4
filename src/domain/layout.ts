/**
 * The domain's row layout, versioned in `meta.layout`. Layout 1 (the first release)
 * kept growing lists as one JSON array per owner (`orgSpaces[orgId] = [ids]`,
 * `children['org:x'] = [refs]`, …); layout 2 keeps one row per item
 * (src/domain/ordered.ts). A store written by the first release is upgraded once, in
 * one transaction, the first time a process opens it: nothing is lost, orders are kept.
 */
import type { Store, StoreReader, StoreWriter } from '../store/types.js';
import {
  type ChildRef,
  type OrgRecord,
  type SpaceRecord,
  Tables,
  type TrashEntry,
  crNumberKey,
  crStatusIndex,
  getSpace,
  orgCollectionList,
  orgMemberList,
  orgSpaceList,
  spaceCrNumbers,
  trashSpace,
  userOrgList,
} from './core-records.js';
import { appendChild } from './tree.js';
import { ensureContentTokenKey } from './published-tokens.js';

/** 2: one row per list item; 3: the e-mail domain index (`orgsByEmailDomain`); 4: the secret of published content tokens. */
export const LAYOUT = 4;
const LAYOUT_KEY = 'layout';

/** Array rows of layout 1: their keys are owner ids, which never contain `/` (layout 2 keys all do). */
function arrayRows<T>(tx: StoreReader, table: string): Array<[string, T[]]> {
  return tx
    .entries<unknown>(table)
    .filter((row): row is [string, T[]] => !row[0].includes('/') && Array.isArray(row[1]));
}

/** Marks a new store as written in the current layout (bootstrap). */
export function markLayout(tx: StoreWriter): void {
  ensureContentTokenKey(tx);
  tx.put(Tables.meta, LAYOUT_KEY, LAYOUT);
}

export function needsUpgrade(reader: StoreReader): boolean {
  return reader.get(Tables.meta, 'store') !== undefined && reader.get<number>(Tables.meta, LAYOUT_KEY) !== LAYOUT;
}

/** Brings a store of an earlier layout to the current one, step by step. Idempotent. */
export function upgradeRows(tx: StoreWriter): void {
  const from = tx.get<number>(Tables.meta, LAYOUT_KEY) ?? 1;
  if (from < 2) moveListRows(tx);
  if (from < 3) indexEmailDomains(tx);
  markLayout(tx);
}

/** Layout 3: every organization's e-mail domains in the index `putOrg` keeps from now on (one pass over the organizations). */
function indexEmailDomains(tx: StoreWriter): void {
  for (const [, org] of tx.entries<OrgRecord>(Tables.orgs)) {
    for (const domain of org.emailDomains ?? []) tx.put(Tables.orgsByEmailDomain, `${domain}/${org.id}`, null);
  }
}

/** Rewrites layout-1 list rows as layout-2 rows (see the file comment). */
function moveListRows(tx: StoreWriter): void {
  const moveAll = <T>(table: string, add: (owner: string, item: T, index: number) => void) => {
    for (const [owner, items] of arrayRows<T>(tx, table)) {
      tx.delete(table, owner);
      items.forEach((item, index) => add(owner, item, index));
    }
  };
  moveAll<string>(Tables.orgMembers, (org, user) => orgMemberList.insert(tx, org, user, null));
  moveAll<string>(Tables.userOrgs, (user, org) => userOrgList.insert(tx, user, org, null));
  moveAll<string>(Tables.orgCollections, (org, id) => orgCollectionList.insert(tx, org, id, null));
  moveAll<ChildRef>(Tables.children, (container, ref) => appendChild(tx, container, ref));
  const trashed = new Set<string>();
  moveAll<TrashEntry>(Tables.orgTrash, (_org, entry) => trashed.add(entry.id));
  // Layout 1 listed soft-deleted spaces in orgSpaces too: they enter the list, then the trash, keeping their place.
  moveAll<string>(Tables.orgSpaces, (org, id) => {
    orgSpaceList.insert(tx, org, id, null);
    const space = getSpace(tx, id);
    if (trashed.has(id) && space?.deletedAt !== undefined) trashSpace(tx, space as SpaceRecord & { deletedAt: string });
  });
  moveAll<string>(Tables.spaceChangeRequests, (spaceId, crId, index) => {
    const number = crNumberKey(index + 1);
    spaceCrNumbers.put(tx, spaceId, number, crId);
    const cr = tx.get<{ status?: string }>(Tables.changeRequests, `${spaceId}/${crId}`);
    if (typeof cr?.status === 'string') crStatusIndex.put(tx, `${spaceId}:${cr.status}`, number, crId);
  });
}

/** Upgrades a store written by an earlier layout; one row read when it is current. */
export async function ensureLayout(store: Store): Promise<void> {
  if (!needsUpgrade(store.read())) return;
  await store.transact(
    (tx) => {
      if (needsUpgrade(tx)) upgradeRows(tx);
    },
    { command: 'upgrade the store layout' },
  );
}
