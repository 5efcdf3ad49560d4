/**
 * The organization-wide kinds of the file that are not part of the content tree: custom fonts
 * (named by family; a site's customization names one as `{fontFamily: Inter}`), SAML providers
 * of the SSO (by label; `defaultTeam` by title), translations of spaces (by source space and
 * target language) and OpenAPI specifications (by slug; the source is a URL or a file beside
 * the organization file, whose text is sent: published versions are content, not part of the
 * file). Each list is read once, and only when the file lists its kind (the SAML list needs
 * an administrator). `id:` pins an object; --prune deletes what a listed kind leaves out.
 */
import { type FieldPath, fileError } from './parse.js';
import { type FieldChange, type PlannedRequest, type Ref, type StepOp, same } from './steps.js';
import type { FileFont, FileOpenAPISpec, FileSamlProvider, FileTranslation } from './schema.js';
import type { CurrentFont, OrgState } from './state.js';

/** What the organization planner lends this one. */
export interface KindsContext {
  state: OrgState;
  prune: boolean;
  where(path: FieldPath): string;
  resolve(key: string): string | Ref | undefined;
  need(key: string, path: FieldPath, what: string, hint: string): string | Ref;
  know(key: string, id: string): void;
  create(key: string): void;
  step(op: StepOp, kind: string, name: string, changes: FieldChange[], requests: PlannedRequest[]): void;
  /** The text of a file the organization file names (a path relative to it). */
  readSource(path: string, field: FieldPath): Promise<string>;
}

/** A PEM certificate as the API keeps it (trimmed, one final newline). */
const pem = (value: unknown) => (typeof value === 'string' ? `${value.trim()}\n` : value);

/** A font file's URL as the API stores it (the storage key as given when it is no URL). */
function normalUrl(key: string): string {
  try {
    return new URL(key).href;
  } catch {
    return key;
  }
}

const describeFaces = (faces: ReadonlyArray<{ weight: number; storageKey: string }>) =>
  [...faces].sort((a, b) => a.weight - b.weight).map((face) => `${face.weight} ${normalUrl(face.storageKey)}`);

/** The one object of `list` pinned by `id` or named `name`: an error naming the line otherwise. */
function find<T extends { id: string }>(ctx: KindsContext, list: readonly T[], pinned: string | undefined, named: (item: T) => boolean, path: FieldPath, what: string): T | undefined {
  if (pinned !== undefined) {
    const found = list.find((item) => item.id === pinned);
    if (!found) throw fileError(ctx.where([...path, 'id']), [...path, 'id'], `no ${what} with id ${pinned} in the organization`, 'remove the id to create it, or fix it');
    return found;
  }
  const found = list.filter(named);
  if (found.length > 1) throw fileError(ctx.where(path), path, `${found.length} ${what}s have this name (${found.map((item) => item.id).join(', ')})`, 'pin the one you mean with id:');
  return found[0];
}

/** Two objects of a list the file names alike: the second is an error naming its line. */
function once<T>(ctx: KindsContext, list: readonly T[], nameOf: (item: T) => string, kind: string, path: FieldPath): void {
  const seen = new Set<string>();
  list.forEach((item, i) => {
    const name = nameOf(item);
    if (seen.has(name)) throw fileError(ctx.where([...path, i]), [...path, i], `${kind} ${name} is listed twice`, 'list each once');
    seen.add(name);
  });
}

export class KindsPlanner {
  private readonly org: { organizationId: string };
  /** The fonts of the file, by family (for customizations that name one). */
  private readonly fileFonts = new Map<string, FileFont>();
  /** Ids of the current objects the file names (--prune keeps them). */
  private readonly kept = new Set<string>();

  constructor(private readonly ctx: KindsContext) {
    this.org = { organizationId: ctx.state.organizationId };
  }

