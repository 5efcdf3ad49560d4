/**
 * Insights of a site (real API, 0.202): events visitors cause on a published site (page views,
 * searches, feedback, link clicks…) tracked through the API, and queries over them (grouped,
 * filtered and counted over a time range), and the visitor segments they make. The engine that
 * answers them is src/domain/sites/insights*.ts.
 */
import * as z from 'zod';
import { defineRoute } from '../route.js';
import { Url, listQuery, noQuery, pathParams } from '../schemas/common.js';

const site = ['organizationId', 'siteId'] as const;

const Id = z.string().max(256);
const NullableId = Id.nullable();
const Text = z.string().max(2048);
const Timestamp = z.string().datetime({ offset: true });

const MAX_CLAIMS_BYTES = 4096;
const MAX_CLAIMS_DEPTH = 8;

/** Depth of a JSON value (a claim tree sent by a visitor: bounded so no event costs more than its share). */
function depthOf(value: unknown, limit: number): number {
  if (value === null || typeof value !== 'object') return 0;
  if (limit === 0) return 1;
  let deepest = 0;
  for (const inner of Object.values(value)) deepest = Math.max(deepest, depthOf(inner, limit - 1));
  return deepest + 1;
}

/** 0.202 `PlainObject`: the visitor's claims (adaptive content), at most 4 KiB and 8 levels. */
const Claims = z
  .record(z.string().max(256), z.unknown())
  .refine((claims) => depthOf(claims, MAX_CLAIMS_DEPTH) <= MAX_CLAIMS_DEPTH, { message: `claims nest at most ${MAX_CLAIMS_DEPTH} levels` })
  .refine((claims) => JSON.stringify(claims).length <= MAX_CLAIMS_BYTES, { message: `claims take at most ${MAX_CLAIMS_BYTES} bytes as JSON` });

const Session = z.object({
  visitorId: Id.min(1),
  sessionId: Id.min(1),
  cookies: z.record(z.string().max(256), z.string().max(4096)).refine((cookies) => Object.keys(cookies).length <= 64, { message: 'at most 64 cookies' }),
  ip: z.string().max(64).optional(),
  userAgent: z.string().max(1024),
  language: z.string().max(64).nullable(),
  referrer: z.union([z.null(), z.literal(''), Url]),
  visitorAuthToken: z.string().max(8192).nullable().optional(),
  visitorAuthClaims: Claims.optional(),
});

export const DisplayContext = z.enum(['site', 'server', 'embed', 'mcp']);
const Location = z.object({
  url: Url,
  displayContext: DisplayContext.optional(),
  siteSection: NullableId,
  siteSpace: NullableId,
  siteShareKey: NullableId,
  space: NullableId,
  revision: NullableId,
  page: NullableId,
});

const base = { session: Session, location: Location, timestamp: Timestamp.optional() };
const PageFeedbackRating = z.enum(['bad', 'ok', 'good']);
const OperationPointer = z.object({ path: Text, method: z.string().max(16) });
export const ContentRefKind = z.enum(['url', 'page', 'file', 'anchor', 'space', 'collection', 'user', 'reusable-content', 'tag', 'openapi']);
/** 0.202 `ContentRef`: its kind and that kind's fields (kept as given, within the body's bound). */
const ContentRef = z.object({ kind: ContentRefKind }).catchall(z.union([z.string().max(2048), z.number(), z.boolean(), z.null()]));
export const LinkPosition = z.enum(['announcement', 'header', 'footer', 'sidebar', 'content']);
const Ad = z.object({ domain: z.string().max(256), zoneId: z.string().max(256), placement: z.enum(['aside']) });
export const TrademarkPlacement = z.enum(['sidebar', 'ad', 'footer', 'pdf', 'embed']);
const Query = z.string().max(2048);

