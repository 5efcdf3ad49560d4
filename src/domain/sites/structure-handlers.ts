/**
 * API doc §4.4–4.6 (sections, section groups, site spaces) and the real API's
 * `sortSiteStructure`. The tree rules live in structure.ts; this module checks
 * access, input and plan features, then applies them.
 *
 * Rules decided here:
 * - Sections and groups need the `sites-sections` feature; a second site space
 *   in one section (a variant) needs `sites-multivariant-site`.
 * - Paths: a new section or site space gets its title's slug, made unique; a
 *   PATCH to a path already used (in the site for sections, in the section for
 *   site spaces) is a 409.
 * - Deleting the last site space of a section is a 409: delete the section.
 * - A position naming an item of another container, the item itself, an unknown
 *   item or both `before` and `after` is a 400 and changes nothing.
 */
import { badRequest, conflict, noUpdate } from '../../api/errors.js';
import type * as routes from '../../api/routes/sites.js';
import type * as structureRoutes from '../../api/routes/site-structure.js';
import { copySpace } from '../spaces.js';
import { apiUrl } from '../urls.js';
import { type Handler, Reply, deleted, implementer, nothingToDelete } from '../handler.js';
import { itemsOf, paginate } from '../pagination.js';
import { requireSiteSpaceSource, siteAccess } from './access.js';
import { requireFeature } from './features.js';
import { prepareSource, requireHomePage, sourceSpace } from './site-space-source.js';
import type { Prepared } from '../content/import.js';
import {
  type GroupRecord,
  type SectionRecord,
  type SiteRecord,
  type SiteSpaceRecord,
  SiteTables,
  getGroup,
  getSection,
  getSite,
  getSiteSpace,
  putGroup,
  putSection,
  putSiteSpace,
  requireGroup,
  requireSection,
  requireSiteSpace,
  siteSpaceOrder,
  siteSpaceOwner,
  siteSpacesOfSpace,
  structure,
  structureOwner,
} from './site-records.js';
import {
  type StructureNode,
  attachSection,
  attachSiteSpace,
  containerOf,
  freePath,
  groupIdsInOrder,
  isWithin,
  removeGroup,
  removeSection,
  removeSiteSpace,
  reparent,
  sectionIdsInOrder,
  sectionPathTaken,
  siteSpaceIdsOf,
  siteSpacePathTaken,
} from './structure.js';
import { type SiteViewContext, groupView, sectionUrl, sectionView, siteBaseUrl, siteSpaceView, visibleSpace } from './views.js';

const on = implementer<typeof routes>();
const onStructure = implementer<typeof structureRoutes>();

/** 0.202 `draft` of a PATCH: true makes the item a draft (not published), false makes it live (stored as absent). */
function setDraft(record: Record<string, unknown>, draft: boolean | undefined): void {
  setFlag(record, 'draft', draft);
}

/** A flag is stored only while true (absent: false), so records stay small. */
function setFlag(record: Record<string, unknown>, name: 'draft' | 'hidden', value: boolean | undefined): void {
  if (value === true) record[name] = true;
  else if (value === false) delete record[name];
}

/** A per-language map replaces the stored one whole; an empty one removes it (records keep no empty maps). */
function setLocalized(record: Record<string, unknown>, name: 'localizedTitle' | 'localizedDescription', value: Partial<Record<string, string>> | undefined): void {
  if (value === undefined) return;
  if (Object.keys(value).length === 0) delete record[name];
  else record[name] = { ...value };
}

type Pointer = { type: StructureNode['type'] | 'site-space'; id: string };
interface Position {
  before?: Pointer | undefined;
  after?: Pointer | undefined;
}

function onlyOne(position: Position | undefined): Pointer | undefined {
  if (position?.before !== undefined && position.after !== undefined) {
    throw badRequest('Invalid position: give either "before" or "after", not both');
  }
  return position?.before ?? position?.after;
}

/** The section or group a pointer names, checked to be in this site. */
function requireNode(tx: SiteViewContext['tx'], site: SiteRecord, pointer: Pointer): StructureNode {
  if (pointer.type === 'site-section') {
    if (getSection(tx, pointer.id)?.site !== site.id) throw badRequest(`Invalid position: site section ${pointer.id} is not in site ${site.id}`);
  } else if (pointer.type === 'site-section-group') {
    if (getGroup(tx, pointer.id)?.site !== site.id) throw badRequest(`Invalid position: section group ${pointer.id} is not in site ${site.id}`);
  } else {
    throw badRequest(`Invalid position: a section or group moves next to a section or group, not a ${pointer.type}`);
  }
  return { type: pointer.type, id: pointer.id };
}

