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
  cli: {
    command: 'space get',
    summary: 'Show a space',
    flags: { shareKey: false },
    columns: 'space',
    examples: ['docsctl space get sp4c3', 'docsctl space get sp4c3 --json | jq .visibility'],
  },
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
  cli: {
    command: 'space delete',
    aliases: ['rm'],
    confirm: 'Delete space {spaceId}?',
    columns: 'space',
    noun: 'space',
    examples: ['docsctl space delete sp4c3 --yes'],
  },
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
  cli: {
    command: 'space edit',
    summary: 'Change the title, emoji, edit mode, default level or language of a space',
    flags: {
      title: 'new title',
      emoji: { description: 'new emoji ("none" removes it)', noneIsNull: true },
      editMode: { flag: '--edit-mode <mode>', description: 'live or locked' },
      defaultLevel: { flag: '--default-level <role>', description: 'default access level' },
      language: { flag: '--language <code>', description: 'content language' },
      icon: false,
    },
    nonEmptyBody: 'Nothing to change: pass --title, --emoji, --edit-mode, --default-level or --language',
    columns: 'space',
    examples: ['docsctl space edit sp4c3 --title "Handbook v2" --edit-mode locked'],
  },
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
  cli: { command: 'space duplicate', columns: 'space', examples: ['docsctl space duplicate sp4c3 --format ids'] },
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
  cli: { command: 'space restore', columns: 'space', examples: ['docsctl space restore sp4c3'] },
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
  cli: {
    command: 'space move',
    summary: 'Move a space into a collection or next to a sibling',
    columns: 'space',
    examples: ['docsctl space move sp4c3 --parent c0ll3ct10n', 'docsctl space move sp4c3 --after space:0th3r'],
  },
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
  cli: {
    command: 'space transfer',
    summary: 'Transfer a space to another organization (and collection)',
    flags: {
      organization: { flag: '--to-org <organizationId>', description: 'target organization id', required: true, offer: 'organization' },
      collection: { flag: '--collection <collectionId>', description: 'target collection in that organization' },
    },
    confirm: 'Transfer space {spaceId} to organization {body.organization}?',
    columns: 'space',
    examples: ['docsctl space transfer sp4c3 --to-org 0th3r0rg --yes'],
  },
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
  cli: {
    command: 'space links',
    summary: 'List the links in a space; with --broken, only broken ones, and exit 1 when there are any (for CI)',
    flags: { status: false },
    columns: 'link',
    noun: 'link',
    examples: ['docsctl space links sp4c3 --all', 'docsctl space links sp4c3 --broken --all || echo "fix the broken links"'],
  },
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
  cli: {
    command: 'space fields',
    summary: 'Show the custom field values of a space',
    columns: 'customFieldValue',
    examples: ['docsctl space fields sp4c3', 'docsctl space fields sp4c3 --json'],
  },
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
  cli: {
    command: 'space fields set',
    summary: 'Set custom field values of a space: NAME=TEXT, or NAME:=JSON for numbers, booleans, lists and null',
    args: ['spaceId', { name: 'assignments', variadic: { to: 'body.values' }, description: 'NAME=TEXT or NAME:=JSON' }],
    columns: 'customFieldValue',
    examples: ['docsctl space fields set sp4c3 owner="API team" pages:=12 reviewed:=true tags:=\'["beta"]\''],
  },
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
  cli: {
    command: 'space list',
    aliases: ['ls'],
    columns: 'space',
    noun: 'space',
    examples: ['docsctl space list', 'docsctl space list --all --json | jq length'],
  },
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
    // 0.202: `empty: true` asks for a space without the starter page; docsctl's spaces always start without pages.
    empty: z.boolean().optional(),
  }),
  success: 201,
  cli: {
    command: 'space create',
    flags: {
      title: { description: 'title (max 50 characters)', required: true },
      emoji: 'emoji',
      parent: { flag: '--parent <collectionId>', description: 'create it inside this collection' },
      language: { flag: '--language <code>', description: 'content language (en, fr, de, …)' },
      editMode: { flag: '--edit-mode <mode>', description: 'live or locked' },
    },
    columns: 'space',
    examples: ['docsctl space create --title "API reference" --parent c0ll3ct10n', 'id=$(docsctl space create --title Handbook --format ids)'],
  },
});