  async fonts(fonts: readonly FileFont[]): Promise<void> {
    if (!fonts.length) return;
    once(this.ctx, fonts, (f) => f.fontFamily, 'font', ['fonts']);
    const current = await this.ctx.state.fonts();
    for (const [i, font] of fonts.entries()) {
      const here = ['fonts', i];
      this.fileFonts.set(font.fontFamily, font);
      const key = `font:${font.fontFamily}`;
      const found = find(this.ctx, current, font.id, (c) => c.fontFamily === font.fontFamily, here, 'font');
      if (!found) {
        this.ctx.create(key);
        this.ctx.step('+', 'font', font.fontFamily, [{ field: 'fontFaces', to: describeFaces(font.fontFaces) }], [
          { route: 'createCustomFont', params: this.org, body: { fontFamily: font.fontFamily, fontFaces: font.fontFaces }, bind: { [key]: 'id' } },
        ]);
        continue;
      }
      this.ctx.know(key, found.id);
      this.kept.add(found.id);
      const changes: FieldChange[] = [];
      const body: Record<string, unknown> = {};
      if (found.fontFamily !== font.fontFamily) {
        changes.push({ field: 'fontFamily', from: found.fontFamily, to: font.fontFamily });
        body.fontFamily = font.fontFamily;
      }
      const wanted = new Map(font.fontFaces.map((face) => [face.weight, normalUrl(face.storageKey)]));
      const faces = [
        ...font.fontFaces.filter((face) => found.fontFaces.find((c) => c.weight === face.weight)?.storageKey !== normalUrl(face.storageKey)),
        ...found.fontFaces.filter((c) => !wanted.has(c.weight)).map((c) => ({ weight: c.weight, storageKey: null })),
      ];
      if (faces.length) {
        changes.push({ field: 'fontFaces', from: describeFaces(found.fontFaces), to: describeFaces(font.fontFaces) });
        body.fontFaces = faces;
      }
      if (changes.length) this.ctx.step('~', 'font', font.fontFamily, changes, [{ route: 'updateCustomFont', params: { ...this.org, fontId: found.id }, body }]);
    }
  }

  /**
   * A site's customization as the file gives it (fonts named `{fontFamily: X}`) and as the API
   * takes it (the font's whole definition, with its id). Fonts are read only when one is named.
   */
  async customization(wanted: Record<string, unknown>, path: FieldPath): Promise<Record<string, unknown>> {
    const styling = wanted.styling as Record<string, unknown> | undefined;
    const named = FONT_KEYS.filter((key) => isFontName(styling?.[key]));
    if (!named.length) return wanted;
    const current = await this.ctx.state.fonts();
    const resolved: Record<string, unknown> = { ...styling };
    for (const key of named) {
      const { fontFamily, id: pinned } = styling?.[key] as { fontFamily: string; id?: string };
      const at = [...path, 'styling', key, 'fontFamily'];
      const byId = typeof pinned === 'string' ? current.find((font) => font.id === pinned) : undefined;
      if (typeof pinned === 'string' && !byId) throw fileError(this.ctx.where(at), at, `no font with id ${pinned} in the organization`, 'fix the id, or name the font by fontFamily alone');
      const sameFamily = current.filter((font) => font.fontFamily === fontFamily);
      if (!byId && !this.fileFonts.has(fontFamily) && sameFamily.length > 1) throw fileError(this.ctx.where(at), at, `${sameFamily.length} fonts are named "${fontFamily}"`, 'pin the one you mean with id:');
      const id = byId?.id ?? this.ctx.resolve(`font:${fontFamily}`) ?? sameFamily[0]?.id;
      if (id === undefined) throw fileError(this.ctx.where(at), at, `no font "${fontFamily}" in the file or the organization`, 'add it to fonts, or name a default font');
      const file = this.fileFonts.get(fontFamily);
      const existing = typeof id === 'string' ? current.find((font) => font.id === id) : undefined;
      // The font as it will be: the file's faces when the file lists it, else its current definition.
      resolved[key] = file && (!existing || existing.fontFamily === fontFamily) ? definitionOf(id, file) : (existing as CurrentFont).definition;
    }
    return { ...wanted, styling: resolved };
  }

