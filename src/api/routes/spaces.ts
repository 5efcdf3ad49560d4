/** API doc §4.2 Spaces, plus space creation and listing from the real API (gaps.md §2.1). */
import * as z from 'zod';
import { defineRoute } from '../route.js';
import {
  ContentPosition,
  ContentReferenceStatus,
  DefaultLevel,
  Emoji,
  SpaceEditMode,
  TranslationLanguage,
  Url,
  listQuery,
  noQuery,
  paginationQuery,
  pathParams,
} from '../schemas/common.js';

const MergeRules = z.union([
  z.object({ type: z.literal('inherit') }),
  z.object({ type: z.literal('none') }),
  z.object({ type: z.literal('rules'), rules: z.array(z.unknown()) }),
]);

export const getSpaceById = defineRoute({
  id: 'getSpaceById',
  method: 'GET',
  path: '/v1/spaces/{spaceId}',
  summary: 'Get a space',
  source: 'doc 4.2',
  access: 'read',
  params: pathParams('spaceId'),
  query: z.object({ shareKey: z.string().optional() }),
});

export const deleteSpaceById = defineRoute({
  id: 'deleteSpaceById',
  method: 'DELETE',
  path: '/v1/spaces/{spaceId}',
  summary: 'Delete a space (restorable for 7 days)',
  source: 'doc 4.2',
  access: 'create',
  params: pathParams('spaceId'),
  query: noQuery(),
});

export const updateSpaceById = defineRoute({
  id: 'updateSpaceById',
  method: 'PATCH',
  path: '/v1/spaces/{spaceId}',
  summary: 'Update a space',
  source: 'doc 4.2',
  access: 'create',
  params: pathParams('spaceId'),
  query: noQuery(),
  body: z
    .object({
      editMode: SpaceEditMode,
      title: z.string().max(50),
      defaultLevel: DefaultLevel,
      emoji: Emoji.nullable(),
      icon: Url.nullable(),
      language: TranslationLanguage,
      mergeRules: MergeRules,
    })
    .partial(),
  bodyRequired: true,
});

export const duplicateSpace = defineRoute({
  id: 'duplicateSpace',
  method: 'POST',
  path: '/v1/spaces/{spaceId}/duplicate',
  summary: 'Duplicate a space',
  source: 'doc 4.2',
  access: 'create',
  params: pathParams('spaceId'),
  query: noQuery(),
  success: 201,
});

export const restoreSpace = defineRoute({
  id: 'restoreSpace',
  method: 'POST',
  path: '/v1/spaces/{spaceId}/restore',
  summary: 'Restore a space deleted in the last 7 days',
  source: 'doc 4.2',
  access: 'create',
  params: pathParams('spaceId'),
  query: noQuery(),
});

export const moveSpace = defineRoute({
  id: 'moveSpace',
  method: 'POST',
  path: '/v1/spaces/{spaceId}/move',
  summary: 'Move a space to another collection or position',
  source: 'doc 4.2',
  access: 'create',
  params: pathParams('spaceId'),
  query: noQuery(),
  body: z.object({ parent: z.string().min(1).nullable().optional(), position: ContentPosition.optional() }),
  bodyRequired: true,
});

export const transferSpace = defineRoute({
  id: 'transferSpace',
  method: 'POST',
  path: '/v1/spaces/{spaceId}/transfer',
  summary: 'Transfer a space to another organization or collection',
  source: 'doc 4.2',
  access: 'admin',
  params: pathParams('spaceId'),
  query: noQuery(),
  body: z.object({ organization: z.string().min(1), collection: z.string().min(1).optional() }),
  bodyRequired: true,
});

export const listSpaceLinks = defineRoute({
  id: 'listSpaceLinks',
  method: 'GET',
  path: '/v1/spaces/{spaceId}/links',
  summary: 'List the links in the content of a space',
  source: 'doc 4.2',
  access: 'read',
  params: pathParams('spaceId'),
  query: z.object({ ...paginationQuery, status: ContentReferenceStatus.optional() }),
  paginated: true,
});

export const getSpaceCustomFields = defineRoute({
  id: 'getSpaceCustomFields',
  method: 'GET',
  path: '/v1/spaces/{spaceId}/custom-fields',
  summary: 'Get the custom field values of a space',
  source: 'doc 4.2',
  access: 'read',
  params: pathParams('spaceId'),
  query: noQuery(),
});

export const updateSpaceCustomFields = defineRoute({
  id: 'updateSpaceCustomFields',
  method: 'PATCH',
  path: '/v1/spaces/{spaceId}/custom-fields',
  summary: 'Set custom field values of a space',
  source: 'doc 4.2',
  access: 'edit',
  params: pathParams('spaceId'),
  query: noQuery(),
  body: z.object({
    values: z.record(
      z.string(),
      // `null` clears the value (docsctl's addition; the real API has no documented way to).
      z.object({ value: z.union([z.string().max(256), z.number(), z.boolean(), z.array(z.string().max(256))]).nullable() }),
    ),
  }),
  bodyRequired: true,
  success: 204,
});

export const listSpacesInOrganizationById = defineRoute({
  id: 'listSpacesInOrganizationById',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/spaces',
  summary: 'List the spaces of an organization',
  source: 'real-api',
  access: 'read',
  params: pathParams('organizationId'),
  query: listQuery(),
  paginated: true,
});

export const createSpace = defineRoute({
  id: 'createSpace',
  method: 'POST',
  path: '/v1/orgs/{organizationId}/spaces',
  summary: 'Create a space',
  source: 'real-api',
  access: 'create',
  params: pathParams('organizationId'),
  query: noQuery(),
  body: z.object({
    title: z.string().max(50).optional(),
    emoji: Emoji.optional(),
    parent: z.string().min(1).optional(),
    language: TranslationLanguage.optional(),
    editMode: SpaceEditMode.optional(),
  }),
  success: 201,
});
