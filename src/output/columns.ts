/**
 * Column definitions for table and TSV output, per resource. A column reads a
 * value out of an API object; `wide` columns show only on a wide terminal.
 */
export interface Column {
  header: string;
  get: (item: Record<string, unknown>) => unknown;
  /** Hidden in tables narrower than 100 columns. */
  wide?: boolean;
  /**
   * For results that are not resources (a merge, an import, an invitation): the TSV of
   * one such object is `label=value` fields, so a script can tell them apart.
   */
  label?: string;
  /**
   * The value the other commands take to name the object (`--format ids` prints it),
   * when that is not its `id`: a custom field's name, an OpenAPI specification's slug.
   */
  handle?: true;
  /** An ISO 8601 date-time: tables on a terminal show it relative ("3 hours ago"), TSV and JSON as it is. */
  time?: true;
}

const field =
  (...path: string[]) =>
  (item: Record<string, unknown>): unknown => {
    let value: unknown = item;
    for (const key of path) {
      if (typeof value !== 'object' || value === null) return undefined;
      value = (value as Record<string, unknown>)[key];
    }
    return value;
  };

/** A column of the value at `path`; a field named `…At` (createdAt, lastSeenAt) holds a date-time. */
const col = (header: string, path: string, wide = false): Column => ({
  header,
  get: field(...path.split('.')),
  wide,
  ...(/At$/.test(path) ? { time: true as const } : {}),
});

/** The column of the value other commands take to name the object (see Column.handle). */
const handleCol = (header: string, path: string): Column => ({ ...col(header, path), handle: true });

const labelled = (columns: Column[], labels: string[]): Column[] => columns.map((c, i) => ({ ...c, label: labels[i] as string }));

/** Where an effective role comes from: `organization`, `space sp4c3 (team t3am)`, `collection c0ll (general access)`. */
function describeOrigin(origin: unknown): string {
  if (typeof origin !== 'object' || origin === null) return '';
  const o = origin as Record<string, unknown>;
  if (o.type === 'organization') return 'organization role';
  const type = String(o.type ?? '');
  const why = o.reason === 'team' ? `team ${String(o.team ?? '')}` : o.reason === 'default' ? 'general access' : 'grant';
  return `${type} ${String(o[type] ?? '')} (${why})`;
}

/** A ContentLocation (link target or source) in a few words: `page guides/setup`, `url https://…`. */
function describeLocation(location: unknown): string {
  if (typeof location !== 'object' || location === null) return '';
  const l = location as Record<string, unknown>;
  const page = l.page as { path?: string; title?: string } | undefined;
  const file = l.file as { name?: string } | undefined;
  switch (l.kind) {
    case 'page':
      return `page ${page?.path ?? page?.title ?? ''}`;
    case 'file':
      return `file ${file?.name ?? ''}`;
    case 'url':
      return `url ${String(l.url ?? '')}`;
    default:
      return String(l.kind ?? '');
  }
}