/** Moves a section or group next to another (into that one's container), or to the end of its own container. */
function moveNode(tx: Parameters<typeof reparent>[0], site: SiteRecord, node: StructureNode, position: Position | undefined): void {
  const anchor = onlyOne(position);
  const from = containerOf(tx, node);
  if (anchor === undefined) {
    reparent(tx, site, node, from, from);
    return;
  }
  const target = requireNode(tx, site, anchor);
  if (target.id === node.id) throw badRequest(`Invalid position: cannot place ${node.id} relative to itself`);
  const to = containerOf(tx, target);
  if (node.type === 'site-section-group' && isWithin(tx, to, node.id)) {
    throw badRequest(`Invalid position: group ${node.id} cannot move inside itself`);
  }
  const placement = position?.before !== undefined ? { before: target.id } : { after: target.id };
  reparent(tx, site, node, from, to, placement);
}

/** Moves a site space before/after another variant of the same section (or to the end). */
function moveSiteSpaceTo(tx: Parameters<typeof reparent>[0], site: SiteRecord, siteSpace: SiteSpaceRecord, position: Position | undefined) {
  const anchor = onlyOne(position);
  if (anchor !== undefined && anchor.type !== 'site-space') {
    throw badRequest(`Invalid position: a site space moves next to another site space, not a ${anchor.type}`);
  }
  if (anchor !== undefined && getSiteSpace(tx, anchor.id)?.site !== site.id) {
    throw badRequest(`Invalid position: site space ${anchor.id} is not in site ${site.id}`);
  }
  const placement = anchor === undefined ? undefined : position?.before !== undefined ? { before: anchor.id } : { after: anchor.id };
  siteSpaceOrder.move(tx, siteSpaceOwner(siteSpace), siteSpace.id, placement);
}

function siteSpaceAnswer(ctx: SiteViewContext, site: SiteRecord, siteSpaceId: string) {
  const current = getSite(ctx.tx, site.id) ?? site;
  const siteSpace = getSiteSpace(ctx.tx, siteSpaceId) as SiteSpaceRecord;
  const space = visibleSpace(ctx.tx, siteSpace);
  if (!space) throw badRequest(`Site space ${siteSpaceId} shows a deleted space`);
  const section = siteSpace.section === undefined ? undefined : getSection(ctx.tx, siteSpace.section);
  const defaultId = section ? section.defaultSiteSpace : current.defaultSiteSpace;
  const url = section ? sectionUrl(ctx, current, section) : siteBaseUrl(ctx.tx, current);
  return siteSpaceView(ctx, current, siteSpace, space, defaultId === siteSpace.id, url);
}

const sectionAnswer = (ctx: SiteViewContext, site: SiteRecord, id: string) =>
  sectionView(ctx, getSite(ctx.tx, site.id) ?? site, getSection(ctx.tx, id) as SectionRecord);
const groupAnswer = (ctx: SiteViewContext, site: SiteRecord, id: string) =>
  groupView(ctx, getSite(ctx.tx, site.id) ?? site, getGroup(ctx.tx, id) as GroupRecord);