  /**
   * The fonts a customization embeds whose faces are not the font's (as the plan leaves it): the
   * API keeps a copy of the definition in the customization, refreshed by sending it again.
   */
  staleFonts(body: Record<string, unknown>, current: Record<string, unknown>): FieldChange[] {
    const wanted = body.styling as Record<string, unknown> | undefined;
    const had = current.styling as Record<string, unknown> | undefined;
    const changes: FieldChange[] = [];
    for (const key of FONT_KEYS) {
      const to = wanted?.[key] as { id?: unknown; fontFamily?: string; fontFaces?: unknown } | undefined;
      const from = had?.[key] as { id?: unknown; fontFaces?: unknown } | undefined;
      if (typeof to?.id !== 'string' || !from || typeof from !== 'object' || from.id !== to.id || same(from.fontFaces, to.fontFaces)) continue;
      changes.push({ field: `customization.styling.${key}.fontFaces`, from: '(an older copy)', to: `the faces of ${to.fontFamily}` });
    }
    return changes;
  }

  async samlProviders(providers: readonly FileSamlProvider[]): Promise<void> {
    if (!providers.length) return;
    once(this.ctx, providers, (p) => p.label, 'SAML provider', ['samlProviders']);
    const current = await this.ctx.state.samlProviders();
    for (const [i, provider] of providers.entries()) {
      const here = ['samlProviders', i];
      const { id: pinned, label, defaultTeam, defaultRole, ...rest } = provider;
      const teamId = defaultTeam === undefined ? undefined : this.ctx.need(`team:${defaultTeam}`, [...here, 'defaultTeam'], `team "${defaultTeam}"`, 'add it to teams, or fix the title');
      const role = defaultRole === undefined ? undefined : defaultRole === 'guest' ? null : defaultRole;
      const found = find(this.ctx, current, pinned, (c) => c.label === label, here, 'SAML provider');
      if (found) this.kept.add(found.id);
      const fields = { label, ...rest, ...(role !== undefined ? { defaultRole: role } : {}) };
      const shown = (changes: FieldChange[]) => changes.map((c) => (c.field === 'certificate' ? { field: c.field, ...(c.from ? { from: '(PEM)' } : {}), to: '(PEM)' } : c));
      if (!found) {
        const changes = Object.entries({ ...rest, ...(defaultTeam !== undefined ? { defaultTeam } : {}), ...(defaultRole !== undefined ? { defaultRole } : {}) }).map(([field, to]) => ({ field, to }));
        this.ctx.step('+', 'SAML provider', label, shown(changes), [
          { route: 'createOrganizationSAMLProvider', params: this.org, body: { ...fields, ...(teamId !== undefined ? { defaultTeam: teamId } : {}) } },
        ]);
        continue;
      }
      const changes: FieldChange[] = [];
      const body: Record<string, unknown> = {};
      for (const [field, to] of Object.entries(fields)) {
        const from = found[field as keyof typeof found];
        if (to !== undefined && !same(field === 'certificate' ? pem(to) : to, field === 'certificate' ? pem(from) : from)) {
          changes.push({ field, from: field === 'defaultRole' && from === null ? 'guest' : from, to: field === 'defaultRole' ? defaultRole : to });
          body[field] = to;
        }
      }
      if (teamId !== undefined && teamId !== found.defaultTeam) {
        changes.push({ field: 'defaultTeam', from: found.defaultTeam === undefined ? undefined : this.ctx.state.teams.find((t) => t.id === found.defaultTeam)?.title, to: defaultTeam });
        body.defaultTeam = teamId;
      }
      if (changes.length) this.ctx.step('~', 'SAML provider', label, shown(changes), [{ route: 'updateOrganizationSAMLProvider', params: { ...this.org, samlProviderId: found.id }, body }]);
    }
  }

