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
  cli: { command: 'collection get', summary: 'Show a collection', columns: 'collection', examples: ['docsctl collection get c0ll3ct10n'] },
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
  cli: {
    command: 'collection delete',
    summary: 'Delete a collection (its spaces can be restored for 7 days)',
    aliases: ['rm'],
    confirm: 'Delete collection {collectionId} and everything in it?',
    columns: 'collection',
    noun: 'collection',
    examples: ['docsctl collection delete c0ll3ct10n --yes'],
  },
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
  cli: {
    command: 'collection edit',
    summary: 'Change the title, description or default access level of a collection',
    flags: {
      title: 'new title',
      description: { flag: '--description <text>', description: 'new description (max 100)' },
      defaultLevel: { flag: '--default-level <role>', description: 'default access level' },
    },
    nonEmptyBody: 'Nothing to change: pass --title, --description or --default-level',
    columns: 'collection',
    examples: ['docsctl collection edit c0ll3ct10n --title "User guides" --default-level read'],
  },
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
  cli: { command: 'collection spaces', columns: 'space', noun: 'space', examples: ['docsctl collection spaces c0ll3ct10n --all'] },
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
  cli: {
    command: 'collection move',
    summary: 'Move a collection under another parent or next to a sibling',
    columns: 'collection',
    examples: ['docsctl collection move c0ll3ct10n --parent none', 'docsctl collection move c0ll3ct10n --before collection:0th3r'],
  },
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
  cli: {
    command: 'collection transfer',
    summary: 'Transfer a collection and its content to another organization',
    flags: { organization: { flag: '--to-org <organizationId>', description: 'target organization id', required: true, offer: 'organization' } },
    confirm: 'Transfer collection {collectionId} to organization {body.organization}?',
    columns: 'collection',
    examples: ['docsctl collection transfer c0ll3ct10n --to-org 0th3r0rg --yes'],
  },
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
  cli: {
    command: 'collection list',
    aliases: ['ls'],
    flags: { nested: { flag: '--no-nested', description: 'only collections at the organization root' } },
    columns: 'collection',
    noun: 'collection',
    examples: ['docsctl collection list', 'docsctl collection list --no-nested --format ids'],
  },
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
  cli: {
    command: 'collection create',
    flags: {
      title: { description: 'title (max 50 characters)', required: true },
      parent: { flag: '--parent <collectionId>', description: 'create it inside this collection' },
    },
    columns: 'collection',
    examples: ['docsctl collection create --title Guides', 'id=$(docsctl collection create --title API --format ids)'],
  },
});
