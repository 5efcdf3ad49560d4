/**
 * Custom fonts of an organization: a font family and one file per weight.
 *
 * Rules decided here:
 * - Any member may list and read fonts; creating, changing and deleting them needs
 *   `admin` (`permissions.edit` says whether the caller may).
 * - A font always has a regular face (weight 400): a create without one, or an
 *   update that would remove it, is a 412, as the real API answers. A weight appears
 *   once per request (400 otherwise); a font has at most 100 faces.
 * - The real API takes `storageKey`, the key of a file uploaded to its storage. docsctl
 *   has no file storage, so the key is the font file's URL: an absolute `https://`
 *   URL (`http://` only on a loopback host, for local development) to a `.woff2` or
 *   `.woff` file, without credentials or whitespace. It is checked, stored and shown
 *   (`sources[].url`, with the format its extension names), never fetched: the
 *   browsers of a site's visitors load it.
 * - A family name may not hold control characters or `" \ < > { } ;` (it ends up in
 *   a site's CSS); it is trimmed.
 * - Update: `fontFamily` replaces the family; each face with a URL sets that weight,
 *   each with `storageKey: null` removes it; weights not named are kept.
 */
import { badRequest, notFound, preconditionFailed } from '../api/errors.js';
import type * as routes from '../api/routes/fonts.js';
import { redactUrls } from '../util/redact.js';
import { type Handler, Reply, deleted, implementer, nothingToDelete } from './handler.js';
import { KeyedSet } from './ordered.js';
import { atLeast, orgAccess } from './permissions.js';
import { isLoopbackHost } from './policy.js';
import type { Role } from './core-records.js';

const REGULAR = 400;
const MAX_FACES = 100;

export interface FontFaceRecord {
  weight: number;
  url: string;
  format: 'woff2' | 'woff';
}

export interface FontRecord {
  id: string;
  fontFamily: string;
  /** By weight, ascending. */
  faces: FontFaceRecord[];
  createdAt: string;
  updatedAt: string;
}

/** An organization's fonts, by id (creation order: ids start with their creation time). */
export const orgFonts = new KeyedSet<FontRecord>('orgFonts');

/** `CustomizationFontDefinition`. */
export function fontView(font: FontRecord, role: Role) {
  return {
    id: font.id,
    custom: true,
    fontFamily: font.fontFamily,
    fontFaces: font.faces.map((face) => ({ weight: face.weight, sources: [{ url: face.url, format: face.format }] })),
    permissions: { edit: atLeast(role, 'admin') },
  };
}

/**
 * The face a storage key names: the key must be the URL of a .woff2 or .woff file,
 * https (http on a loopback host), without credentials. Checked, never fetched.
 */
export function fontFace(weight: number, storageKey: string): FontFaceRecord {
  const shown = redactUrls(storageKey);
  const refuse = (why: string) => badRequest(`Invalid font file for weight ${weight}: ${why} (got ${JSON.stringify(shown)})`);
  // Whitespace and control characters would be silently dropped or encoded by the parser: refuse them as given.
  if (/[\s\u0000-\u001f\u007f]/.test(storageKey)) throw refuse('a URL cannot contain whitespace or control characters');
  let url: URL;
  try {
    url = new URL(storageKey);
  } catch {
    throw refuse('docsctl has no file storage, so storageKey is the font file\'s absolute https:// URL');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    throw refuse('use an https:// URL (http:// only on a loopback host)');
  }
  if (url.username !== '' || url.password !== '') throw refuse('a font URL is public: it cannot carry credentials');
  const format = /\.woff2$/i.test(url.pathname) ? 'woff2' : /\.woff$/i.test(url.pathname) ? 'woff' : undefined;
  if (!format) throw refuse('the URL must name a .woff2 or .woff file');
  // The parser percent-encodes what it must: the result must still fit the real schema's URL (2,048).
  if (url.href.length > 2048) throw refuse('the URL is longer than 2,048 characters once encoded');
  return { weight, url: url.href, format };
}

