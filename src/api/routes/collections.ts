/** API doc §4.1 Collections. */
import * as z from 'zod';
import { defineRoute } from '../route.js';
import { ContentPosition, DefaultLevel, listQuery, noQuery, paginationQuery, pathParams, qBool } from '../schemas/common.js';

export const getCollectionById = defineRoute({
  id: 'getCollectionById',
  method: 'GET',
  path: '/v1/collections/{collectionId}',
  summary: 'Get a collection',
  source: 'doc 4.1',
  access: 'read',
  params: pathParams('collectionId'),
  query: noQuery(),
});

export const deleteCollectionById = defineRoute({
  id: 'deleteCollectionById',
  method: 'DELETE',
  path: '/v1/collections/{collectionId}',
  summary: 'Delete a collection',
  source: 'doc 4.1',
  access: 'create',
  params: pathParams('collectionId'),
  query: noQuery(),
});

export const updateCollectionById = defineRoute({
  id: 'updateCollectionById',
  method: 'PATCH',
  path: '/v1/collections/{collectionId}',
  summary: 'Update a collection',
  source: 'doc 4.1',
  access: 'create',
  params: pathParams('collectionId'),
  query: noQuery(),
  body: z
    .object({ title: z.string().max(50), description: z.string().max(100), defaultLevel: DefaultLevel })
    .partial(),
  bodyRequired: true,
});

export const listSpacesInCollectionById = defineRoute({
  id: 'listSpacesInCollectionById',
  method: 'GET',
  path: '/v1/collections/{collectionId}/spaces',
  summary: 'List the spaces of a collection',
  source: 'doc 4.1',
  access: 'read',
  params: pathParams('collectionId'),
  query: listQuery(),
  paginated: true,
});

export const moveCollection = defineRoute({
  id: 'moveCollection',
  method: 'POST',
  path: '/v1/collections/{collectionId}/move',
  summary: 'Move a collection to another parent or position',
  source: 'doc 4.1',
  access: 'create',
  params: pathParams('collectionId'),
  query: noQuery(),
  body: z.object({ parent: z.string().min(1).nullable().optional(), position: ContentPosition.optional() }),
  bodyRequired: true,
});

export const transferCollection = defineRoute({
  id: 'transferCollection',
  method: 'POST',
  path: '/v1/collections/{collectionId}/transfer',
  summary: 'Transfer a collection to another organization',
  source: 'doc 4.1',
  access: 'admin',
  params: pathParams('collectionId'),
  query: noQuery(),
  body: z.object({ organization: z.string().min(1) }),
  bodyRequired: true,
});

export const listCollectionsInOrganizationById = defineRoute({
  id: 'listCollectionsInOrganizationById',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/collections',
  summary: 'List the collections of an organization',
  source: 'doc 4.1',
  access: 'read',
  params: pathParams('organizationId'),
  query: z.object({ ...paginationQuery, nested: qBool().optional() }),
  paginated: true,
});

export const createCollection = defineRoute({
  id: 'createCollection',
  method: 'POST',
  path: '/v1/orgs/{organizationId}/collections',
  summary: 'Create a collection',
  source: 'doc 4.1',
  access: 'create',
  params: pathParams('organizationId'),
  query: noQuery(),
  body: z.object({ title: z.string().max(50).optional(), parent: z.string().min(1).optional() }),
  success: 201,
});