export const structureHandlers: Record<string, Handler> = {
  // ─── §4.4 Sections ───────────────────────────────────────────────────────

  ...on('listSiteSections', (ctx, { params, query }) => {
    const { site, view } = siteAccess(ctx, params);
    return paginate(itemsOf(sectionIdsInOrder(ctx.tx, site.id)), query, (id) => sectionAnswer(view, site, id));
  }),

  ...on('addSectionToSite', {
    prepare: (ctx, { params, body }) => prepareSource(ctx, params.organizationId, body),
    run: async (ctx, { params, body }, prepared) => {
    const { site, view } = siteAccess(ctx, params);
    requireFeature(site, 'sites-sections', 'have sections');
    // Checked before anything is written, so a wrong group changes nothing.
    const group = body.siteSectionGroupId === undefined ? undefined : requireGroup(ctx.tx, site, body.siteSectionGroupId);
    const space = await sourceSpace(ctx, site, body, prepared as Prepared | undefined);
    let current = site;
    const rootSpaces = siteSpaceIdsOf(ctx.tx, site.id);
    if (structure.count(ctx.tx, site.id) === 0 && rootSpaces.length > 0) {
      // The site's first section: its root site spaces become a section of their own first.
      const first = getSiteSpace(ctx.tx, site.defaultSiteSpace ?? (rootSpaces[0] as string));
      const firstTitle = (first && visibleSpace(ctx.tx, first)?.title) || site.title;
      const gathered: SectionRecord = {
        id: ctx.ids(),
        site: site.id,
        title: firstTitle.length >= 2 ? firstTitle : 'Home',
        path: freePath(firstTitle, (p) => sectionPathTaken(ctx.tx, site.id, p)),
      };
      current = attachSection(ctx.tx, current, gathered);
      for (const id of rootSpaces) {
        const siteSpace = getSiteSpace(ctx.tx, id) as SiteSpaceRecord;
        siteSpaceOrder.remove(ctx.tx, site.id, id);
        const moved = { ...siteSpace, section: gathered.id };
        putSiteSpace(ctx.tx, moved);
        siteSpaceOrder.insert(ctx.tx, gathered.id, id, null);
      }
      putSection(ctx.tx, { ...gathered, defaultSiteSpace: current.defaultSiteSpace ?? (rootSpaces[0] as string) });
      const { defaultSiteSpace: _old, ...rest } = getSite(ctx.tx, site.id) as SiteRecord;
      ctx.tx.put(SiteTables.sites, site.id, rest);
      current = rest;
    }
    const title = body.title ?? (space.title.length >= 2 ? space.title : `${space.title} section`);
    const section: SectionRecord = {
      id: ctx.ids(),
      site: site.id,
      title,
      path: freePath(title, (p) => sectionPathTaken(ctx.tx, site.id, p)),
      ...(body.icon != null ? { icon: body.icon } : {}),
      ...(body.draft === true ? { draft: true } : {}),
    };
    attachSection(ctx.tx, current, section);
    attachSiteSpace(ctx.tx, {
      id: ctx.ids(),
      site: site.id,
      space: space.id,
      section: section.id,
      path: freePath(space.title, () => false),
      ...(body.pageId !== undefined ? { pageId: body.pageId } : {}),
    });
    if (group) reparent(ctx.tx, site, { type: 'site-section', id: section.id }, undefined, group.id);
    return new Reply(201, sectionAnswer(view, site, section.id));
    },
  }),

  ...on('updateSiteSectionById', (ctx, { params, body }) => {
    const { site, view } = siteAccess(ctx, params);
    const section = requireSection(ctx.tx, site, params.siteSectionId);
    if (Object.values(body).every((value) => value === undefined)) {
      throw badRequest('Nothing to update: pass at least one of title, localizedTitle, path, defaultSiteSpace, condition, icon, description, localizedDescription, draft, siteSectionGroupId');
    }
    const toGroup = body.siteSectionGroupId == null ? undefined : requireGroup(ctx.tx, site, body.siteSectionGroupId);
    if (body.path !== undefined && sectionPathTaken(ctx.tx, site.id, body.path, section.id)) {
      throw conflict(`Path "${body.path}" is already used by another section of site ${site.id}`);
    }
    if (body.defaultSiteSpace !== undefined && getSiteSpace(ctx.tx, body.defaultSiteSpace)?.section !== section.id) {
      throw badRequest(`Invalid defaultSiteSpace: site space ${body.defaultSiteSpace} is not a variant of section ${section.id}`);
    }
    const next: Record<string, unknown> = { ...section };
    for (const key of ['title', 'path', 'defaultSiteSpace', 'condition', 'icon', 'description'] as const) {
      const value = body[key];
      if (value === null) delete next[key];
      else if (value !== undefined) next[key] = value;
    }
    setLocalized(next, 'localizedTitle', body.localizedTitle);
    setLocalized(next, 'localizedDescription', body.localizedDescription);
    setDraft(next, body.draft);
    putSection(ctx.tx, next as unknown as SectionRecord);
    if (body.siteSectionGroupId !== undefined && toGroup?.id !== section.group) {
      reparent(ctx.tx, site, { type: 'site-section', id: section.id }, section.group, toGroup?.id);
    }
    return sectionAnswer(view, site, section.id);
  }),

  ...on('moveSiteSection', (ctx, { params, body }) => {
    const { site, view } = siteAccess(ctx, params);
    const section = requireSection(ctx.tx, site, params.siteSectionId);
    const p = body.position;
    moveNode(ctx.tx, site, { type: 'site-section', id: section.id }, {
      before: p?.before && { type: 'site-section', id: p.before.siteSection },
      after: p?.after && { type: 'site-section', id: p.after.siteSection },
    });
    return sectionAnswer(view, site, section.id);
  }),

  ...on('deleteSiteSectionById', (ctx, { params }) => {
    const { site } = siteAccess(ctx, params);
    const section = getSection(ctx.tx, params.siteSectionId);
    if (!section || section.site !== site.id) return nothingToDelete();
    removeSection(ctx.tx, section);
    return deleted();
  }),

  // ─── §4.5 Section groups ─────────────────────────────────────────────────

  ...on('listSiteSectionGroups', (ctx, { params, query }) => {
    const { site, view } = siteAccess(ctx, params);
    return paginate(itemsOf(groupIdsInOrder(ctx.tx, site.id)), query, (id) => groupAnswer(view, site, id));
  }),

  ...on('addSectionGroupToSite', (ctx, { params, body }) => {
    const { site, view } = siteAccess(ctx, params);
    requireFeature(site, 'sites-sections', 'have section groups');
    const parent = body.parent === undefined ? undefined : requireGroup(ctx.tx, site, body.parent);
    const sections = (body.sections ?? []).map((id) => requireSection(ctx.tx, site, id));
    if (new Set(body.sections ?? []).size !== sections.length) throw badRequest('Invalid sections: a section is listed twice');
    const group: GroupRecord = {
      id: ctx.ids(),
      site: site.id,
      title: body.title,
      ...(body.icon != null ? { icon: body.icon } : {}),
      ...(parent ? { parent: parent.id } : {}),
      ...(body.draft === true ? { draft: true } : {}),
    };
    putGroup(ctx.tx, group);
    structure.insert(ctx.tx, structureOwner(site.id, group.parent), group.id, { type: 'site-section-group' });
    for (const section of sections) {
      reparent(ctx.tx, site, { type: 'site-section', id: section.id }, section.group, group.id);
    }
    return new Reply(201, groupAnswer(view, site, group.id));
  }),

  ...on('updateSiteSectionGroupById', (ctx, { params, body }) => {
    const { site, view } = siteAccess(ctx, params);
    const group = requireGroup(ctx.tx, site, params.siteSectionGroupId);
    if (Object.values(body).every((value) => value === undefined)) throw badRequest('Nothing to update: pass title, localizedTitle, icon, draft and/or parentSectionGroupId');
    const toParent = body.parentSectionGroupId == null ? undefined : requireGroup(ctx.tx, site, body.parentSectionGroupId);
    if (toParent && isWithin(ctx.tx, toParent.id, group.id)) {
      throw badRequest(`Invalid parentSectionGroupId: group ${group.id} cannot move inside itself (${toParent.id} is ${toParent.id === group.id ? 'the group' : 'nested in it'})`);
    }
    const { icon: _icon, ...rest } = group;
    const icon = body.icon === undefined ? group.icon : (body.icon ?? undefined);
    const next: Record<string, unknown> = { ...rest, ...(body.title !== undefined ? { title: body.title } : {}), ...(icon !== undefined ? { icon } : {}) };
    setLocalized(next, 'localizedTitle', body.localizedTitle);
    setDraft(next, body.draft);
    putGroup(ctx.tx, next as unknown as GroupRecord);
    if (body.parentSectionGroupId !== undefined && toParent?.id !== group.parent) {
      reparent(ctx.tx, site, { type: 'site-section-group', id: group.id }, group.parent, toParent?.id);
    }
    return groupAnswer(view, site, group.id);
  }),

  ...on('addSectionToGroup', (ctx, { params, body }) => {
    const { site, view } = siteAccess(ctx, params);
    const group = requireGroup(ctx.tx, site, params.siteSectionGroupId);
    const section = requireSection(ctx.tx, site, body.sectionId);
    if (section.group === group.id) throw noUpdate(`Adding section ${section.id} to group ${group.id} (it is already there)`);
    reparent(ctx.tx, site, { type: 'site-section', id: section.id }, section.group, group.id);
    return new Reply(201, groupAnswer(view, site, group.id));
  }),

  ...on('removeSectionFromGroup', (ctx, { params }) => {
    const { site } = siteAccess(ctx, params);
    const group = requireGroup(ctx.tx, site, params.siteSectionGroupId);
    const section = getSection(ctx.tx, params.siteSectionId);
    if (!section || section.site !== site.id || section.group !== group.id) return nothingToDelete();
    // Back to the top level, just after the top-level item that held it.
    let anchor = group.id;
    for (let at = group.parent; at !== undefined; at = getGroup(ctx.tx, at)?.parent) anchor = at;
    reparent(ctx.tx, site, { type: 'site-section', id: section.id }, group.id, undefined, { after: anchor });
    return deleted();
  }),

  ...on('moveSiteSectionGroup', (ctx, { params, body }) => {
    const { site, view } = siteAccess(ctx, params);
    const group = requireGroup(ctx.tx, site, params.siteSectionGroupId);
    moveNode(ctx.tx, site, { type: 'site-section-group', id: group.id }, body.position);
    return groupAnswer(view, site, group.id);
  }),

  ...on('deleteSiteSectionGroupById', (ctx, { params }) => {
    const { site } = siteAccess(ctx, params);
    const group = getGroup(ctx.tx, params.siteSectionGroupId);
    if (!group || group.site !== site.id) return nothingToDelete();
    removeGroup(ctx.tx, site, group);
    return deleted();
  }),

  // ─── §4.6 Site spaces ────────────────────────────────────────────────────

  ...on('listSiteSpaces', (ctx, { params, query }) => {
    const { site, view } = siteAccess(ctx, params);
    const owners = [site.id, ...sectionIdsInOrder(ctx.tx, site.id)];
    const answers = owners
      .flatMap((owner) => siteSpaceIdsOf(ctx.tx, owner))
      .filter((id) => visibleSpace(ctx.tx, getSiteSpace(ctx.tx, id) as SiteSpaceRecord) !== undefined)
      .map((id) => siteSpaceAnswer(view, site, id))
      .filter((answer) => query.default === undefined || answer.default === query.default);
    return paginate(itemsOf(answers), query, (answer) => answer);
  }),

  ...on('addSpaceToSite', {
    prepare: (ctx, { params, body }) => prepareSource(ctx, params.organizationId, body),
    run: async (ctx, { params, body }, prepared) => {
    const { site, view } = siteAccess(ctx, params);
    const section =
      body.sectionId !== undefined
        ? requireSection(ctx.tx, site, body.sectionId)
        : site.defaultSection !== undefined
          ? getSection(ctx.tx, site.defaultSection)
          : undefined;
    const owner = section?.id ?? site.id;
    const variants = siteSpaceIdsOf(ctx.tx, owner);
    if (body.spaceId !== null && variants.some((id) => getSiteSpace(ctx.tx, id)?.space === body.spaceId)) {
      throw conflict(`Space ${body.spaceId} is already in ${section ? `section ${section.id}` : `site ${site.id}`}`);
    }
    if (variants.length > 0) requireFeature(site, 'sites-multivariant-site', 'have several variants in one section');
    const space = await sourceSpace(ctx, site, body, prepared as Prepared | undefined);
    const id = ctx.ids();
    attachSiteSpace(ctx.tx, {
      id,
      site: site.id,
      space: space.id,
      ...(section ? { section: section.id } : {}),
      path: freePath(body.title ?? space.title, (p) => siteSpacePathTaken(ctx.tx, owner, p)),
      ...(body.draft === true ? { draft: true } : {}),
      ...(body.title !== undefined ? { title: body.title } : {}),
      ...(body.pageId != null ? { pageId: body.pageId } : {}),
    });
    return new Reply(201, siteSpaceAnswer(view, site, id));
    },
  }),

  ...on('updateSiteSpaceById', (ctx, { params, body }) => {
    const { site, view } = siteAccess(ctx, params);
    const siteSpace = requireSiteSpace(ctx.tx, site, params.siteSpaceId);
    if (Object.values(body).every((value) => value === undefined)) {
      throw badRequest('Nothing to update: pass at least one of path, condition, spaceId, pageId, draft, hidden');
    }
    const owner = siteSpaceOwner(siteSpace);
    if (body.path !== undefined && siteSpacePathTaken(ctx.tx, owner, body.path, siteSpace.id)) {
      throw conflict(`Path "${body.path}" is already used by another site space of ${siteSpace.section ? `section ${siteSpace.section}` : `site ${site.id}`}`);
    }
    let next: SiteSpaceRecord = { ...siteSpace };
    if (body.path !== undefined) next.path = body.path;
    if (body.condition === null) {
      const { condition: _old, ...rest } = next;
      next = rest;
    } else if (body.condition !== undefined) next.condition = body.condition;
    if (body.spaceId !== undefined && body.spaceId !== siteSpace.space) {
      const space = requireSiteSpaceSource(ctx, site, body.spaceId);
      if (siteSpaceIdsOf(ctx.tx, owner).some((id) => getSiteSpace(ctx.tx, id)?.space === space.id)) {
        throw conflict(`Space ${space.id} is already a variant of ${siteSpace.section ? `section ${siteSpace.section}` : `site ${site.id}`}`);
      }
      siteSpacesOfSpace.remove(ctx.tx, siteSpace.space, siteSpace.id);
      siteSpacesOfSpace.put(ctx.tx, space.id, siteSpace.id, site.id);
      next.space = space.id;
      // Another space: its home page was a page of the old one (spec: removed unless a new one is given).
      delete next.pageId;
    }
    if (body.pageId === null) delete next.pageId;
    else if (body.pageId !== undefined) next.pageId = requireHomePage(ctx.tx, requireSiteSpaceSource(ctx, site, next.space), body.pageId);
    setDraft(next as unknown as Record<string, unknown>, body.draft);
    setFlag(next as unknown as Record<string, unknown>, 'hidden', body.hidden);
    putSiteSpace(ctx.tx, next);
    return siteSpaceAnswer(view, site, siteSpace.id);
  }),

  ...on('moveSiteSpace', (ctx, { params, body }) => {
    const { site, view } = siteAccess(ctx, params);
    const siteSpace = requireSiteSpace(ctx.tx, site, params.siteSpaceId);
    const p = body.position;
    moveSiteSpaceTo(ctx.tx, site, siteSpace, {
      before: p?.before && { type: 'site-space', id: p.before.siteSpace },
      after: p?.after && { type: 'site-space', id: p.after.siteSpace },
    });
    return siteSpaceAnswer(view, site, siteSpace.id);
  }),

  ...on('deleteSiteSpaceById', (ctx, { params }) => {
    const { site } = siteAccess(ctx, params);
    const siteSpace = getSiteSpace(ctx.tx, params.siteSpaceId);
    if (!siteSpace || siteSpace.site !== site.id) return nothingToDelete();
    if (siteSpace.section !== undefined && siteSpaceOrder.count(ctx.tx, siteSpace.section) === 1) {
      throw conflict(
        `Site space ${siteSpace.id} is the last one of section ${siteSpace.section}: delete the section instead (docsctl site section remove ${site.id} ${siteSpace.section})`,
      );
    }
    removeSiteSpace(ctx.tx, siteSpace);
    return deleted();
  }),

  // ─── Real API: sort the structure ────────────────────────────────────────

  ...on('sortSiteStructure', (ctx, { params, body }) => {
    const { site, view } = siteAccess(ctx, params);
    const { item, position } = body;
    if (item.type === 'site-space') {
      const siteSpace = requireSiteSpace(ctx.tx, site, item.id);
      moveSiteSpaceTo(ctx.tx, site, siteSpace, position);
      return siteSpaceAnswer(view, site, siteSpace.id);
    }
    if (item.type === 'site-section') {
      const section = requireSection(ctx.tx, site, item.id);
      moveNode(ctx.tx, site, { type: 'site-section', id: section.id }, position);
      return sectionAnswer(view, site, section.id);
    }
    const group = requireGroup(ctx.tx, site, item.id);
    moveNode(ctx.tx, site, { type: 'site-section-group', id: group.id }, position);
    return groupAnswer(view, site, group.id);
  }),
};