/**
 * A family name as CSS will quote it (`font-family: "…"`): what could close the string
 * or the rule, or hide in a terminal, is refused rather than escaped.
 */
function checkFamily(family: string): string {
  if (family.trim() === '') throw badRequest('Invalid fontFamily: it cannot be blank');
  if (/[\u0000-\u001f\u007f"\\<>{};]/.test(family)) {
    throw badRequest(`Invalid fontFamily ${JSON.stringify(family)}: control characters and " \\ < > { } ; are not allowed`);
  }
  return family.trim();
}

/** The faces of a request, each weight once. */
function checkWeights(faces: ReadonlyArray<{ weight: number }>): void {
  const seen = new Set<number>();
  for (const { weight } of faces) {
    if (seen.has(weight)) throw badRequest(`Font weight ${weight} is given twice: give each weight once`);
    seen.add(weight);
  }
}

function checkFaces(faces: readonly FontFaceRecord[]): void {
  if (!faces.some((face) => face.weight === REGULAR)) {
    throw preconditionFailed(`A font needs a regular face (weight ${REGULAR}): add one, or keep the one it has`);
  }
  if (faces.length > MAX_FACES) throw badRequest(`A font has at most ${MAX_FACES} faces (got ${faces.length})`);
}

const byWeight = (a: FontFaceRecord, b: FontFaceRecord) => a.weight - b.weight;

const on = implementer<typeof routes>();

export const fontHandlers: Record<string, Handler> = {
  ...on('listCustomFonts', (ctx, { params, query }) => {
    const { org, role } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    return orgFonts.page(ctx.tx, org.id, query, ({ value }) => fontView(value, role));
  }),

  ...on('createCustomFont', (ctx, { params, body }) => {
    const { org, role } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    checkWeights(body.fontFaces);
    const faces = body.fontFaces.map((face) => fontFace(face.weight, face.storageKey)).sort(byWeight);
    checkFaces(faces);
    const now = ctx.clock().toISOString();
    const font: FontRecord = { id: ctx.ids(), fontFamily: checkFamily(body.fontFamily), faces, createdAt: now, updatedAt: now };
    orgFonts.put(ctx.tx, org.id, font.id, font);
    return new Reply(201, fontView(font, role));
  }),

  ...on('getCustomFont', (ctx, { params }) => {
    const { org, role } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    const font = orgFonts.get(ctx.tx, org.id, params.fontId);
    if (!font) throw notFound(`Font ${params.fontId} not found in organization ${org.id}`);
    return fontView(font, role);
  }),

  ...on('updateCustomFont', (ctx, { params, body }) => {
    const { org, role } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    const font = orgFonts.get(ctx.tx, org.id, params.fontId);
    if (!font) throw notFound(`Font ${params.fontId} not found in organization ${org.id}`);
    if (body.fontFamily === undefined && body.fontFaces === undefined) throw badRequest('Nothing to update: pass fontFamily and/or fontFaces');
    const faces = new Map(font.faces.map((face) => [face.weight, face]));
    if (body.fontFaces) {
      checkWeights(body.fontFaces);
      for (const { weight, storageKey } of body.fontFaces) {
        if (storageKey === null) faces.delete(weight);
        else faces.set(weight, fontFace(weight, storageKey));
      }
    }
    const updated: FontRecord = {
      ...font,
      fontFamily: body.fontFamily === undefined ? font.fontFamily : checkFamily(body.fontFamily),
      faces: [...faces.values()].sort(byWeight),
      updatedAt: ctx.clock().toISOString(),
    };
    checkFaces(updated.faces);
    orgFonts.put(ctx.tx, org.id, font.id, updated);
    return new Reply(201, fontView(updated, role));
  }),

  ...on('deleteCustomFont', (ctx, { params }) => {
    const { org } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    return orgFonts.remove(ctx.tx, org.id, params.fontId) ? deleted() : nothingToDelete();
  }),
};
