/**
 * API doc §4.16 Translation settings of an organization.
 *
 * The API doc's shape wins here (gaps.md §0, §3): bodies carry `title` (required,
 * 1 to 100) and the path parameter is `{translationSettingsId}`. The real API
 * (v0.130+) has a different `Translation` object (`source`, `language`,
 * `instructions`, path `{translationId}`); remote mode reads its responses as they come.
 */
import * as z from 'zod';
import { defineRoute } from '../route.js';
import { TranslationLanguage, listQuery, noQuery, pathParams } from '../schemas/common.js';

const TranslationSettingsBody = z.object({
  title: z.string().min(1).max(100),
  /** Languages of the settings (a field of the object; not listed in the API doc's request column). */
  languages: z.array(TranslationLanguage).optional(),
});

const settings = ['organizationId', 'translationSettingsId'] as const;

export const listTranslations = defineRoute({
  id: 'listTranslations',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/translations',
  summary: 'List the translation settings of an organization',
  source: 'doc 4.16',
  access: 'read',
  params: pathParams('organizationId'),
  query: listQuery(),
  paginated: true,
});

export const createTranslation = defineRoute({
  id: 'createTranslation',
  method: 'POST',
  path: '/v1/orgs/{organizationId}/translations',
  summary: 'Create translation settings',
  source: 'doc 4.16',
  access: 'admin',
  params: pathParams('organizationId'),
  query: noQuery(),
  body: TranslationSettingsBody,
  bodyRequired: true,
  success: 201,
});

export const getTranslation = defineRoute({
  id: 'getTranslation',
  method: 'GET',
  path: '/v1/orgs/{organizationId}/translations/{translationSettingsId}',
  summary: 'Get translation settings',
  source: 'doc 4.16',
  access: 'read',
  params: pathParams(...settings),
  query: noQuery(),
});

export const updateTranslation = defineRoute({
  id: 'updateTranslation',
  method: 'PUT',
  path: '/v1/orgs/{organizationId}/translations/{translationSettingsId}',
  summary: 'Update translation settings',
  source: 'doc 4.16',
  access: 'admin',
  params: pathParams(...settings),
  query: noQuery(),
  body: TranslationSettingsBody,
  bodyRequired: true,
});

export const deleteTranslation = defineRoute({
  id: 'deleteTranslation',
  method: 'DELETE',
  path: '/v1/orgs/{organizationId}/translations/{translationSettingsId}',
  summary: 'Delete translation settings',
  source: 'doc 4.16',
  access: 'admin',
  params: pathParams(...settings),
  query: noQuery(),
});
