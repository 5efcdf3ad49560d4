/**
 * The documented differences between what docsctl produces and the real API's
 * schemas (`@gitbook/api@0.202.0`, `spec/openapi.json`), applied by the contract
 * harness (`openapi.ts`). Nothing else is loosened: every entry here names the
 * place in /work/shared/spec/gaps.md that documents it, and applies only to the
 * operations (and statuses) it lists.
 *
 * Kinds:
 * - `no-schema`: the operation is absent from v0.202.0 with no shape to check; the harness only checks that
 *   the body is JSON and reports "no schema".
 * - `replace-schema`: the API doc's shape is validated instead of the spec's.
 *   Schemas here may `$ref` the spec as `openapi.json#/components/schemas/X`.
 * - `rename`: the API doc renames a field; the body's key is renamed back to the
 *   real name before it is validated against the spec (a missing real name is still an error).
 * - `error-fallback`: an error status the operation does not declare is validated
 *   against the spec's generic `Error` schema (with `code` equal to the status).
 */

export type Direction = 'response' | 'request';

interface DifferenceBase {
  /** Stable id, shown in validation notes. */
  readonly id: string;
  /** Where gaps.md documents it. */
  readonly gaps: string;
  readonly summary: string;
  readonly direction: Direction;
  /** Operation ids it applies to; `'*'` for every operation. */
  readonly operations: readonly string[] | '*';
  /** Response statuses it applies to (responses only); every status when omitted. */
  readonly statuses?: readonly number[];
}

export interface NoSchemaDifference extends DifferenceBase {
  readonly kind: 'no-schema';
}

export interface ReplaceSchemaDifference extends DifferenceBase {
  readonly kind: 'replace-schema';
  /** Per operation id: the JSON schema validated instead of the spec's. */
  readonly schemas: Readonly<Record<string, object>>;
}

export interface RenameDifference extends DifferenceBase {
  readonly kind: 'rename';
  /** API doc key → real API key, renamed wherever it occurs in the body. */
  readonly keys: Readonly<Record<string, string>>;
}

export interface ErrorFallbackDifference extends DifferenceBase {
  readonly kind: 'error-fallback';
}

export type AllowedDifference = NoSchemaDifference | ReplaceSchemaDifference | RenameDifference | ErrorFallbackDifference;

const spec = (name: string) => ({ $ref: `openapi.json#/components/schemas/${name}` });

/** API doc §2.18 "Translation settings" (absent from every published spec). */
const TranslationSettings = {
  type: 'object',
  properties: {
    object: { type: 'string', enum: ['translation-settings'] },
    id: { type: 'string' },
    title: { type: 'string', minLength: 1, maxLength: 100 },
    // gaps.md §1.1 "Translation languages": the values of TranslationLanguage.
    languages: { type: 'array', items: spec('TranslationLanguage') },
    createdAt: spec('Timestamp'),
    updatedAt: spec('Timestamp'),
    permissions: {
      type: 'object',
      properties: { edit: { type: 'boolean' } },
      required: ['edit'],
    },
    urls: {
      type: 'object',
      properties: { location: { type: 'string', format: 'uri' } },
      required: ['location'],
    },
  },
  required: ['object', 'id', 'title', 'languages', 'createdAt', 'updatedAt', 'permissions', 'urls'],
};

/** `RevisionSemanticChanges` with `page_edited.attributes` checked as anyOf (entry 'semantic-page-edit-attributes'). */
const SEMANTIC_CHANGES = {
  type: 'object',
  properties: {
    mergedFrom: spec('ChangeRequest'),
    more: { type: 'number' },
    changes: {
      type: 'array',
      items: {
        anyOf: [
          {
            type: 'object',
            properties: {
              type: { type: 'string', enum: ['page_edited'] },
              page: spec('ChangedRevisionPage'),
              attributes: {
                anyOf: [spec('RevisionPageDocumentChangeAttributes'), spec('RevisionPageGroupChangeAttributes'), spec('RevisionPageLinkChangeAttributes')],
              },
            },
            required: ['type', 'page', 'attributes'],
          },
          { allOf: [spec('RevisionSemanticChange'), { not: { properties: { type: { enum: ['page_edited'] } }, required: ['type'] } }] },
        ],
      },
    },
  },
  required: ['changes'],
};

const listOf = (item: object) => ({
  allOf: [spec('List'), { type: 'object', required: ['items'], properties: { items: { type: 'array', items: item } } }],
});

