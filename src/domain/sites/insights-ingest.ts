/**
 * What an Insights event becomes when it is tracked: one row of the columns queries group and
 * filter by (0.202 `SiteInsightsQueryEventsColumn`), computed once at ingest as GitBook does
 * (device, browser, OS and bot from the user agent; the path, UTM parameters and referrer's
 * domain from the URLs; whether the visitor was authenticated from their claims).
 *
 * Kept: what a query can ask for. Not kept: the visitor's IP address, cookies and auth token
 * (docsctl has no geolocation database, so `visitorGeoCountry` and `visitorGeoPoint` are null).
 * A field an event type does not have is absent from its row.
 */
import type { SiteInsightsEvent } from '../../api/routes/site-insights.js';

export interface InsightsRow {
  datetime: string;
  eventType: SiteInsightsEvent['type'];
  url: string;
  urlPath: string;
  displayContext: 'site' | 'server' | 'embed' | 'mcp';
  siteSection: string | null;
  siteSpace: string | null;
  siteShareKey: string | null;
  space: string | null;
  page: string | null;
  visitor: string;
  session: string;
  visitorLanguage: string | null;
  visitorDevice: string;
  visitorBrowser: string;
  visitorOS: string;
  visitorBot: string;
  visitorAuthenticated: boolean;
  claims?: Record<string, unknown>;
  referrer: string;
  referrerDomain: string;
  utmSource: string;
  utmMedium: string;
  utmCampaign: string;
  utmTerm: string;
  utmContent: string;
  eventLinkTargetValue?: Record<string, unknown>;
  eventLinkTargetKind?: string;
  eventLinkTargetDomain?: string | null;
  eventLinkPosition?: string;
  eventAPIOperationPath?: string;
  eventAPIOperationMethod?: string;
  eventLLMSVariant?: string;
  eventMarkdownSource?: string;
  eventSearchQuery?: string;
  eventSearchResultRecordId?: string | null;
  eventPageFeedbackRating?: 'bad' | 'ok' | 'good';
  eventPageFeedbackComment?: string;
  eventAskResponseRating?: number;
  eventAdDomain?: string;
  eventAdPlacement?: string;
  eventTrademarkPlacement?: string;
}

/**
 * What a stored row leaves out: a field at its usual value costs every query's parse, so the
 * row omits it and readers take it from here (`storedRow`).
 */
export const STORED_DEFAULTS: Readonly<Record<string, unknown>> = {
  displayContext: 'site',
  siteSection: null,
  siteSpace: null,
  siteShareKey: null,
  space: null,
  page: null,
  visitorLanguage: null,
  visitorBot: '',
  visitorAuthenticated: false,
  referrer: '',
  referrerDomain: '',
  utmSource: '',
  utmMedium: '',
  utmCampaign: '',
  utmTerm: '',
  utmContent: '',
};

/** A row as stored: without the fields at their STORED_DEFAULTS value. */
export function storedRow(row: InsightsRow): Partial<InsightsRow> {
  const stored: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) if (!Object.hasOwn(STORED_DEFAULTS, key) || STORED_DEFAULTS[key] !== value) stored[key] = value;
  return stored as Partial<InsightsRow>;
}

