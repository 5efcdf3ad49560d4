/**
 * API doc §4.12 Custom fields of an organization. These operations exist only in the
 * older real API (v0.25–v0.91), not in v0.143.2; shapes follow the API doc and the
 * v0.91 notes of gaps.md §3 (name pattern, option length). The space values
 * (`getSpaceCustomFields`, `updateSpaceCustomFields`) are in spaces.ts.
 */
import * as z from 'zod';
import { defineRoute } from '../route.js';
import { CustomFieldType, listQuery, noQuery, pathParams } from '../schemas/common.js';

/** Field name: 1 to 50 lowercase letters, digits, `_` or `-`. */
const CustomFieldName = z
  .string()
  .min(1)
  .max(50)
  .regex(/^[a-z_\-0-9]+$/, 'must contain only lowercase letters, digits, "_" and "-"');

/** The editable fields shared by create and update. */
const editable = {
  title: z.string().max(100),
  description: z.string().max(200),
  placeholder: z.string().max(100),
  /** 1 to 50 options of 1 to 40 characters (select types). */
  options: z.array(z.string().min(1).max(40)).min(1).max(50),
};

const field = ['organizationId', 'fieldName'] as const;

export const listOrganizationCustomFields = defineRoute({
  id: 'listOrganizationCustomFields',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/custom-fields',
  summary: 'List the custom fields of an organization',
  source: 'doc 4.12',
  access: 'read',
  params: pathParams('organizationId'),
  query: listQuery(),
  paginated: true,
});

export const createOrganizationCustomField = defineRoute({
  id: 'createOrganizationCustomField',
  method: 'POST',
  path: '/v1/orgs/{organizationId}/custom-fields',
  summary: 'Create a custom field',
  source: 'doc 4.12',
  access: 'admin',
  params: pathParams('organizationId'),
  query: noQuery(),
  body: z.object({ name: CustomFieldName, type: CustomFieldType, ...z.object(editable).partial().shape }),
  bodyRequired: true,
  success: 201,
});

export const getOrganizationCustomFieldByName = defineRoute({
  id: 'getOrganizationCustomFieldByName',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/custom-fields/{fieldName}',
  summary: 'Get a custom field by name',
  source: 'doc 4.12',
  access: 'read',
  params: pathParams(...field),
  query: noQuery(),
});

export const deleteOrganizationCustomField = defineRoute({
  id: 'deleteOrganizationCustomField',
  method: 'DELETE',
  path: '/v1/orgs/{organizationId}/custom-fields/{fieldName}',
  summary: 'Delete a custom field',
  source: 'doc 4.12',
  access: 'admin',
  params: pathParams(...field),
  query: noQuery(),
  /** v0.91 declares 204 only (no 205). */
  success: 204,
});

export const updateOrganizationCustomField = defineRoute({
  id: 'updateOrganizationCustomField',
  method: 'PATCH',
  path: '/v1/orgs/{organizationId}/custom-fields/{fieldName}',
  summary: 'Update a custom field',
  source: 'doc 4.12',
  access: 'admin',
  params: pathParams(...field),
  query: noQuery(),
  body: z.object(editable).partial(),
  bodyRequired: true,
});
