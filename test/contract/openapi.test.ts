/** Tests of the contract harness itself (test/contract/openapi.ts). */
import { describe, expect, it } from 'vitest';
import { allowedDifferences, CUSTOM_FIELD_OPERATIONS } from './allowed-differences.js';
import {
  componentValidator,
  declaredStatuses,
  errorBodyValidator,
  findOperation,
  formatAjvErrors,
  requestBodyValidator,
  responseValidator,
  schemaValidator,
  specVersion,
} from './openapi.js';

const T = '2026-01-01T00:00:00.000Z';
const ORIGIN = 'http://127.0.0.1:4000';

function space(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    object: 'space',
    id: 'space1',
    title: 'Handbook',
    emoji: '📘',
    organization: 'org1',
    visibility: 'private',
    revision: 'rev1',
    createdAt: T,
    updatedAt: T,
    comments: 0,
    changeRequests: 0,
    changeRequestsOpen: 0,
    changeRequestsDraft: 0,
    mergeRules: { type: 'inherit' },
    urls: { location: `${ORIGIN}/v1/spaces/space1`, app: `${ORIGIN}/app/spaces/space1` },
    defaultLevel: 'inherit',
    permissions: {
      view: true,
      access: true,
      admin: true,
      viewInviteLinks: true,
      edit: true,
      triggerGitSync: true,
      comment: true,
      merge: true,
      review: true,
      installIntegration: true,
    },
    ...overrides,
  };
}

function collection(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    object: 'collection',
    id: 'col1',
    title: 'Guides',
    organization: 'org1',
    defaultLevel: 'inherit',
    urls: { location: `${ORIGIN}/v1/collections/col1`, app: `${ORIGIN}/app/collections/col1` },
    permissions: { view: true, admin: true, viewInviteLinks: true, create: true },
    ...overrides,
  };
}

function organization(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    object: 'organization',
    id: 'org1',
    title: 'Acme',
    createdAt: T,
    emailDomains: [],
    type: 'business',
    plan: 'free_2024',
    inviteLinks: false,
    mergeRules: { type: 'none' },
    urls: { location: `${ORIGIN}/v1/orgs/org1`, app: `${ORIGIN}/app/orgs/org1` },
    trial: { status: 'none', count: 0 },
    permissions: Object.fromEntries(
      [
        'view',
        'access',
        'admin',
        'ownTeam',
        'createContent',
        'createOpenAPISpec',
        'viewBilling',
        'listMembers',
        'listTeams',
        'listIntegrations',
        'listInstallations',
        'installIntegration',
      ].map((key) => [key, true]),
    ),
    ...overrides,
  };
}

describe('the spec document', () => {
  it('is OpenAPI 3.1 (@gitbook/api 0.202.0), validated with Ajv 2020-12', () => {
    expect(specVersion()).toEqual({ openapi: '3.1.0', dialect: '2020-12' });
  });

  it('indexes operations by operationId, with the /v1 path docsctl uses', () => {
    const op = findOperation('getSpaceById');
    expect(op).toMatchObject({ method: 'GET', path: '/spaces/{spaceId}', v1Path: '/v1/spaces/{spaceId}' });
    expect(declaredStatuses('deleteSpaceById').sort()).toEqual(['204', '205']);
    expect(findOperation('listOrganizationCustomFields')).toBeUndefined();
  });
});