/** The first non-blank line of a comment body (`{markdown}`), cut to 80 characters. */
function firstLine(body: unknown): string {
  const markdown = typeof body === 'object' && body !== null ? (body as { markdown?: unknown }).markdown : undefined;
  const line = String(markdown ?? '').split('\n').find((l) => l.trim() !== '') ?? '';
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

/** A comment's page: its path (or title), marked when the page no longer exists. */
function commentPage(item: Record<string, unknown>): string {
  const page = (item.target as { page?: { path?: string; title?: string; outdated?: boolean } } | undefined)?.page;
  if (!page) return '';
  return `${page.path || page.title || ''}${page.outdated ? ' (outdated)' : ''}`;
}
/** The text of a document node (a block, its inline nodes, their leaves), lines joined by spaces. */
function nodeText(node: unknown): string {
  if (typeof node !== 'object' || node === null) return '';
  const n = node as { leaves?: Array<{ text?: unknown }>; nodes?: unknown[]; type?: unknown; data?: { method?: unknown; path?: unknown; schemas?: unknown } };
  if (Array.isArray(n.leaves)) return n.leaves.map((leaf) => String(leaf.text ?? '')).join('');
  // OpenAPI blocks are void: what they point to.
  if (typeof n.data?.method === 'string' && typeof n.data.path === 'string') return `${n.data.method.toUpperCase()} ${n.data.path}`;
  if (Array.isArray(n.data?.schemas)) return n.data.schemas.join(', ');
  const separator = n.type === 'code' ? ' ⏎ ' : '';
  return Array.isArray(n.nodes) ? n.nodes.map(nodeText).join(separator).replace(/\r?\n/g, ' ') : '';
}

/** A whole document's text in one line: its blocks' texts joined by ` ¶ ` (a table cell). */
function documentText(document: unknown): string {
  const nodes = (document as { nodes?: unknown } | undefined)?.nodes;
  return Array.isArray(nodes) ? nodes.map(nodeText).filter((text) => text !== '').join(' ¶ ') : '';
}

/** A ContentRef of a page meta link in a few words: `page p4g3`, `url https://…`. */
function describeMetaTarget(item: Record<string, unknown>): string {
  return item.kind === 'page' ? `page ${String(item.page ?? '')}` : `url ${String(item.url ?? '')}`;
}

/** A site redirect's destination in a few words: `section ID`, `site-space ID`, `page ID in SITESPACE`. */
function describeDestination(destination: unknown): string {
  if (typeof destination !== 'object' || destination === null) return '';
  const d = destination as Record<string, unknown>;
  if (d.kind === 'site-section') return `section ${String(d.siteSectionId)}`;
  if (d.kind === 'site-space') return `site-space ${String(d.siteSpaceId)}`;
  if (d.kind === 'site-page') return `page ${String(d.pageId)} in ${String(d.siteSpaceId)}`;
  return String(d.kind ?? '');
}

/** Sites (src/cli/commands/sites.ts). */
const siteColumns = {
  site: [col('ID', 'id'), col('TITLE', 'title'), col('TYPE', 'type'), col('VISIBILITY', 'visibility'), col('PUBLISHED', 'published'), col('SPACES', 'siteSpaces'), col('URL', 'urls.published', true)],
  siteSection: [
    col('ID', 'id'),
    col('TITLE', 'title'),
    col('PATH', 'path'),
    col('DEFAULT', 'default'),
    col('GROUP', 'sectionGroup'),
    { header: 'VARIANTS', get: (item) => ((item.siteSpaces as Array<{ path: string }> | undefined) ?? []).map((s) => s.path).join(',') },
  ],
  siteSectionGroup: [
    col('ID', 'id'),
    col('TITLE', 'title'),
    col('PARENT', 'sectionGroup'),
    { header: 'CHILDREN', get: (item) => ((item.children as Array<{ id: string }> | undefined) ?? []).map((c) => c.id).join(',') },
  ],
  siteSpace: [col('ID', 'id'), col('TITLE', 'title'), col('PATH', 'path'), col('SECTION', 'section'), col('DEFAULT', 'default'), col('SPACE', 'space.id'), col('URL', 'urls.published', true)],
  siteAgentSettings: [
    col('SCAN TOPICS', 'scans.topics'),
    col('CHANGE REQUESTS', 'findings.changeRequests'),
    { header: 'INSTRUCTIONS', get: (item) => documentText((item.editing as { customInstructions?: unknown } | undefined)?.customInstructions) },
    col('UPDATED', 'updatedAt', true),
    col('BY', 'updatedBy', true),
  ],
  agentInstructions: [{ header: 'INSTRUCTIONS', get: (item) => documentText(item.instructions) }, col('UPDATED', 'updatedAt'), col('BY', 'updatedBy')],
  adsSite: [col('ID', 'id'), col('STATUS', 'status'), col('TOPIC', 'topic'), col('EMAIL', 'email'), col('URL', 'url'), col('ZONE', 'zoneId', true), col('REASON', 'reason', true)],
  shareLink: [col('ID', 'id'), col('NAME', 'name'), col('ACTIVE', 'active'), col('CREATED', 'createdAt', true), col('URL', 'urls.published')],
  adaptiveSchema: [col('UPDATED', 'updatedAt'), { header: 'CLAIMS', get: (item) => Object.keys(((item.jsonSchema as { properties?: object } | undefined)?.properties ?? {})).join(',') }],
  customization: [
    col('THEME', 'styling.theme'),
    col('PRIMARY', 'styling.primaryColor.light'),
    { header: 'FONT', get: (item) => fontName((item.styling as { font?: unknown } | undefined)?.font) },
    col('AI', 'ai.mode'),
    col('TITLE', 'title'),
    col('OVERRIDES', 'hasOverrides', true),
  ],
  siteRedirect: [col('ID', 'id'), col('SOURCE', 'source'), { header: 'DESTINATION', get: (item) => describeDestination(item.destination) }],
  siteRedirectResult: [col('STATUS', 'status'), col('SOURCE', 'source'), col('DRAFT', 'draft'), col('ID', 'id'), col('ERROR', 'error')],
  siteRedirectTarget: [
    col('SOURCE', 'redirect.source'),
    { header: 'DESTINATION', get: (item) => describeDestination((item.redirect as { destination?: unknown } | undefined)?.destination) },
    col('TARGET', 'target'),
    col('ID', 'redirect.id', true),
  ],
  // Style guides (src/api/routes/styleguides.ts): an organization's are {space, sites}.
  styleguide: [
    handleCol('SPACE', 'space.id'),
    col('TITLE', 'space.title'),
    { header: 'SITES', get: (item) => ((item.sites as Array<{ id?: string }> | undefined) ?? []).map((site) => site.id).join(',') },
    col('UPDATED', 'space.updatedAt', true),
  ],
  styleguideTemplate: [col('ID', 'id'), col('TITLE', 'title'), col('SUBTITLE', 'subtitle'), col('EMOJI', 'emoji', true)],
  styleguideRun: [
    col('ID', 'id'),
    col('STYLE GUIDE', 'styleguide'),
    { header: 'SPACES', get: (item) => ((item.spaces as string[] | undefined) ?? []).join(',') },
    col('BY', 'createdBy.displayName'),
    col('CREATED', 'createdAt'),
  ],
  // Header names only: values may be secrets (they are in --json and --yaml).
  siteChannel: [
    col('ID', 'id'),
    col('TYPE', 'type'),
    col('ROLE', 'role'),
    col('STATUS', 'status'),
    { header: 'ALLOWS', get: (item) => Object.values((item.setupSettings as Record<string, string[]> | undefined) ?? {}).flat().join(',') || '(all)' },
    col('CREATED', 'createdAt', true),
  ],
  siteContextConnection: [
    col('ID', 'id'),
    col('CONNECTOR', 'connector'),
    col('LABEL', 'label'),
    col('STATUS', 'status'),
    col('RECORDS', 'records'),
    col('SYNCED', 'syncedAt', true),
    col('CREATED', 'createdAt', true),
  ],
  siteContextTest: [col('SUCCESS', 'success'), col('ERROR', 'error')],
  siteInsightsSegment: [
    col('TITLE', 'title'),
    col('EVENTS', 'events'),
    col('VISITORS', 'visitors'),
    col('SESSIONS', 'sessions'),
    { header: 'CLAIMS', get: (item) => JSON.stringify(item.claims ?? {}), wide: true },
  ],
  siteContextRecord: [col('ID', 'id'), col('TYPE', 'type'), col('TITLE', 'title'), col('CONNECTOR', 'connector'), col('CREATED', 'createdAt', true)],
  siteMcpServer: [col('ID', 'id'), col('NAME', 'name'), col('URL', 'url'), { header: 'HEADERS', get: (item) => Object.keys((item.headers as object | undefined) ?? {}).join(',') }],
  siteExternalLink: [col('ID', 'id'), col('TITLE', 'title'), col('URL', 'url'), col('GROUP', 'sectionGroup'), col('DRAFT', 'draft'), col('CONDITION', 'condition', true)],
  sitePublishingAuth: [col('BACKEND', 'backend'), col('INTEGRATION', 'integration'), col('FALLBACK URL', 'fallbackURL'), col('LOGOUT URL', 'logoutURL'), col('PRIVATE KEY', 'privateKey', true)],
  sitePreview: [col('URL', 'url')],
  publishedContent: [col('SITE', 'site'), col('SECTION', 'siteSection'), col('SITE SPACE', 'siteSpace'), col('SPACE', 'space'), col('PATH', 'pathname'), col('URL', 'canonicalUrl'), col('REDIRECT', 'redirect')],
  customHostname: [col('HOSTNAME', 'hostname'), col('SITE', 'target.site'), col('ACTIVE', 'isActive'), col('STATUS', 'status')],
  siteSearchHit: [
    col('SPACE', 'title'),
    { header: 'PAGE', get: (item) => ((item.pages as Array<{ title?: string }> | undefined)?.[0]?.title ?? '') },
    { header: 'PATH', get: (item) => ((item.pages as Array<{ path?: string }> | undefined)?.[0]?.path ?? '') },
    { header: 'PAGES', get: (item) => String((item.pages as unknown[] | undefined)?.length ?? 0) },
    col('SPACE ID', 'id', true),
  ],
  siteIntegrationScript: [col('SCRIPT', 'script'), col('COOKIES', 'cookies'), col('CSP', 'contentSecurityPolicy', true)],
  adaptiveCondition: [col('CONDITION', 'condition'), col('DESCRIPTION', 'description')],
  publishedItem: [col('SECTION', 'section'), col('VARIANT', 'variant'), col('DEFAULT', 'default'), col('URL', 'url')],
} satisfies Record<string, Column[]>;

/** Today's Translation has no title: "en → fr" from its source and target languages. */
function translationTitle(item: Record<string, unknown>): string | undefined {
  const from = (item.source as { language?: unknown } | undefined)?.language;
  return typeof from === 'string' && typeof item.language === 'string' ? `${from} → ${item.language}` : undefined;
}

/** The user or team a review was requested from. */
function reviewerOf(item: Record<string, unknown>): Record<string, unknown> | undefined {
  return (item.user ?? item.team) as Record<string, unknown> | undefined;
}

/** A customization font: a default font's name, or a custom font's family. */
function fontName(font: unknown): unknown {
  return typeof font === 'string' ? font : (font as { fontFamily?: unknown } | undefined)?.fontFamily;
}

/** The id of an installation's space or site: an object with `extended`, its id otherwise. */
const idOf = (key: string) => (item: Record<string, unknown>) => {
  const value = item[key];
  return typeof value === 'object' && value !== null ? (value as { id?: unknown }).id : value;
};

/** An installation on a space or a site. */
const contentInstallationColumns = (kind: 'space' | 'site'): Column[] => [
  { header: kind.toUpperCase(), get: idOf(kind), handle: true },
  col('INTEGRATION', 'integration'),
  col('INSTALLATION', 'installation'),
  col('STATUS', 'status'),
  { header: 'EXTERNAL IDS', get: (item) => (Array.isArray(item.externalIds) ? item.externalIds.join(',') : undefined), wide: true },
];

/** `user us3r (Ada)`: an audit event's actor or target in a few words. */
function describeAuditSide(side: unknown): string {
  if (typeof side !== 'object' || side === null) return '';
  const o = side as Record<string, unknown>;
  const label = typeof o.label === 'string' ? ` (${o.label})` : '';
  return `${String(o.type ?? '')} ${String(o.id ?? '')}${label}`;
}

const auditColumns = {
  auditEvent: [
    col('ID', 'id'),
    { header: 'WHEN', get: field('occurredAt'), time: true as const },
    col('ACTION', 'action'),
    { header: 'ACTOR', get: (item) => describeAuditSide(item.actor) },
    { header: 'TARGET', get: (item) => describeAuditSide(item.target) },
    col('SOURCE', 'source', true),
  ],
  auditEventDetails: [
    handleCol('ID', 'id'),
    { header: 'WHEN', get: field('occurredAt'), time: true as const },
    col('ACTION', 'action'),
    { header: 'ACTOR', get: (item) => describeAuditSide(item.actor) },
    { header: 'TARGET', get: (item) => describeAuditSide(item.target) },
    col('SOURCE', 'source'),
    { header: 'FIELDS', get: (item) => (field('payload', 'fields')(item) as string[] | undefined)?.join(',') },
    col('TOKEN', 'payload.tokenId', true),
  ],
  auditEventAction: [col('ACTION', 'id'), col('LABEL', 'label')],
  glossaryEntry: [
    col('ID', 'id'),
    {
      header: 'TERMS',
      get: (item) => Object.entries((item.translations as Record<string, string> | undefined) ?? {}).map(([language, term]) => `${language}=${term}`).join(', '),
    },
    col('UPDATED', 'updatedAt'),
  ],
} satisfies Record<string, Column[]>;

const integrationColumns = {
  installationToken: [handleCol('TOKEN', 'token')],
  spaceInstallation: contentInstallationColumns('space'),
  siteInstallation: contentInstallationColumns('site'),
  integrationEvent: [
    col('ID', 'id'),
    col('TYPE', 'payload.type'),
    col('INSTALLATION', 'installationId'),
    { header: 'ON', get: (item) => field('payload', 'spaceId')(item) ?? field('payload', 'siteId')(item) },
    col('STATUS', 'status'),
    col('CREATED', 'createdAt'),
  ],
  integrationEventTrace: [
    handleCol('ID', 'event.id'),
    col('TYPE', 'event.payload.type'),
    col('STATUS', 'event.status'),
    { header: 'LOGS', get: (item) => (field('trace', 'logs')(item) as unknown[] | undefined)?.length ?? 0 },
    { ...col('CREATED', 'event.createdAt'), time: true },
  ],
  organizationInstallation: [
    col('INTEGRATION', 'integration.name'),
    handleCol('INSTALLATION', 'installation.id'),
    col('STATUS', 'installation.status'),
    col('SPACES', 'installation.space_selection'),
    col('SITES', 'installation.site_selection'),
  ],
  integrationStatus: [col('STATUS', 'status')],
  installedIntegration: [
    handleCol('INTEGRATION', 'integration.name'),
    col('STATUS', 'status'),
    col('TARGET', 'target.type'),
    { header: 'ON', get: (item) => field('target', 'spaceId')(item) ?? field('target', 'siteId')(item) ?? field('target', 'organizationId')(item) },
  ],
} satisfies Record<string, Column[]>;

export const columns = {
  comment: [
    col('ID', 'id'),
    col('STATUS', 'status'),
    col('AUTHOR', 'postedBy.displayName'),
    col('REPLIES', 'replies'),
    { header: 'PAGE', get: commentPage },
    { header: 'BODY', get: (item) => firstLine(item.body) },
    col('POSTED', 'postedAt', true),
  ],
  review: [
    col('ID', 'id'),
    col('STATUS', 'status'),
    col('REVIEWER', 'reviewer.displayName'),
    col('OUTDATED', 'outdated'),
    { header: 'COMMENT', get: (item) => firstLine((item.comment as { body?: unknown } | undefined)?.body) },
    col('CREATED', 'createdAt', true),
  ],
  // A requested reviewer is a user or (today's API, kind "team") a team.
  requestedReviewer: [
    { header: 'REVIEWER', get: (item) => reviewerOf(item)?.id },
    { header: 'NAME', get: (item) => reviewerOf(item)?.displayName ?? reviewerOf(item)?.title },
    col('REQUESTED BY', 'requestedBy.displayName'),
    col('SINCE', 'createdAt', true),
    { header: 'KIND', get: (item) => item.kind ?? (item.user !== undefined ? 'user' : undefined) },
  ],
  searchHit: [
    col('ID', 'id'),
    col('TITLE', 'title'),
    col('PATH', 'path'),
    { header: 'MATCH', get: (item) => ((item.sections as Array<{ body?: string }> | undefined)?.[0]?.body ?? '').slice(0, 80), wide: true },
  ],
  searchHitInSpace: [col('SPACE', 'space.title'), col('ID', 'id'), col('TITLE', 'title'), col('PATH', 'path'), col('SPACE ID', 'space.id', true)],
  commentReply: [col('ID', 'id'), col('AUTHOR', 'postedBy.displayName'), { header: 'BODY', get: (item) => firstLine(item.body) }, col('POSTED', 'postedAt', true)],
  organization: [col('ID', 'id'), col('TITLE', 'title'), col('PLAN', 'plan', true), col('CREATED', 'createdAt', true)],
  inviteLink: [col('ID', 'id'), { header: 'ROLE', get: (item) => item.role ?? 'guest' }, col('REDUNDANT', 'redundant')],
  font: [
    col('ID', 'id'),
    col('FAMILY', 'fontFamily'),
    { header: 'WEIGHTS', get: (item) => ((item.fontFaces as Array<{ weight: number }> | undefined) ?? []).map((face) => face.weight).join(',') },
    {
      header: 'FILES',
      get: (item) => ((item.fontFaces as Array<{ sources?: Array<{ url?: string }> }> | undefined) ?? []).map((face) => face.sources?.[0]?.url ?? '').join(' '),
      wide: true,
    },
  ],
  apiInformation: labelled([col('VERSION', 'version'), col('BUILD', 'build')], ['version', 'build']),
  user: [col('ID', 'id'), col('NAME', 'displayName'), col('EMAIL', 'email')],
  /** `user create`: the user, and their role in the organization they were made a member of. */
  accountUser: [col('ID', 'id'), col('NAME', 'displayName'), col('EMAIL', 'email'), { header: 'ROLE', get: (item) => (item.role === null ? 'guest' : (item.role ?? '')) }],
  /** An API token of the store (docsctl's account routes): never the token itself… */
  token: [col('ID', 'id'), col('LABEL', 'label'), col('USER', 'user'), col('CREATED', 'createdAt')],
  /** …but in the answer that issues it. */
  emulatorSnapshot: [col('NAME', 'name'), col('CREATED', 'createdAt')],
  renderedBlock: [col('TYPE', 'type'), { header: 'ELEMENT', get: (item) => String(((item.element as { children?: Array<{ type?: string }> } | undefined)?.children ?? []).map((child) => child.type).join(',')) }],
  storageFile: [col('KEY', 'key'), col('TYPE', 'type'), col('SIZE', 'size'), col('URL', 'downloadURL', true)],
  temporaryToken: [col('TOKEN', 'token')],
  newToken: [col('ID', 'id'), col('LABEL', 'label'), col('USER', 'user'), col('CREATED', 'createdAt'), col('TOKEN', 'token')],
  collection: [
    col('ID', 'id'),
    col('TITLE', 'title'),
    col('PARENT', 'parent'),
    col('DEFAULT LEVEL', 'defaultLevel', true),
    col('DESCRIPTION', 'description', true),
  ],
  space: [
    col('ID', 'id'),
    col('TITLE', 'title'),
    col('VISIBILITY', 'visibility'),
    col('PARENT', 'parent'),
    col('EDIT MODE', 'editMode', true),
    col('UPDATED', 'updatedAt', true),
    col('DELETED', 'deletedAt', true),
  ],
  changeRequest: [
    { header: '#', get: (item) => item.number },
    col('ID', 'id'),
    col('STATUS', 'status'),
    col('SUBJECT', 'subject'),
    col('OUTDATED', 'outdated'),
    col('AUTHOR', 'createdBy.displayName', true),
    col('UPDATED', 'updatedAt', true),
  ],
  page: [col('ID', 'id'), col('TYPE', 'type'), col('TITLE', 'title'), col('PATH', 'path'), col('GIT PATH', 'git.path', true)],
  file: [col('ID', 'id'), col('NAME', 'name'), col('TYPE', 'contentType'), col('SIZE', 'size'), col('GIT PATH', 'git.path', true)],
  link: [
    col('STATUS', 'status'),
    { header: 'TARGET', get: (item) => describeLocation(item.targetReference) },
    {
      header: 'FROM',
      get: (item) => ((item.locationReferences as unknown[] | undefined) ?? []).map(describeLocation).join(', '),
    },
  ],
  mergeResult: labelled([col('RESULT', 'result'), col('REVISION', 'revision')], ['result', 'revision']),
  importResult: labelled(
    [col('REVISION', 'revision'), col('IMPORTED', 'importedResources'), col('TOTAL', 'totalResources')],
    ['revision', 'importedResources', 'totalResources'],
  ),
  url: [col('URL', 'url')],
  documentBlock: [col('TYPE', 'type'), { header: 'TEXT', get: nodeText }],
  metaLink: [col('REL', 'rel'), { header: 'TARGET', get: describeMetaTarget }],
  integrationBlock: [col('INTEGRATION', 'name'), col('BLOCK', 'block.id'), col('TITLE', 'block.title'), { header: 'UNFURLS', get: (item) => ((item.block as { urlUnfurl?: string[] } | undefined)?.urlUnfurl ?? []).join(',') }],
  reusableContent: [col('ID', 'id'), col('TITLE', 'title'), col('GIT PATH', 'git.path', true)],
  conversation: [col('ID', 'id'), col('TITLE', 'title'), col('SHARED', 'shared'), col('UPDATED', 'updatedAt')],
  embed: [col('TYPE', 'type'), col('TITLE', 'title'), col('SITE', 'site'), col('ICON', 'icon', true)],
  subdomain: [col('SUBDOMAIN', 'subdomain'), col('ORGANIZATION', 'target.organization'), col('ACTIVE', 'isActive')],
  // getContentByUrl: {collection} or {space, changeRequest?, page?}; one row naming the innermost object.
  urlContent: [
    { header: 'TYPE', get: (item) => (item.page ? 'page' : item.changeRequest ? 'change-request' : item.collection ? 'collection' : 'space') },
    { header: 'ID', get: (item) => innermost(item)?.id },
    { header: 'TITLE', get: (item) => innermost(item)?.title ?? innermost(item)?.subject },
    col('SPACE', 'space.id'),
    { header: 'CR', get: (item) => (item.changeRequest as { number?: number } | undefined)?.number },
    col('PATH', 'page.path'),
  ],
  gitInfo: [
    col('REPOSITORY', 'repoName'),
    col('URL', 'url'),
    col('REF', 'ref'),
    { header: 'DIRECTORY', get: (item) => (item.projectDirectory === '' ? '.' : item.projectDirectory), wide: false },
    col('PROVIDER', 'installationProvider'),
    col('UPDATED', 'updatedAt'),
  ],
  invite: labelled([col('INVITED', 'invited'), { header: 'USERS', get: (item) => (item.users as string[] | undefined)?.join(',') }], ['invited', 'users']),
  member: [
    col('ID', 'id'),
    col('NAME', 'user.displayName'),
    col('EMAIL', 'user.email'),
    { header: 'ROLE', get: (item) => item.role ?? 'guest' },
    col('JOINED', 'joinedAt', true),
    col('LAST SEEN', 'lastSeenAt', true),
    col('TEAMS', 'teams', true),
  ],
  memberSpace: [col('ID', 'space.id'), col('TITLE', 'space.title'), col('PERMISSION', 'permission')],
  // Grants on a space, collection or site (`… permission list|teams`) and who has access (`… permission who`).
  userPermission: [handleCol('ID', 'user.id'), col('NAME', 'user.displayName'), col('EMAIL', 'user.email'), { header: 'ROLE', get: (item) => item.permission ?? 'none' }],
  teamPermission: [handleCol('ID', 'team.id'), col('TEAM', 'team.title'), col('MEMBERS', 'team.members'), { header: 'ROLE', get: (item) => item.permission ?? 'none' }],
  accessAggregate: [
    handleCol('ID', 'user.id'),
    col('NAME', 'user.displayName'),
    col('EMAIL', 'user.email', true),
    { header: 'ROLE', get: (item) => item.permission ?? 'none' },
    { header: 'FROM', get: (item) => describeOrigin(item.origin) },
  ],
  memberTeam: [col('ID', 'team.id'), col('TITLE', 'team.title'), col('TEAM ROLE', 'member.role')],
  team: [col('ID', 'id'), col('TITLE', 'title'), col('MEMBERS', 'members'), col('CREATED', 'createdAt', true)],
  teamMember: [
    col('ID', 'organization.id'),
    col('NAME', 'organization.user.displayName'),
    col('EMAIL', 'organization.user.email'),
    col('TEAM ROLE', 'team.role'),
  ],
  ...siteColumns,
  customField: [handleCol('NAME', 'name'), col('TYPE', 'type'), col('TITLE', 'title'), { header: 'OPTIONS', get: (item) => (item.options as string[] | undefined)?.join(',') }],
  customFieldValue: [
    col('FIELD', 'customField.name'),
    col('TYPE', 'customField.type'),
    { header: 'VALUE', get: (item) => (Array.isArray(item.value) ? item.value.join(',') : item.value) },
  ],
  // The API doc's translation settings ({title, languages}) and today's Translation ({source, language, status}).
  translation: [
    col('ID', 'id'),
    { header: 'TITLE', get: (item) => item.title ?? translationTitle(item) },
    { header: 'LANGUAGES', get: (item) => (item.languages as string[] | undefined)?.join(',') ?? item.language },
    { header: 'SOURCE', get: (item) => (item.source as { space?: unknown } | undefined)?.space },
    col('STATUS', 'status'),
  ],
  samlProvider: [col('ID', 'id'), col('LABEL', 'label'), col('STATUS', 'status'), col('ROLE', 'defaultRole'), col('TEAM', 'defaultTeam.title'), col('SSO URL', 'ssoURL', true)],
  ssoLogin: [col('ID', 'id'), col('LABEL', 'label'), col('START URL', 'startURL')],
  openApiSpec: [
    handleCol('SLUG', 'slug'),
    { header: 'STATE', get: (item) => item.lastProcessErrorCode ?? (item.lastVersion ? 'ok' : item.processingState) },
    col('VERSION', 'lastVersion'),
    col('PROCESSED', 'lastProcessedAt', true),
    col('SOURCE', 'sourceURL', true),
  ],
  openApiSpecVersion: [col('ID', 'id'), col('CREATED', 'createdAt'), col('URL', 'url', true)],
  openApiSpecRaw: [col('FORMAT', 'format'), { header: 'BYTES', get: (item) => String(Buffer.byteLength(String(item.text ?? ''), 'utf8')) }],
  openApiSpecContent: [{ header: 'FILES', get: (item) => Object.keys((item.filesystem as object | undefined) ?? {}).join(',') }, col('URL', 'url')],
  integration: [col('NAME', 'name'), col('TITLE', 'title'), col('VERSION', 'version'), col('VISIBILITY', 'visibility'), col('OWNER', 'owner.id', true)],
  installation: [col('ID', 'id'), col('STATUS', 'status'), col('ORGANIZATION', 'target.organization'), col('SPACES', 'spaces')],
  ...integrationColumns,
  ...auditColumns,
} satisfies Record<string, Column[]>;

export type ColumnSet = keyof typeof columns;

/** The object a resolved URL points at most precisely (page, then change request, space, collection). */
function innermost(item: Record<string, unknown>): Record<string, unknown> | undefined {
  return (item.page ?? item.changeRequest ?? item.space ?? item.collection) as Record<string, unknown> | undefined;
}