/** 0.202 `SiteInsightsEvent`, one object per `type`. */
export const SiteInsightsEvent = z.discriminatedUnion('type', [
  z.object({ ...base, type: z.literal('page_view') }),
  z.object({ ...base, type: z.literal('page_markdown_request'), markdownSource: z.enum(['page-action']).optional() }),
  z.object({ ...base, type: z.literal('search_open') }),
  z.object({ ...base, type: z.literal('search_type_query'), query: Query }),
  z.object({
    ...base,
    type: z.literal('search_open_result'),
    query: Query,
    result: z.union([z.object({ spaceId: Id, pageId: Id }), z.object({ recordId: Id })]),
  }),
  z.object({ ...base, type: z.literal('page_post_feedback'), feedback: z.object({ rating: PageFeedbackRating }) }),
  z.object({ ...base, type: z.literal('page_post_feedback_comment'), feedback: z.object({ rating: PageFeedbackRating, comment: z.string().min(1).max(512) }) }),
  z.object({ ...base, type: z.literal('agent_feedback') }),
  z.object({ ...base, type: z.literal('ask_question'), query: Query, goal: Text.optional() }),
  z.object({ ...base, type: z.literal('ask_view') }),
  z.object({ ...base, type: z.literal('ask_rate_response'), query: Query, rating: z.union([z.literal(1), z.literal(-1)]), responseId: Id }),
  z.object({ ...base, type: z.literal('link_click'), link: z.object({ target: ContentRef, position: LinkPosition }) }),
  z.object({ ...base, type: z.literal('api_client_open'), operation: OperationPointer }),
  z.object({ ...base, type: z.literal('api_client_request'), operation: OperationPointer }),
  z.object({ ...base, type: z.literal('ad_click'), ad: Ad }),
  z.object({ ...base, type: z.literal('ad_display'), ad: Ad }),
  z.object({ ...base, type: z.literal('trademark_click'), placement: TrademarkPlacement }),
  z.object({ ...base, type: z.literal('llms_request'), llmsVariant: z.enum(['standard', 'full']) }),
  z.object({ ...base, type: z.literal('mcp_request') }),
  z.object({ ...base, type: z.literal('rss_request') }),
]);
export type SiteInsightsEvent = z.infer<typeof SiteInsightsEvent>;

/** Columns a query may name (0.202 `SiteInsightsQueryEventsColumn`), without their options. */
export const INSIGHTS_COLUMNS = [
  'datetime', 'dayOfWeek', 'hourOfDay', 'url', 'urlPath', 'eventType', 'eventsCount', 'sessionsCount', 'visitorsCount',
  'siteSection', 'siteSpace', 'siteShareKey', 'displayContext', 'page', 'visitorGeoCountry', 'visitorGeoPoint',
  'visitorDevice', 'visitorBrowser', 'visitorOS', 'visitorBot', 'visitorLanguage', 'eventLinkTargetValue',
  'eventLinkTargetKind', 'eventLinkTargetDomain', 'eventLinkPosition', 'eventAPIOperationPath', 'eventAPIOperationMethod',
  'eventLLMSVariant', 'eventPageNotFoundType', 'eventMarkdownSource', 'eventSearchQuery', 'eventSearchResultRecordId',
  'eventPageFeedbackRating', 'eventPageFeedbackComment', 'eventAskResponseRating', 'pageFeedbackRating',
  'askResponseRating', 'referrer', 'referrerDomain', 'utmSource', 'utmMedium', 'utmCampaign', 'utmTerm', 'utmContent',
  'visitorAuthenticated', 'visitorClaimProperty', 'visitorClaim', 'eventAdDomain', 'eventAdPlacement', 'eventTrademarkPlacement',
] as const;
export type InsightsColumnName = (typeof INSIGHTS_COLUMNS)[number];

const Interval = z.enum(['hour', 'day', 'week', 'month']);
/** A column of a query: `interval` for datetime, `precision` for visitorGeoPoint, `claim` for visitorClaim. */
export const InsightsColumn = z
  .object({
    column: z.enum(INSIGHTS_COLUMNS),
    interval: Interval.optional(),
    precision: z.number().int().min(0).max(15).optional(),
    claim: z.string().min(1).max(256).optional(),
  })
  .strict()
  .superRefine((value, ctx) => {
    if (value.interval !== undefined && value.column !== 'datetime') ctx.addIssue({ code: 'custom', path: ['interval'], message: 'only the datetime column takes an interval' });
    if (value.precision !== undefined && value.column !== 'visitorGeoPoint') ctx.addIssue({ code: 'custom', path: ['precision'], message: 'only the visitorGeoPoint column takes a precision' });
    if ((value.claim !== undefined) !== (value.column === 'visitorClaim')) {
      ctx.addIssue({ code: 'custom', path: ['claim'], message: value.column === 'visitorClaim' ? 'name the claim of a visitorClaim column' : 'only the visitorClaim column takes a claim' });
    }
  });