describe('responseValidator', () => {
  it('accepts a minimal valid Space', () => {
    const result = responseValidator('getSpaceById', 200)(space());
    expect(result.errors).toEqual([]);
    expect(result.ok).toBe(true);
  });

  it('rejects a Space missing mergeRules, naming the field', () => {
    const body = space();
    delete body.mergeRules;
    const result = responseValidator('getSpaceById', 200)(body);
    expect(result.ok).toBe(false);
    expect(result.errors).toEqual(["/ must have required property 'mergeRules'"]);
  });

  it('reports paths into lists, e.g. a permission missing from an item', () => {
    const incomplete = space({ permissions: { ...(space().permissions as object), view: undefined } });
    const result = responseValidator('listSpacesInOrganizationById', 200)({ items: [incomplete], count: 1 });
    expect(result.errors).toContain("/items/0/permissions must have required property 'view'");
  });

  it('resolves $refs across the document (Space → MergeRulesSpaceConfiguration → MergeRule, URL, Timestamp)', () => {
    const ok = space({ mergeRules: { type: 'rules', rules: [{ rule: 'require_at_least_one_review' }] } });
    expect(responseValidator('getSpaceById', 200)(ok).ok).toBe(true);
    const bad = space({
      mergeRules: { type: 'rules', rules: [{ rule: 'no_such_rule' }] },
      urls: { location: 'not a url', app: `${ORIGIN}/app` },
      createdAt: 'yesterday',
    });
    const result = responseValidator('getSpaceById', 200)(bad);
    expect(result.ok).toBe(false);
    expect(result.errors).toContain('/urls/location must match format "uri" (got "not a url")');
    expect(result.errors).toContain('/createdAt must match format "date-time" (got "yesterday")');
    expect(result.errors.some((e) => e.startsWith('/mergeRules'))).toBe(true);
  });

  it('handles nullable: `{type, nullable, enum:[null]}` and `{$ref, nullable}`', () => {
    // Collection.defaultLevel → DefaultLevel → MemberRoleOrGuest: `{type: string, nullable: true, enum: [null]}`
    expect(responseValidator('getCollectionById', 200)(collection({ defaultLevel: null })).ok).toBe(true);
    expect(responseValidator('getCollectionById', 200)(collection({ defaultLevel: 'read' })).ok).toBe(true);
    expect(responseValidator('getCollectionById', 200)(collection({ defaultLevel: 'owner' })).ok).toBe(false);
    // Organization.billing.endDate: `{$ref: Timestamp, nullable: true}`
    const billing = { interval: 'monthly', hasPaymentFailed: false, isScheduledToCancel: false, pricing: {}, usageAddons: {} };
    const nullDate = responseValidator('getOrganizationById', 200)(organization({ billing: { ...billing, endDate: null } }));
    expect(nullDate.errors.filter((e) => e.includes('endDate'))).toEqual([]);
    const badDate = responseValidator('getOrganizationById', 200)(organization({ billing: { ...billing, endDate: 'soon' } }));
    expect(badDate.errors.some((e) => e.startsWith('/billing/endDate'))).toBe(true);
  });

  it('accepts a minimal valid Organization and a list of them', () => {
    expect(responseValidator('getOrganizationById', 200)(organization()).errors).toEqual([]);
    expect(responseValidator('listOrganizationsForAuthenticatedUser', 200)({ items: [organization()] }).errors).toEqual([]);
    expect(responseValidator('listOrganizationsForAuthenticatedUser', 200)({ items: [organization()], next: null }).ok).toBe(
      false,
    );
  });

  it('explains a discriminated oneOf by the branch the body names', () => {
    const validator = componentValidator('ContentLocation');
    const result = validator({ kind: 'collection', organization: organization() });
    expect(result.ok).toBe(false);
    expect(result.errors).toEqual(["/ must have required property 'collection'"]);
    expect(validator({ kind: 'collection', organization: organization(), collection: collection() }).ok).toBe(true);
    expect(validator({ kind: 'nope' }).errors[0]).toMatch(/^\/kind must be equal to one of the allowed values/);
  });

  it('requires an empty body for 204/205', () => {
    expect(responseValidator('deleteSpaceById', 205)(undefined).ok).toBe(true);
    expect(responseValidator('deleteSpaceById', 204)(undefined).ok).toBe(true);
    expect(responseValidator('deleteSpaceById', 205)({ deleted: true }).ok).toBe(false);
  });

  it('fails an undeclared success status', () => {
    const result = responseValidator('duplicateSpace', 200)(space());
    expect(result.ok).toBe(false);
    expect(result.errors[0]).toBe('status 200 is not declared for duplicateSpace (declared: 201)');
  });

  it('validates declared error responses (code enum) and undeclared ones against Error (gaps.md §6.1)', () => {
    expect(responseValidator('moveCollection', 409)({ error: { code: 409, message: 'nothing to move' } }).ok).toBe(true);
    expect(responseValidator('moveCollection', 409)({ error: { code: 400, message: 'x' } }).ok).toBe(false);
    const undeclared = responseValidator('getSpaceById', 404);
    expect(undeclared.allowances).toEqual(['undeclared-error-status']);
    expect(undeclared({ error: { code: 404, message: 'Space not found' } }).ok).toBe(true);
    expect(undeclared({ error: { code: 400, message: 'Space not found' } }).errors).toEqual([
      '/error/code must be 404, the response status (got 400)',
    ]);
  });

  it('gives custom-field operations a "no schema" validator that only checks JSON', () => {
    for (const id of CUSTOM_FIELD_OPERATIONS) {
      const validator = responseValidator(id, 200);
      expect(validator.hasSchema).toBe(false);
      const result = validator({ anything: ['goes'] });
      expect(result.ok).toBe(true);
      expect(result.notes[0]).toMatch(/^no schema/);
    }
    expect(responseValidator('getSpaceCustomFields', 200)({ at: new Date() }).ok).toBe(false);
    expect(responseValidator('getSpaceCustomFields', 200)({ n: Number.NaN }).ok).toBe(false);
  });

  it('throws for an operation neither in the spec nor allowed', () => {
    expect(() => responseValidator('noSuchOperation', 200)).toThrow(/noSuchOperation/);
  });

  it('rejects values that are not plain JSON', () => {
    expect(responseValidator('getSpaceById', 200)(space({ createdAt: new Date(T) })).ok).toBe(false);
  });
});

describe('errorBodyValidator', () => {
  it('accepts {error:{code,message}}', () => {
    expect(errorBodyValidator()({ error: { code: 404, message: 'Space not found' } }).ok).toBe(true);
    expect(errorBodyValidator(409)({ error: { code: 409, message: 'Conflict' } }).ok).toBe(true);
  });

  it('rejects other shapes, with readable messages', () => {
    expect(errorBodyValidator()({ error: { code: 404 } }).errors).toEqual(["/error must have required property 'message'"]);
    expect(errorBodyValidator()({ error: { code: '404', message: 'x' } }).errors).toEqual(['/error/code must be integer (got "404")']);
    expect(errorBodyValidator()({ message: 'x' }).errors).toEqual(["/ must have required property 'error'"]);
    expect(errorBodyValidator(404)({ error: { code: 400, message: 'x' } }).ok).toBe(false);
  });
});

