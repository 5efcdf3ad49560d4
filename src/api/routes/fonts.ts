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
  cli: {
    command: 'font list',
    aliases: ['ls'],
    columns: 'font',
    noun: 'font',
    examples: ['docsctl font list', 'docsctl font list --json'],
  },
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
  cli: {
    command: 'font create',
    summary: 'Add a custom font (a face of weight 400 is required)',
    flags: {
      fontFamily: { flag: '--family <name>', description: 'CSS font-family name (1–50 characters)', required: true },
      fontFaces: false,
    },
    columns: 'font',
    examples: [
      'docsctl font create --family Inter --face 400=https://cdn.example.com/inter-400.woff2 700=https://cdn.example.com/inter-700.woff2',
    ],
  },
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
  cli: {
    command: 'font get',
    summary: 'Show a custom font',
    columns: 'font',
    examples: ['docsctl font get 0AbC --json'],
  },
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
  cli: {
    command: 'font edit',
    summary: 'Rename a font, set faces (--face) or remove them (--remove WEIGHT); the regular face stays',
    flags: { fontFamily: { flag: '--family <name>', description: 'new CSS font-family name' }, fontFaces: false },
    nonEmptyBody: 'Nothing to change: pass --family, --face or --remove',
    columns: 'font',
    examples: [
      'docsctl font edit 0AbC --face 700=https://cdn.example.com/inter-700.woff2',
      'docsctl font edit 0AbC --remove 700',
    ],
  },
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
  cli: {
    command: 'font delete',
    aliases: ['rm'],
    confirm: 'Delete font {fontId}?',
    columns: 'font',
    noun: 'font',
    examples: ['docsctl font delete 0AbC --yes'],
  },
});
