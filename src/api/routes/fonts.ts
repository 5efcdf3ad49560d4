/**
 * Custom fonts of an organization (the real API's `custom-fonts` operations): a font
 * family and its faces, one file per weight. Shapes and limits follow @gitbook/api
 * 0.143.2 (`FontFamily` 1–50 characters, `FontWeight` an integer 1–1000,
 * `StorageFileKey` 1–512 characters). Note the real methods: create is a PUT on the
 * collection, update a POST on the font, and both answer 201.
 */
import * as z from 'zod';
import { defineRoute } from '../route.js';
import { listQuery, noQuery, pathParams } from '../schemas/common.js';

const FontFamily = z.string().min(1).max(50);
const FontWeight = z.number().int().min(1).max(1000);
const StorageFileKey = z.string().min(1).max(512);

const font = ['organizationId', 'fontId'] as const;

export const listCustomFonts = defineRoute({
  id: 'listCustomFonts',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/fonts',
  summary: 'List the custom fonts of an organization',
  source: 'real-api',
  access: 'read',
  params: pathParams('organizationId'),
  query: listQuery(),
  paginated: true,
});

export const createCustomFont = defineRoute({
  id: 'createCustomFont',
  method: 'PUT',
  path: '/v1/orgs/{organizationId}/fonts',
  summary: 'Create a custom font',
  source: 'real-api',
  access: 'admin',
  params: pathParams('organizationId'),
  query: noQuery(),
  body: z.object({
    fontFamily: FontFamily,
    /** At least one face; one of weight 400 (regular) is required (412 otherwise). */
    fontFaces: z.array(z.object({ weight: FontWeight, storageKey: StorageFileKey })).min(1),
  }),
  bodyRequired: true,
  success: 201,
});

export const getCustomFont = defineRoute({
  id: 'getCustomFont',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/fonts/{fontId}',
  summary: 'Get a custom font',
  source: 'real-api',
  access: 'read',
  params: pathParams(...font),
  query: noQuery(),
});

export const updateCustomFont = defineRoute({
  id: 'updateCustomFont',
  method: 'POST',
  path: '/v1/orgs/{organizationId}/fonts/{fontId}',
  summary: 'Update a custom font (a face with a null storageKey is removed)',
  source: 'real-api',
  access: 'admin',
  params: pathParams(...font),
  query: noQuery(),
  body: z.object({
    fontFamily: FontFamily.optional(),
    fontFaces: z.array(z.object({ weight: FontWeight, storageKey: StorageFileKey.nullable() })).optional(),
  }),
  bodyRequired: true,
  success: 201,
});

export const deleteCustomFont = defineRoute({
  id: 'deleteCustomFont',
  method: 'DELETE',
  path: '/v1/orgs/{organizationId}/fonts/{fontId}',
  summary: 'Delete a custom font',
  source: 'real-api',
  access: 'admin',
  params: pathParams(...font),
  query: noQuery(),
});