  async translations(translations: readonly FileTranslation[]): Promise<void> {
    if (!translations.length) return;
    const nameOf = (t: FileTranslation) => `${t.source.space} (${t.source.language} → ${t.language})`;
    once(this.ctx, translations, (t) => `${t.source.space} → ${t.language}`, 'translation', ['translations']);
    const current = await this.ctx.state.translations();
    for (const [i, translation] of translations.entries()) {
      const here = ['translations', i];
      const spaceId = this.ctx.need(`space:${translation.source.space}`, [...here, 'source', 'space'], `space "${translation.source.space}"`, 'add it to spaces, or fix the title path');
      const found =
        translation.id !== undefined || typeof spaceId === 'string'
          ? find(this.ctx, current, translation.id, (c) => c.source.space === spaceId && c.language === translation.language, here, 'translation')
          : undefined;
      const name = nameOf(translation);
      if (!found) {
        this.ctx.step('+', 'translation', name, translation.instructions ? [{ field: 'instructions', to: translation.instructions }] : [], [
          {
            route: 'createTranslation',
            params: this.org,
            body: { source: { space: spaceId, language: translation.source.language }, language: translation.language, ...(translation.instructions ? { instructions: translation.instructions } : {}) },
          },
        ]);
        continue;
      }
      this.kept.add(found.id);
      if (found.source.space !== spaceId || found.language !== translation.language) {
        throw fileError(this.ctx.where(here), here, `translation ${found.id} translates another space or into another language; the API cannot change either`, 'remove the id to create a new translation (and --prune the old one)');
      }
      const changes: FieldChange[] = [];
      if (translation.source.language !== found.source.language) {
        throw fileError(this.ctx.where([...here, 'source', 'language']), [...here, 'source', 'language'], `the API cannot change the source language of a translation (${found.source.language} → ${translation.source.language})`, 'delete it with --prune and create it again');
      }
      if (translation.instructions !== undefined && !same(translation.instructions, found.instructions)) changes.push({ field: 'instructions', from: found.instructions, to: translation.instructions });
      if (changes.length) {
        this.ctx.step('~', 'translation', name, changes, [
          { route: 'updateTranslation', params: { ...this.org, translationSettingsId: found.id }, body: { instructions: translation.instructions } },
        ]);
      }
    }
  }

  async openAPISpecs(specs: readonly FileOpenAPISpec[]): Promise<void> {
    if (!specs.length) return;
    once(this.ctx, specs, (s) => s.slug, 'OpenAPI specification', ['openAPISpecs']);
    const current = await this.ctx.state.openAPISpecs();
    for (const [i, spec] of specs.entries()) {
      const here = ['openAPISpecs', i];
      const found = find(this.ctx, current, spec.id, (c) => c.slug === spec.slug, here, 'OpenAPI specification');
      if (found && found.slug !== spec.slug) {
        throw fileError(this.ctx.where([...here, 'slug']), [...here, 'slug'], `the API cannot change the slug of an OpenAPI specification (${found.slug} → ${spec.slug})`, 'remove the id to create it under the new slug (and --prune the old one)');
      }
      if (found) this.kept.add(found.id);
      const params = { ...this.org, specSlug: spec.slug };
      const requests: PlannedRequest[] = [];
      const changes: FieldChange[] = [];
      if (!spec.source && !found) throw fileError(this.ctx.where(here), here, `OpenAPI specification ${spec.slug} does not exist and has no source`, 'give source: {url: …} or source: {file: …}');
      if (spec.source) {
        const source = 'url' in spec.source ? { url: spec.source.url } : { text: await this.ctx.readSource(spec.source.file, [...here, 'source', 'file']) };
        const changed =
          !found || ('url' in source ? found.sourceURL !== source.url : found.sourceURL !== undefined || (await this.ctx.state.openAPISpecText(spec.slug)) !== source.text);
        if (changed) {
          changes.push({ field: 'source', ...(found ? { from: found.sourceURL ?? '(a file)' } : {}), to: 'url' in spec.source ? spec.source.url : spec.source.file });
          requests.push({ route: 'createOrUpdateOpenAPISpecBySlug', params, body: { source } });
        }
      }
      const visibility = found?.visibility ?? 'private';
      if (spec.visibility !== undefined && spec.visibility !== visibility) {
        changes.push({ field: 'visibility', ...(found ? { from: visibility } : {}), to: spec.visibility });
        requests.push({ route: 'updateOpenAPISpecBySlug', params, body: { visibility: spec.visibility } });
      }
      if (requests.length) this.ctx.step(found ? '~' : '+', 'OpenAPI specification', spec.slug, changes, requests);
    }
  }