/** API doc §4.16 request bodies: `{ title (req) }` (1 to 100, API doc §8). */
const TranslationSettingsBody = {
  type: 'object',
  properties: { title: { type: 'string', minLength: 1, maxLength: 100 } },
  required: ['title'],
};

/** 0.202's createTranslation body (`{source*, language*, instructions}`) and updateTranslation body (`{instructions*}`). */
const TranslationBody = {
  type: 'object',
  properties: { source: spec('TranslationSource'), language: spec('TranslationLanguage'), instructions: spec('JSONDocument') },
  required: ['language', 'source'],
};
const TranslationUpdateBody = { type: 'object', properties: { instructions: spec('JSONDocument') }, required: ['instructions'] };
/** Either: settings (the API doc) or the spec's Translation, each answered in its own shape. */
const settingsOrTranslation = { anyOf: [TranslationSettings, spec('Translation')] };

/** The seven v0.91 custom-field operations (route ids = their v0.91 operationIds, api-ops.tsv). */
export const CUSTOM_FIELD_OPERATIONS = [
  'getSpaceCustomFields',
  'updateSpaceCustomFields',
  'listOrganizationCustomFields',
  'createOrganizationCustomField',
  'getOrganizationCustomFieldByName',
  'updateOrganizationCustomField',
  'deleteOrganizationCustomField',
] as const;

/**
 * Operations that @gitbook/api 0.202.0 no longer has, kept by docsctl (gaps.md's rule: where the API
 * doc defines an operation it stays; the real-API ones stay because docsctl's own commands and older
 * clients call them): the API doc's (`transferSpace`, `listSpaceLinks`, `addSectionToGroup`,
 * `removeSectionFromGroup`, `importContentInChangeRequest`, `listChangeRequestFileBacklinks`,
 * `listPageLinksInChangeRequest`) and the older real API's (0.143.2: the other imports, links and
 * backlinks). Their answers are checked against the shapes 0.143.2 gave them (below), whose parts
 * 0.202.0 still defines are taken from 0.202.0.
 */
export const REMOVED_IN_0_202 = [
  'transferSpace',
  'listSpaceLinks',
  'addSectionToGroup',
  'removeSectionFromGroup',
  'importContent',
  'importContentInPageById',
  'importContentInChangeRequest',
  'importContentInChangeRequestPageById',
  'listChangeRequestLinks',
  'listPageLinksInSpace',
  'listPageLinksInChangeRequest',
  'listSpaceFileBacklinks',
  'listSpacePageBacklinks',
  'listChangeRequestFileBacklinks',
] as const;

/** 0.143.2's `ImportContentResult` (absent from 0.202.0). */
const ImportContentResult = {
  type: 'object',
  required: ['revision', 'importedResources', 'totalResources'],
  properties: { revision: { type: 'string' }, importedResources: { type: 'number' }, totalResources: { type: 'number' } },
};

/** 0.143.2's list of `ContentReferenceUsage` with `stats` (`ContentReferencesStats`), both absent from 0.202.0. */
const ContentReferenceUsageList = {
  allOf: [
    spec('List'),
    {
      type: 'object',
      required: ['items', 'stats'],
      properties: {
        stats: {
          type: 'object',
          required: ['total', 'broken'],
          properties: {
            total: { type: 'number' },
            broken: { type: 'object', required: ['total'], properties: { total: { type: 'number' }, changeRequest: { type: 'number' } } },
          },
        },
        items: {
          type: 'array',
          items: {
            type: 'object',
            required: ['relation', 'status', 'locationReferences'],
            properties: {
              status: { type: 'string', enum: ['ok', 'broken', 'in-app'] },
              relation: { type: 'string', enum: ['reference', 'dependsOn'] },
              targetReference: spec('ContentLocation'),
              locationReferences: { type: 'array', items: spec('ContentLocation') },
            },
          },
        },
      },
    },
  ],
};

/** 0.143.2's request bodies of the removed operations. */
const ImportContentBody = {
  type: 'object',
  required: ['url', 'source'],
  properties: {
    url: { type: 'string', format: 'uri' },
    source: { type: 'string', enum: ['website', 'docx', 'markdown', 'html', 'zip', 'confluence', 'github-wiki', 'notion', 'google-docs'] },
  },
};