describe('requestBodyValidator', () => {
  it('validates request bodies against the spec', () => {
    expect(requestBodyValidator('createSpace')({ title: 'Guides', emoji: '📘' }).ok).toBe(true);
    expect(requestBodyValidator('createSpace')(undefined).ok).toBe(true); // optional body
    expect(requestBodyValidator('createSpace')({ title: 'x'.repeat(51) }).errors[0]).toMatch(
      /^\/title must NOT have more than 50 characters/,
    );
    expect(requestBodyValidator('transferCollection')({}).errors).toEqual(["/ must have required property 'organization'"]);
    expect(requestBodyValidator('transferCollection')(undefined).ok).toBe(false); // required body
    expect(requestBodyValidator('moveCollection')({ parent: null }).ok).toBe(true); // nullable parent
    expect(requestBodyValidator('moveCollection')({}).ok).toBe(false); // minProperties: 1
    expect(requestBodyValidator('restoreSpace')(undefined).ok).toBe(true); // no request body
    expect(requestBodyValidator('restoreSpace')({}).ok).toBe(false);
  });
});

describe('allowed differences', () => {
  it('each entry names its gaps.md section', () => {
    expect(allowedDifferences.length).toBeGreaterThan(0);
    // 0.202.0 removed operations docsctl keeps (three entries: responses, the one without a body, requests).
    expect(allowedDifferences.length).toBeLessThanOrEqual(12);
    for (const entry of allowedDifferences) {
      expect(entry.gaps, entry.id).toMatch(/gaps\.md §\d/);
      expect(entry.summary.length, entry.id).toBeGreaterThan(10);
    }
    expect(new Set(allowedDifferences.map((e) => e.id)).size).toBe(allowedDifferences.length);
  });

  it('validates translations against the API doc TranslationSettings shape', () => {
    const settings = {
      object: 'translation-settings',
      id: 'tr1',
      title: 'French',
      languages: ['fr'],
      createdAt: T,
      updatedAt: T,
      permissions: { edit: true },
      urls: { location: `${ORIGIN}/v1/orgs/org1/translations/tr1` },
    };
    const validator = responseValidator('getTranslation', 200);
    expect(validator.allowances).toEqual(['translation-settings']);
    expect(validator(settings).ok).toBe(true);
    expect(validator({ ...settings, languages: ['klingon'] }).ok).toBe(false);
    expect(responseValidator('listTranslations', 200)({ items: [settings], count: 1 }).ok).toBe(true);
    expect(responseValidator('createTranslation', 201)(settings).ok).toBe(true);
    expect(requestBodyValidator('createTranslation')({ title: 'French' }).ok).toBe(true);
    expect(requestBodyValidator('createTranslation')({}).ok).toBe(false);
    // Errors of translation ops are still the spec's.
    expect(responseValidator('getTranslation', 404).allowances).toEqual([]);
  });

  it('renames the API doc names back to the real ones before validating', () => {
    const ping = responseValidator('updateOrganizationMemberLastSeenAt', 200);
    const result = ping({ serviceVisitorClaims: 'jwt' });
    expect(result.ok).toBe(true);
    expect(result.notes.join()).toMatch(/renamed-serviceVisitorClaims/);
    expect(ping({ serviceVisitorClaims: 42 }).errors).toEqual(['/gitbookVisitorClaims must be string (got 42)']);
  });
});

describe('schemaValidator and formatting', () => {
  it('compiles ad-hoc schemas that reference the spec', () => {
    const validator = schemaValidator({ type: 'array', items: { $ref: 'openapi.json#/components/schemas/User' } }, 'users');
    expect(validator([{ object: 'user', id: 'u1', displayName: 'Ada', urls: { location: `${ORIGIN}/v1/users/u1` } }]).ok).toBe(true);
    expect(validator([{ object: 'user', id: 'u1', urls: { location: `${ORIGIN}/v1/users/u1` } }]).errors).toEqual([
      "/0 must have required property 'displayName'",
    ]);
  });

  it('formats additionalProperties and enum errors with the offending value', () => {
    const lines = formatAjvErrors([
      {
        instancePath: '/a',
        schemaPath: '#/additionalProperties',
        keyword: 'additionalProperties',
        params: { additionalProperty: 'zzz' },
        message: 'must NOT have additional properties',
      },
      {
        instancePath: '/b',
        schemaPath: '#/enum',
        keyword: 'enum',
        params: { allowedValues: ['x', 'y'] },
        message: 'must be equal to one of the allowed values',
        data: 'z',
      },
    ]);
    expect(lines).toEqual([
      "/a must NOT have additional properties: 'zzz'",
      '/b must be equal to one of the allowed values: "x", "y" (got "z")',
    ]);
  });
});
