/**
 * src/api/response-fields.ts is what scripts/gen-response-fields.mjs writes from
 * @gitbook/api's OpenAPI document: the fields `--json FIELDS` accepts per operation.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a build script without types
import { readSpec, responseFieldsModule } from '../../scripts/gen-response-fields.mjs';
import { responseFieldsOf } from '../../src/api/response-fields.js';

describe('response fields', () => {
  it('is the generated file (run node scripts/gen-response-fields.mjs when @gitbook/api changes)', () => {
    const { spec, version } = readSpec();
    expect(readFileSync(new URL('../../src/api/response-fields.ts', import.meta.url), 'utf8')).toBe(responseFieldsModule(spec, version));
  });

  it('gives the fields of the answer type, of the items for a list, of every variant of a union', () => {
    expect(responseFieldsOf('getSpaceById')).toEqual(expect.arrayContaining(['id', 'title', 'parent', 'deletedAt', 'gitSync', 'language']));
    expect(responseFieldsOf('listSpacesInOrganizationById')).toEqual(responseFieldsOf('getSpaceById'));
    // A page is a document, a group or a link: a link's `href` is a field of the type too.
    expect(responseFieldsOf('getPageById')).toEqual(expect.arrayContaining(['id', 'title', 'markdown', 'href']));
    expect(responseFieldsOf('getSiteTree')).toBeUndefined();
  });
});