export type InsightsColumn = z.infer<typeof InsightsColumn>;

const FilterScalar = z.union([z.string().max(2048), z.number(), z.boolean(), z.null()]);
/** A filter: a column, its values (their type is the column's: checked by the engine), how to compare. */
export const InsightsFilter = z
  .object({
    column: z.enum(INSIGHTS_COLUMNS),
    claim: z.string().min(1).max(256).optional(),
    // Flat values only (a page {space, page}, a geo point, a link target): no input nests deeper.
    values: z.array(z.union([FilterScalar, z.record(z.string().max(256), FilterScalar)])).min(1).max(1000),
    operator: z.enum(['in', 'notIn', 'greaterThan', 'greaterThanOrEqual', 'lessThan', 'lessThanOrEqual']).optional(),
  })
  .strict();
export type InsightsFilter = z.infer<typeof InsightsFilter>;

export const InsightsRangePreset = z.enum(['lastYear', 'last3Months', 'last30Days', 'last7Days', 'last24Hours']);
export const InsightsAggregation = z
  .object({
    select: z.array(InsightsColumn).max(32).optional(),
    where: z.array(InsightsFilter).max(32).optional(),
    groupBy: z.array(InsightsColumn).max(8).optional(),
    order: z.object({ by: InsightsColumn, direction: z.enum(['asc', 'desc']) }).strict().optional(),
    range: z.union([InsightsRangePreset, z.object({ from: Timestamp, to: Timestamp }).strict()]),
    limit: z.number().int().min(1).max(1000).optional(),
  })
  .strict();
export type InsightsAggregation = z.infer<typeof InsightsAggregation>;

export const trackEventsInSiteById = defineRoute({
  id: 'trackEventsInSiteById',
  method: 'POST',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/insights/events',
  summary: 'Track site events',
  source: 'real-api',
  access: 'read',
  params: pathParams(...site),
  query: noQuery(),
  body: z.object({ events: z.array(SiteInsightsEvent).max(1000) }).strict(),
  bodyRequired: true,
  success: 204,
  cli: {
    command: 'site insights track',
    summary: "Record visitors' events on a site (a JSON array of events, or {\"events\": […]}, from a file or stdin; each within 5 minutes of now)",
    onlyNamedFlags: true,
    columns: 'siteInsightsSegment',
    examples: ['docsctl site insights track s1t3 --file events.json', 'replay-events | docsctl site insights track s1t3 --file -'],
  },
});

export const aggregateSiteEvents = defineRoute({
  id: 'aggregateSiteEvents',
  method: 'POST',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/insights/events/aggregate',
  summary: "Query a site's analytics events",
  source: 'real-api',
  access: 'edit',
  // A query: it reads a snapshot and writes nothing.
  safe: true,
  params: pathParams(...site),
  query: noQuery(),
  body: InsightsAggregation,
  bodyRequired: true,
  cli: {
    command: 'site insights query',
    summary: "Count a site's events over a time range, grouped and filtered (page views by path, searches, referrers, 404s…)",
    onlyNamedFlags: true,
    columns: 'siteInsightsSegment',
    examples: [
      'docsctl site insights query s1t3 --range last7Days --group-by urlPath --where eventType=page_view --limit 10',
      'docsctl site insights query s1t3 --range last30Days --group-by datetime:day --select visitorsCount,sessionsCount',
      "docsctl site insights query s1t3 --group-by urlPath --where eventType=page_view --where 'page=null' --order eventsCount:desc",
    ],
  },
});

export const listSiteVisitorSegments = defineRoute({
  id: 'listSiteVisitorSegments',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/sites/{siteId}/insights/visitor-segments',
  summary: 'List a site visitor segments',
  source: 'real-api',
  access: 'edit',
  params: pathParams(...site),
  query: listQuery(),
  paginated: true,
  cli: {
    command: 'site insights segments',
    summary: "List a site's visitor segments: visitors with the same claims, with their events, visitors and sessions",
    columns: 'siteInsightsSegment',
    noun: 'segment',
    examples: ['docsctl site insights segments s1t3'],
  },
});
