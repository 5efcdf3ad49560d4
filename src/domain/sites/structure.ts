/**
 * The shape of a site: its ordered tree of sections and section groups, and the
 * ordered site spaces (variants) of each section, or of the site's root when it
 * has no sections. Every change here writes a few rows (OrderedList/KeyedSet),
 * never a whole list.
 *
 * Rules decided here:
 * - The first section added becomes the site's default; deleting the default
 *   section hands the default to the first remaining section (tree order).
 * - The first site space of a section (or of the root) becomes its default;
 *   deleting it hands the default to the next variant.
 * - Deleting a section deletes its site spaces with it (a site space never
 *   outlives its section), and a section whose last site space goes is deleted
 *   too, so no section is left empty and no site space orphaned.
 * - Adding the first section to a site whose site spaces sit at the root first
 *   gathers those site spaces into a section of their own (as GitBook does).
 */
import { badRequest } from '../../api/errors.js';
import { slugify, uniqueName } from '../../gitsync/slug.js';
import type { StoreReader, StoreWriter } from '../../store/types.js';
import type { Placement } from '../ordered.js';
import {
  type GroupRecord,
  type SectionRecord,
  type SiteRecord,
  type SiteSpaceRecord,
  SiteTables,
  type StructureRef,
  getExternalLink,
  getGroup,
  getSection,
  getSite,
  getSiteSpace,
  putSection,
  putSite,
  putSiteSpace,
  siteSpaceOrder,
  siteSpaceOwner,
  siteSpacesOfSite,
  siteSpacesOfSpace,
  structure,
  structureOwner,
} from './site-records.js';

export interface StructureNode {
  type: StructureRef['type'];
  id: string;
}

/** Direct children of the site root or of a group, in order. */
export function childrenOf(tx: StoreReader, owner: string): StructureNode[] {
  return structure.all(tx, owner).map((entry) => ({ type: entry.value.type, id: entry.id }));
}

/** Every section of the site in tree order (depth first through groups). */
export function sectionIdsInOrder(tx: StoreReader, siteId: string): string[] {
  const out: string[] = [];
  const walk = (owner: string) => {
    for (const node of childrenOf(tx, owner)) {
      if (node.type === 'site-section') out.push(node.id);
      else if (node.type === 'site-section-group') walk(node.id);
    }
  };
  walk(siteId);
  return out;
}

/** Every group of the site in tree order. */
export function groupIdsInOrder(tx: StoreReader, siteId: string): string[] {
  const out: string[] = [];
  const walk = (owner: string) => {
    for (const node of childrenOf(tx, owner)) {
      if (node.type === 'site-section-group') {
        out.push(node.id);
        walk(node.id);
      }
    }
  };
  walk(siteId);
  return out;
}

export const hasSections = (tx: StoreReader, siteId: string) => structure.count(tx, siteId) > 0;

/** Site space ids of a section (or of the root when `owner` is the site), in order. */
export const siteSpaceIdsOf = (tx: StoreReader, owner: string) => siteSpaceOrder.all(tx, owner).map((entry) => entry.id);

/** A slug-like path from a title, unique among `taken`. */
export function freePath(title: string, taken: (candidate: string) => boolean): string {
  return uniqueName(slugify(title) || 'section', taken);
}

export function sectionPathTaken(tx: StoreReader, siteId: string, path: string, except?: string): boolean {
  return sectionIdsInOrder(tx, siteId).some((id) => id !== except && getSection(tx, id)?.path === path);
}

export function siteSpacePathTaken(tx: StoreReader, owner: string, path: string, except?: string): boolean {
  return siteSpaceIdsOf(tx, owner).some((id) => id !== except && getSiteSpace(tx, id)?.path === path);
}

// ─── Site spaces ───────────────────────────────────────────────────────────