/** Bots and agents by user agent, most specific first (0.202 `SiteInsightsVisitorBot`). */
const BOTS: ReadonlyArray<readonly [RegExp, string]> = [
  [/googlebot/i, 'googlebot'],
  [/bingbot/i, 'bingbot'],
  [/DuckAssistBot/i, 'duckassist'],
  [/duckduckbot/i, 'duckduckbot'],
  [/facebookexternalhit|facebookcatalog/i, 'facebookbot'],
  [/meta-externalfetcher/i, 'meta-fetcher'],
  [/meta-webindexer/i, 'meta-webindexer'],
  [/meta-externalads/i, 'meta-ads'],
  [/meta-externalagent/i, 'meta'],
  [/applebot/i, 'applebot'],
  [/ChatGPT-User/i, 'chatgpt'],
  [/GPTBot/i, 'gptbot'],
  [/OAI-SearchBot/i, 'openai'],
  [/claude-code/i, 'claude-code'],
  [/ClaudeBot/i, 'claudebot'],
  [/Claude-User|Claude-Web|Claude-SearchBot/i, 'claude'],
  [/anthropic-ai/i, 'anthropic'],
  [/Google-Extended|Gemini/i, 'gemini'],
  [/Perplexity/i, 'perplexity'],
  [/cohere-ai/i, 'cohere'],
  [/MistralAI/i, 'mistral'],
  [/DeepSeek/i, 'deepseek'],
  [/Bytespider/i, 'bytespider'],
  [/CCBot/i, 'ccbot'],
  [/Amzn-SearchBot/i, 'amzn-searchbot'],
  [/Amzn-User/i, 'amzn-user'],
  [/Amazonbot/i, 'amazonbot'],
  [/YouBot/i, 'youbot'],
  [/GrokBot|xAI-/i, 'grok'],
  [/GitHub-Copilot/i, 'github-copilot'],
  [/\bCursor\//, 'cursor'],
  [/\bvscode\b/i, 'vscode'],
  [/\bcodex\b/i, 'codex'],
  [/\bopencode\b/i, 'opencode'],
  [/bot\b|crawler|spider|\bcurl\/|wget\/|python-requests|node-fetch|undici|axios\/|Go-http-client|okhttp|HeadlessChrome/i, 'unknown'],
];

/** The bot a user agent names: '' for a person's browser. */
export function botOf(userAgent: string): string {
  for (const [pattern, bot] of BOTS) if (pattern.test(userAgent)) return bot;
  return '';
}

export function browserOf(userAgent: string): string {
  if (/\bEdg(e|A|iOS)?\//.test(userAgent)) return 'edge';
  if (/\bOPR\/|\bOpera\b/.test(userAgent)) return 'opera';
  if (/\bMSIE |Trident\//.test(userAgent)) return 'ie';
  if (/\b(Firefox|FxiOS)\//.test(userAgent)) return 'firefox';
  if (/\b(Chrome|CriOS|Chromium)\//.test(userAgent)) return 'chrome';
  if (/\bSafari\//.test(userAgent)) return 'safari';
  return 'unknown';
}

export function osOf(userAgent: string): string {
  if (/iPhone|iPad|iPod/.test(userAgent)) return 'ios';
  if (/Android/.test(userAgent)) return 'android';
  if (/Windows/.test(userAgent)) return 'windows';
  if (/Mac OS X|Macintosh/.test(userAgent)) return 'macos';
  if (/Linux|X11|CrOS/.test(userAgent)) return 'linux';
  return 'unknown';
}

export function deviceOf(userAgent: string): string {
  if (/iPad|Tablet|Android(?!.*Mobile)/.test(userAgent)) return 'tablet';
  if (/Mobi|iPhone|iPod|Android/.test(userAgent)) return 'mobile';
  return osOf(userAgent) === 'unknown' ? 'unknown' : 'desktop';
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname;
  } catch {
    return null;
  }
}

/** Whether claims hold anything (an empty object is no claim). */
export const hasClaims = (claims: Record<string, unknown> | undefined): claims is Record<string, unknown> =>
  claims !== undefined && Object.keys(claims).length > 0;

/** The columns only some event types have (a search's query, a link's target…). */
function eventFields(event: SiteInsightsEvent): Partial<InsightsRow> {
  const fields: Partial<InsightsRow> = {};
  switch (event.type) {
    case 'page_markdown_request':
      if (event.markdownSource !== undefined) fields.eventMarkdownSource = event.markdownSource;
      break;
    case 'search_type_query':
    case 'ask_question':
      fields.eventSearchQuery = event.query;
      break;
    case 'search_open_result':
      fields.eventSearchQuery = event.query;
      fields.eventSearchResultRecordId = 'recordId' in event.result ? event.result.recordId : null;
      break;
    case 'page_post_feedback':
      fields.eventPageFeedbackRating = event.feedback.rating;
      break;
    case 'page_post_feedback_comment':
      fields.eventPageFeedbackRating = event.feedback.rating;
      fields.eventPageFeedbackComment = event.feedback.comment;
      break;
    case 'ask_rate_response':
      fields.eventSearchQuery = event.query;
      fields.eventAskResponseRating = event.rating;
      break;
    case 'link_click': {
      const target = event.link.target;
      fields.eventLinkTargetValue = target;
      fields.eventLinkTargetKind = target.kind;
      fields.eventLinkTargetDomain = target.kind === 'url' && typeof target.url === 'string' ? hostOf(target.url) : null;
      fields.eventLinkPosition = event.link.position;
      break;
    }
    case 'api_client_open':
    case 'api_client_request':
      fields.eventAPIOperationPath = event.operation.path;
      fields.eventAPIOperationMethod = event.operation.method.toUpperCase();
      break;
    case 'ad_click':
    case 'ad_display':
      fields.eventAdDomain = event.ad.domain;
      fields.eventAdPlacement = event.ad.placement;
      break;
    case 'trademark_click':
      fields.eventTrademarkPlacement = event.placement;
      break;
    case 'llms_request':
      fields.eventLLMSVariant = event.llmsVariant;
      break;
    default:
      break;
  }
  return fields;
}

/** The row a tracked event is stored as; `at` is its time (checked by the caller). */
export function insightsRow(event: SiteInsightsEvent, at: Date): InsightsRow {
  const { session, location } = event;
  const url = new URL(location.url);
  const param = (name: string) => url.searchParams.get(name) ?? '';
  const referrer = session.referrer ?? '';
  const claims = session.visitorAuthClaims;
  const row: InsightsRow = {
    datetime: at.toISOString(),
    eventType: event.type,
    url: location.url,
    urlPath: url.pathname,
    displayContext: location.displayContext ?? 'site',
    siteSection: location.siteSection,
    siteSpace: location.siteSpace,
    siteShareKey: location.siteShareKey,
    space: location.space,
    page: location.page,
    visitor: session.visitorId,
    session: session.sessionId,
    visitorLanguage: session.language,
    visitorDevice: deviceOf(session.userAgent),
    visitorBrowser: browserOf(session.userAgent),
    visitorOS: osOf(session.userAgent),
    visitorBot: botOf(session.userAgent),
    visitorAuthenticated: hasClaims(claims),
    ...(hasClaims(claims) ? { claims } : {}),
    referrer,
    referrerDomain: referrer === '' ? '' : (hostOf(referrer) ?? ''),
    utmSource: param('utm_source'),
    utmMedium: param('utm_medium'),
    utmCampaign: param('utm_campaign'),
    utmTerm: param('utm_term'),
    utmContent: param('utm_content'),
  };
  Object.assign(row, eventFields(event));
  return row;
}