export const duplicateSiteSpaceHandlers: Record<string, Handler> = {
  /** The space copied (spaces.ts `copySpace`) and shown as a new variant at the end of the same section (or root). */
  ...onStructure('duplicateSiteSpace', (ctx, { params, body }) => {
    const { site, view } = siteAccess(ctx, params);
    const original = requireSiteSpace(ctx.tx, site, params.siteSpaceId);
    const space = requireSiteSpaceSource(ctx, site, original.space);
    requireFeature(site, 'sites-multivariant-site', 'have several variants in one section');
    const copy = copySpace(ctx, space);
    const owner = siteSpaceOwner(original);
    const id = ctx.ids();
    attachSiteSpace(ctx.tx, {
      id,
      site: site.id,
      space: copy.id,
      ...(original.section !== undefined ? { section: original.section } : {}),
      path: freePath(copy.title, (p) => siteSpacePathTaken(ctx.tx, owner, p)),
      ...(original.condition !== undefined ? { condition: original.condition } : {}),
      ...(body.draft === true ? { draft: true } : {}),
    });
    const seg = encodeURIComponent;
    return new Reply(201, siteSpaceAnswer(view, site, id), { Location: apiUrl(ctx.origin, `orgs/${seg(site.organization)}/sites/${seg(site.id)}/site-spaces/${seg(id)}`) });
  }),
};