/** Adds a site space at the end of its section (or the root); the first one becomes the default. */
export function attachSiteSpace(tx: StoreWriter, siteSpace: SiteSpaceRecord): void {
  const owner = siteSpaceOwner(siteSpace);
  const first = siteSpaceOrder.count(tx, owner) === 0;
  putSiteSpace(tx, siteSpace);
  siteSpaceOrder.insert(tx, owner, siteSpace.id, null);
  siteSpacesOfSite.put(tx, siteSpace.site, siteSpace.id, null);
  siteSpacesOfSpace.put(tx, siteSpace.space, siteSpace.id, siteSpace.site);
  if (!first) return;
  if (siteSpace.section !== undefined) {
    const section = getSection(tx, siteSpace.section);
    if (section) putSection(tx, { ...section, defaultSiteSpace: siteSpace.id });
  } else {
    const site = getSite(tx, siteSpace.site);
    if (site) putSite(tx, { ...site, defaultSiteSpace: siteSpace.id });
  }
}

/** Takes a site space's rows out of every index (its record included); hands the default on. */
function detachSiteSpaceRows(tx: StoreWriter, siteSpace: SiteSpaceRecord): void {
  const owner = siteSpaceOwner(siteSpace);
  siteSpaceOrder.remove(tx, owner, siteSpace.id);
  siteSpacesOfSite.remove(tx, siteSpace.site, siteSpace.id);
  siteSpacesOfSpace.remove(tx, siteSpace.space, siteSpace.id);
  tx.delete(SiteTables.siteSpaces, siteSpace.id);
  tx.delete(SiteTables.siteSpaceCustomizations, siteSpace.id);
  const next = siteSpaceOrder.head(tx, owner, 1)[0]?.id;
  if (siteSpace.section !== undefined) {
    const section = getSection(tx, siteSpace.section);
    if (section && section.defaultSiteSpace === siteSpace.id) {
      const { defaultSiteSpace: _old, ...rest } = section;
      putSection(tx, next === undefined ? rest : { ...rest, defaultSiteSpace: next });
    }
  } else {
    const site = getSite(tx, siteSpace.site);
    if (site && site.defaultSiteSpace === siteSpace.id) {
      const { defaultSiteSpace: _old, ...rest } = site;
      putSite(tx, next === undefined ? rest : { ...rest, defaultSiteSpace: next });
    }
  }
}

/** Removes a site space; a section left without site spaces goes with it. */
export function removeSiteSpace(tx: StoreWriter, siteSpace: SiteSpaceRecord): void {
  detachSiteSpaceRows(tx, siteSpace);
  if (siteSpace.section !== undefined && siteSpaceOrder.count(tx, siteSpace.section) === 0) {
    const section = getSection(tx, siteSpace.section);
    if (section) removeSection(tx, section);
  }
}

// ─── Sections and groups ───────────────────────────────────────────────────

/** Adds a section at the end of the site's top level (or of a group); the first one becomes the default. */
export function attachSection(tx: StoreWriter, site: SiteRecord, section: SectionRecord, placement?: Placement): SiteRecord {
  putSection(tx, section);
  structure.insert(tx, structureOwner(site.id, section.group), section.id, { type: 'site-section' }, placement);
  const current = getSite(tx, site.id) ?? site;
  if (current.defaultSection !== undefined && getSection(tx, current.defaultSection)) return current;
  const updated = { ...current, defaultSection: section.id };
  putSite(tx, updated);
  return updated;
}

/** Deletes a section and its site spaces; hands the site's default to the first remaining section. */
export function removeSection(tx: StoreWriter, section: SectionRecord): void {
  for (const id of siteSpaceIdsOf(tx, section.id)) {
    const siteSpace = getSiteSpace(tx, id);
    if (siteSpace) detachSiteSpaceRows(tx, siteSpace);
  }
  structure.remove(tx, structureOwner(section.site, section.group), section.id);
  tx.delete(SiteTables.sections, section.id);
  const site = getSite(tx, section.site);
  if (site && site.defaultSection === section.id) {
    const next = sectionIdsInOrder(tx, site.id)[0];
    const { defaultSection: _old, ...rest } = site;
    putSite(tx, next === undefined ? rest : { ...rest, defaultSection: next });
  }
}

