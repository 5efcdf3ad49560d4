/**
 * Zod building blocks shared by the route declarations.
 *
 * Query values arrive as strings (from a URL or from command-line flags), so the
 * query helpers accept strings and convert them; bodies are JSON and use the plain types.
 */
import * as z from 'zod';
import type { LightParam } from '../light-query.js';

/**
 * What the query helpers below accept, for the build to describe light queries
 * (scripts/gen-manifest.mjs, src/api/light-query.ts): their preprocess steps
 * cannot be read back from the schema itself.
 */
export const lightQueryParams = new WeakMap<z.ZodType, LightParam | { t: 'list'; item: z.ZodType }>();

function light<T extends z.ZodType>(schema: T, spec: LightParam | { t: 'list'; item: z.ZodType }): T {
  lightQueryParams.set(schema, spec);
  return schema;
}

/** A path parameter: a non-empty segment. */
export const id = () => z.string().min(1);

/** Path params object for a template, e.g. `pathParams('spaceId')`. */
export function pathParams<K extends string>(...names: K[]) {
  const shape = {} as Record<K, z.ZodString>;
  for (const name of names) shape[name] = z.string().min(1);
  return z.object(shape);
}

/** A query parameter that is a boolean (`true`/`false`, `1`/`0`) or the string `mode` (`evaluated`, `dereferenced`). */
export const qBoolOr = <M extends string>(mode: M) =>
  z.preprocess(
    (value) => {
      if (value === 'true' || value === '1' || value === '') return true;
      if (value === 'false' || value === '0') return false;
      return value;
    },
    z.union([z.boolean(), z.literal(mode)]),
  );

/** A boolean query parameter: `true`/`false` (also `1`/`0`), or a real boolean. */
export const qBool = () =>
  light(
    z.preprocess((value) => {
      if (value === 'true' || value === '1' || value === '') return true;
      if (value === 'false' || value === '0') return false;
      return value;
    }, z.boolean()),
    { t: 'bool' },
  );

/** A numeric query parameter given as a string or number. */
export const qNumber = () =>
  light(
    z.preprocess((value) => (typeof value === 'string' && value.trim() !== '' ? Number(value) : value), z.number()),
    { t: 'number' },
  );

/** A query parameter that may repeat (`?type=a&type=b`) or be comma-separated. */
export function qArray<T extends z.ZodType>(item: T) {
  return light(
    z.preprocess((value) => {
      if (value === undefined) return undefined;
      const list = Array.isArray(value) ? value : [value];
      return list.flatMap((v) => (typeof v === 'string' ? v.split(',').filter(Boolean) : [v]));
    }, z.array(item)),
    { t: 'list', item },
  );
}

/** `page` and `limit` of every paginated list (limit ≤ 1000; a larger value is a 400). */
export const paginationQuery = {
  page: z.string().optional(),
  limit: light(qNumber().pipe(z.number().int().min(0).max(1000)), { t: 'number', int: true, min: 0, max: 1000 }).optional(),
};

/** Query of a plain paginated list. */
export const listQuery = () => z.object(paginationQuery);

/** A query with no parameters (unknown ones are ignored, as the real API does). */
export const noQuery = () => z.object({});

// ─── Enumerations (gaps.md §1.1) ───────────────────────────────────────────

export const MemberRole = z.enum(['admin', 'create', 'edit', 'review', 'comment', 'read']);
export const MemberRoleOrGuest = MemberRole.nullable();
export const DefaultLevel = z.union([MemberRole, z.literal('inherit')]).nullable();
export const TeamMemberRole = z.enum(['owner', 'member']);
export const SpaceEditMode = z.enum(['live', 'locked']);
export const ContentVisibility = z.enum(['public', 'unlisted', 'share-link', 'visitor-auth', 'in-collection', 'private']);
export const SiteVisibility = z.enum(['public', 'unlisted', 'share-link', 'visitor-auth']);
export const SiteType = z.enum(['basic', 'premium', 'ultimate', 'sponsored', 'legacy-basic', 'legacy-premium']);
export const ChangeRequestStatus = z.enum(['draft', 'open', 'archived', 'merged']);
export const ListOrder = z.enum(['asc', 'desc']);
export const DocumentFormat = z.enum(['document', 'markdown']);
export const CommentStatusFilter = z.enum(['all', 'open', 'resolved']);
/** 0.202 `ApplySpaceTemplate`: a built-in template (src/domain/content/templates.ts) and the content references it takes. */
export const SpaceTemplate = z.object({
  id: z.string().min(1).describe('template: product-docs, api-reference or knowledge-base'),
  params: z.object({ contentRefs: z.record(z.string(), z.object({ kind: z.string().min(1) }).catchall(z.unknown())).optional() }).optional(),
});

export const ContentReferenceStatus = z.enum(['ok', 'broken', 'in-app']);
/** 0.202's TranslationLanguage (zh-tw added since 0.143). */
export const TranslationLanguage = z.enum([
  'en', 'fr', 'de', 'es', 'it', 'pt', 'pt-br', 'ru', 'ja', 'zh', 'zh-tw', 'yue', 'ko', 'ar', 'hi', 'nl', 'pl', 'tr', 'sv',
  'no', 'da', 'fi', 'el', 'cs', 'hu', 'ro', 'th', 'vi', 'id', 'ms', 'he', 'uk', 'sk', 'bg', 'hr', 'lt', 'lv', 'et', 'sl',
]);
export const ImportContentSource = z.enum([
  'website', 'docx', 'markdown', 'html', 'zip', 'confluence', 'github-wiki', 'notion', 'google-docs',
]);
export const IntegrationTarget = z.enum(['all', 'site', 'space', 'organization']);
export const IntegrationVisibility = z.enum(['public', 'private', 'unlisted']);
export const IntegrationCategory = z.enum([
  'analytics', 'collaboration', 'content', 'gitsync', 'marketing', 'visitor-auth', 'other',
]);
export const IntegrationScope = z.enum([
  'space:content:read', 'space:content:write', 'space:metadata:read', 'space:metadata:write', 'space:git:sync',
  'page:feedback:read', 'site:metadata:read', 'site:views:read', 'site:script:inject', 'site:script:cookies',
  'site:visitor:auth', 'site:adaptive:read', 'site:adaptive:write', 'openapi:read', 'openapi:write',
  'conversations:ingest', 'space:views:read', 'space:script:inject', 'space:script:cookies', 'space:visitor:auth',
]);
export const CustomFieldType = z.enum(['text', 'number', 'boolean', 'tags', 'select:multi', 'select:single']);

/** Emoji or icon name: a string of at most 50 characters. */
export const Emoji = z.string().max(50);
export const Url = z.string().url().max(2048);

/** A JSON document (`{object:'document', data, nodes}`), kept as given. */
export const JSONDocument = z
  .object({ object: z.literal('document'), data: z.record(z.string(), z.unknown()), nodes: z.array(z.unknown()) })
  .passthrough();

/** Comment/reply body: `{markdown}` or `{document}`. */
export const DocumentBody = z.union([
  z.object({ markdown: z.string() }).strict(),
  z.object({ document: JSONDocument }).strict(),
]);

/** Position pointer of collection/space moves. */
export const ContentPointer = z.discriminatedUnion('type', [
  z.object({ type: z.literal('space'), space: z.string().min(1) }),
  z.object({ type: z.literal('collection'), collection: z.string().min(1) }),
]);
export const ContentPosition = z.object({ before: ContentPointer.optional(), after: ContentPointer.optional() });