  /** --prune: the objects of the kinds the file lists that it does not name. */
  async prune(file: { fonts?: readonly FileFont[] | undefined; samlProviders?: readonly FileSamlProvider[] | undefined; translations?: readonly FileTranslation[] | undefined; openAPISpecs?: readonly FileOpenAPISpec[] | undefined }): Promise<void> {
    const { state } = this.ctx;
    if (file.translations) {
      for (const t of (await state.translations()).filter((t) => !this.kept.has(t.id))) {
        const space = state.spaces.find((s) => s.id === t.source.space);
        this.ctx.step('-', 'translation', `${space ? state.spacePath(space) : t.source.space} (${t.source.language} → ${t.language})`, [], [
          { route: 'deleteTranslation', params: { ...this.org, translationSettingsId: t.id } },
        ]);
      }
    }
    if (file.samlProviders) {
      for (const p of (await state.samlProviders()).filter((p) => !this.kept.has(p.id))) {
        this.ctx.step('-', 'SAML provider', p.label, [], [{ route: 'deleteOrganizationSAMLProvider', params: { ...this.org, samlProviderId: p.id } }]);
      }
    }
    if (file.openAPISpecs) {
      for (const s of (await state.openAPISpecs()).filter((s) => !this.kept.has(s.id))) {
        this.ctx.step('-', 'OpenAPI specification', s.slug, [], [{ route: 'deleteOpenAPISpecBySlug', params: { ...this.org, specSlug: s.slug } }]);
      }
    }
    if (file.fonts) {
      for (const f of (await state.fonts()).filter((f) => !this.kept.has(f.id))) {
        this.ctx.step('-', 'font', f.fontFamily, [], [{ route: 'deleteCustomFont', params: { ...this.org, fontId: f.id } }]);
      }
    }
  }
}

/** The customization settings that take a font. */
export const FONT_KEYS = ['font', 'headingFont', 'monospaceFont'] as const;

/** `{fontFamily: Inter}`: a custom font named in a customization (a whole definition has fontFaces). */
const isFontName = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as { fontFamily?: unknown }).fontFamily === 'string' && !('fontFaces' in value);

/** A font's definition, as a customization embeds it, from the file's font (its id known, or a reference to the one created). */
function definitionOf(id: string | Ref, font: FileFont): Record<string, unknown> {
  return {
    id,
    custom: true,
    fontFamily: font.fontFamily,
    fontFaces: font.fontFaces.map((face) => ({ weight: face.weight, sources: [{ url: normalUrl(face.storageKey), format: /\.woff$/i.test(face.storageKey) ? 'woff' : 'woff2' }] })),
  };
}

/**
 * A customization as the file writes it: an embedded definition of one of the organization's
 * fonts becomes `{fontFamily: X}` (with its id when two fonts share the family).
 */
export function customizationFileForm(customization: Record<string, unknown>, fonts: readonly CurrentFont[]): Record<string, unknown> {
  const styling = customization.styling as Record<string, unknown> | undefined;
  if (!styling) return customization;
  let changed = false;
  const out: Record<string, unknown> = { ...styling };
  for (const key of FONT_KEYS) {
    const value = styling[key] as { id?: unknown } | undefined;
    const font = value && typeof value === 'object' ? fonts.find((f) => f.id === value.id) : undefined;
    if (!font) continue;
    out[key] = fonts.filter((f) => f.fontFamily === font.fontFamily).length > 1 ? { id: font.id, fontFamily: font.fontFamily } : { fontFamily: font.fontFamily };
    changed = true;
  }
  return changed ? { ...customization, styling: out } : customization;
}