/** Puts a section or group under another owner (a group or the site root), before/after a sibling or at the end. */
export function reparent(
  tx: StoreWriter,
  site: SiteRecord,
  node: StructureNode,
  from: string | undefined,
  to: string | undefined,
  placement?: Placement,
): void {
  const source = structureOwner(site.id, from);
  const target = structureOwner(site.id, to);
  if (source === target) {
    structure.move(tx, target, node.id, placement);
  } else {
    // Check the anchor before taking the item out, so a bad position changes nothing.
    for (const anchor of [placement?.before, placement?.after]) {
      if (anchor !== undefined && !structure.has(tx, target, anchor)) {
        throw badRequest(`Invalid position: ${anchor} is not next to where ${node.id} would go`);
      }
    }
    structure.remove(tx, source, node.id);
    structure.insert(tx, target, node.id, { type: node.type }, placement);
  }
  if (node.type === 'site-section') {
    const section = getSection(tx, node.id);
    if (section) {
      const { group: _old, ...rest } = section;
      putSection(tx, to === undefined ? rest : { ...rest, group: to });
    }
  } else if (node.type === 'site-section-group') {
    const group = getGroup(tx, node.id);
    if (group) {
      const { parent: _old, ...rest } = group;
      tx.put(SiteTables.groups, group.id, to === undefined ? rest : { ...rest, parent: to });
    }
  } else {
    const link = getExternalLink(tx, node.id);
    if (link) {
      const { group: _old, ...rest } = link;
      tx.put(SiteTables.externalLinks, link.id, to === undefined ? rest : { ...rest, group: to });
    }
  }
}

/** The group holding a section or group (undefined: top level). */
export function containerOf(tx: StoreReader, node: StructureNode): string | undefined {
  if (node.type === 'site-external-link') return getExternalLink(tx, node.id)?.group;
  return node.type === 'site-section' ? getSection(tx, node.id)?.group : getGroup(tx, node.id)?.parent;
}

/** True when `groupId` is `ancestor` or nested (at any depth) inside it. */
export function isWithin(tx: StoreReader, groupId: string | undefined, ancestor: string): boolean {
  for (let at = groupId; at !== undefined; at = getGroup(tx, at)?.parent) {
    if (at === ancestor) return true;
  }
  return false;
}

/** Deletes a group; its sections and subgroups go back to the top level, where the group was. */
export function removeGroup(tx: StoreWriter, site: SiteRecord, group: GroupRecord): void {
  // The top-level item the group sits in: its children are placed just before it.
  let anchor = group.id;
  for (let at = group.parent; at !== undefined; at = getGroup(tx, at)?.parent) anchor = at;
  for (const child of childrenOf(tx, group.id)) {
    reparent(tx, site, child, group.id, undefined, { before: anchor });
  }
  structure.remove(tx, structureOwner(site.id, group.parent), group.id);
  tx.delete(SiteTables.groups, group.id);
}

/** Deletes everything of a site's structure (sections, groups, external links, site spaces). */
export function removeAllStructure(tx: StoreWriter, site: SiteRecord): void {
  for (const owner of [site.id, ...groupIdsInOrder(tx, site.id)]) {
    for (const node of childrenOf(tx, owner)) {
      if (node.type !== 'site-external-link') continue;
      structure.remove(tx, owner, node.id);
      tx.delete(SiteTables.externalLinks, node.id);
    }
  }
  for (const id of siteSpaceIdsOf(tx, site.id)) {
    const siteSpace = getSiteSpace(tx, id);
    if (siteSpace) detachSiteSpaceRows(tx, siteSpace);
  }
  for (const id of sectionIdsInOrder(tx, site.id)) {
    const section = getSection(tx, id);
    if (section) removeSection(tx, section);
  }
  for (const id of groupIdsInOrder(tx, site.id).reverse()) {
    const group = getGroup(tx, id);
    if (!group) continue;
    structure.remove(tx, structureOwner(site.id, group.parent), group.id);
    tx.delete(SiteTables.groups, group.id);
  }
}