/** 0.202 `SiteInsightsVisitorSegment` with its claims' values checked as anyOf (see the entry below). */
const CLAIM_SCALAR = [{ type: 'string' }, { type: 'boolean' }, { type: 'number' }];
const VisitorSegment = {
  type: 'object',
  properties: {
    title: { type: 'string' },
    claims: { type: 'object', additionalProperties: { anyOf: [{ type: 'object' }, ...CLAIM_SCALAR, { type: 'array', items: { anyOf: [{ type: 'object' }, ...CLAIM_SCALAR] } }] } },
    events: { type: 'number' },
    visitors: { type: 'number' },
    sessions: { type: 'number' },
  },
  required: ['title', 'claims', 'events', 'visitors', 'sessions'],
};

export const allowedDifferences: readonly AllowedDifference[] = [
  {
    id: 'removed-in-0.202',
    kind: 'replace-schema',
    gaps: 'gaps.md §0 (introduction: where the API doc speaks it wins), issue 24 §1 (operations 0.202 removed stay)',
    summary: 'Operations 0.202.0 removed that docsctl keeps are checked against the shapes 0.143.2 gave them.',
    direction: 'response',
    operations: REMOVED_IN_0_202,
    statuses: [200, 201],
    schemas: {
      transferSpace: spec('Space'),
      addSectionToGroup: spec('SiteSectionGroup'),
      importContent: ImportContentResult,
      importContentInPageById: ImportContentResult,
      importContentInChangeRequest: ImportContentResult,
      importContentInChangeRequestPageById: ImportContentResult,
      listSpaceLinks: ContentReferenceUsageList,
      listChangeRequestLinks: ContentReferenceUsageList,
      listPageLinksInSpace: ContentReferenceUsageList,
      listPageLinksInChangeRequest: ContentReferenceUsageList,
      listSpaceFileBacklinks: listOf(spec('ContentLocation')),
      listSpacePageBacklinks: listOf(spec('ContentLocation')),
      listChangeRequestFileBacklinks: listOf(spec('ContentLocation')),
    },
  },
  {
    id: 'removed-in-0.202-no-body',
    kind: 'no-schema',
    gaps: 'gaps.md §0 (the API doc wins), issue 24 §1 (operations 0.202 removed stay)',
    summary: 'removeSectionFromGroup (removed in 0.202.0) answers 204/205 without a body, as in 0.143.2.',
    direction: 'response',
    operations: ['removeSectionFromGroup'],
  },
  {
    id: 'removed-in-0.202-request',
    kind: 'replace-schema',
    gaps: 'gaps.md §0 (the API doc wins), issue 24 §1 (operations 0.202 removed stay)',
    summary: 'The request bodies of the operations 0.202.0 removed, as 0.143.2 gave them.',
    direction: 'request',
    operations: REMOVED_IN_0_202,
    schemas: {
      transferSpace: { type: 'object', required: ['organization'], properties: { organization: { type: 'string' } } },
      addSectionToGroup: { type: 'object', required: ['sectionId'], properties: { sectionId: { type: 'string' } } },
      importContent: ImportContentBody,
      importContentInPageById: ImportContentBody,
      importContentInChangeRequest: ImportContentBody,
      importContentInChangeRequestPageById: ImportContentBody,
    },
  },
  {
    id: 'custom-fields-v0.91',
    kind: 'no-schema',
    gaps: 'gaps.md §0 (first bullet), §3 "API doc §4.2" and "API doc §4.12", §3 "API doc operations missing from the specs"',
    summary:
      'Custom-field operations exist only in v0.25–v0.91 and are absent from v0.202.0: no schema to validate against (bodies are only checked to be JSON).',
    direction: 'response',
    operations: CUSTOM_FIELD_OPERATIONS,
  },
  {
    id: 'custom-fields-v0.91-request',
    kind: 'no-schema',
    gaps: 'gaps.md §3 "API doc §4.12", §3 "API doc operations missing from the specs"',
    summary: 'Same, for the request bodies of the custom-field operations.',
    direction: 'request',
    operations: CUSTOM_FIELD_OPERATIONS,
  },
  {
    id: 'translation-settings',
    kind: 'replace-schema',
    gaps: 'gaps.md §0 (fourth bullet), §3 "API doc §4.16 Translations", introduction ("follow the API doc")',
    summary:
      'Translations made with the API doc\'s body are its TranslationSettings (`object: "translation-settings"`, `title`, `languages[]`), which no published spec has; those made with the spec\'s body are the spec\'s `Translation`.',
    direction: 'response',
    operations: ['listTranslations', 'createTranslation', 'getTranslation', 'updateTranslation'],
    statuses: [200, 201],
    schemas: {
      listTranslations: listOf(settingsOrTranslation),
      createTranslation: settingsOrTranslation,
      getTranslation: settingsOrTranslation,
      updateTranslation: settingsOrTranslation,
    },
  },
  {
    id: 'translation-settings-request',
    kind: 'replace-schema',
    gaps: 'gaps.md §3 "API doc §4.16 Translations" ("Shape differs from API doc")',
    summary: 'Create/update translation bodies: the API doc\'s (`{title*}`) beside the spec\'s (`{source*, language*, instructions}`, `{instructions*}`).',
    direction: 'request',
    operations: ['createTranslation', 'updateTranslation'],
    schemas: {
      createTranslation: { anyOf: [TranslationSettingsBody, TranslationBody] },
      updateTranslation: { anyOf: [TranslationSettingsBody, TranslationUpdateBody] },
    },
  },
  {
    id: 'renamed-createdByService',
    kind: 'rename',
    gaps: 'gaps.md §0 (second bullet), §4 "Revision" (`git.createdByGitBook*`)',
    summary: 'The API doc calls the revision git field `createdByService`; the real name is `createdByGitBook`.',
    direction: 'response',
    operations: '*',
    keys: { createdByService: 'createdByGitBook' },
  },
  {
    id: 'renamed-serviceVisitorClaims',
    kind: 'rename',
    gaps: 'gaps.md §0 (second bullet), §3 "API doc §4.17" (ping returns `{gitbookVisitorClaims?}`)',
    summary: 'The API doc calls the ping result `serviceVisitorClaims`; the real name is `gitbookVisitorClaims`.',
    direction: 'response',
    operations: ['updateOrganizationMemberLastSeenAt'],
    keys: { serviceVisitorClaims: 'gitbookVisitorClaims' },
  },
  {
    id: 'undeclared-error-status',
    kind: 'error-fallback',
    gaps: 'gaps.md §6.1 ("Body (all errors)"; 401/403/429/5xx and other errors not declared per operation)',
    summary:
      'An error status an operation does not declare (e.g. 404 on getSpaceById, 401/403) is validated against the spec\'s `Error` schema, with `code` equal to the status.',
    direction: 'response',
    operations: '*',
  },
  {
    id: 'visitor-segment-claims',
    kind: 'replace-schema',
    gaps: "gaps.md §0 (update: 0.202 describes today's API; its `PlainObject` declares no type)",
    summary:
      "The spec makes each value of a segment's `claims` (PlainObject) a oneOf of PlainObject, string, boolean, number and array; PlainObject declares no type, so every string, number or boolean also matches it and no segment with a claim can be valid. Claim values are checked as anyOf of the same branches, everything else as the spec says.",
    direction: 'response',
    operations: ['listSiteVisitorSegments'],
    statuses: [200],
    schemas: { listSiteVisitorSegments: listOf(VisitorSegment) },
  },
  {
    id: 'semantic-page-edit-attributes',
    kind: 'replace-schema',
    gaps: 'gaps.md §2.2 (change-request operations: `getChangeRequestChanges` → RevisionSemanticChanges; 0.202 `getRevisionSemanticChanges`, the same schema)',
    summary:
      'The spec makes `page_edited.attributes` a oneOf of three open schemas (document, group, link attributes, no additionalProperties: false) that any attribute object matches together, so no answer can be valid; it is checked as anyOf (at least one) instead, everything else as the spec says.',
    direction: 'response',
    operations: ['getChangeRequestChanges', 'getRevisionSemanticChanges'],
    statuses: [200],
    schemas: {
      getChangeRequestChanges: SEMANTIC_CHANGES,
      getRevisionSemanticChanges: SEMANTIC_CHANGES,
    },
  },
];

/** The entries of a kind that apply to an operation (and status, for responses). */
export function differencesFor<K extends AllowedDifference['kind']>(
  kind: K,
  direction: Direction,
  operationId: string,
  status?: number,
): Array<Extract<AllowedDifference, { kind: K }>> {
  return allowedDifferences.filter(
    (entry): entry is Extract<AllowedDifference, { kind: K }> =>
      entry.kind === kind &&
      entry.direction === direction &&
      (entry.operations === '*' || entry.operations.includes(operationId)) &&
      (status === undefined || entry.statuses === undefined || entry.statuses.includes(status)),
  );
}
