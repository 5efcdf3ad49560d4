/** The real API's `system` operation: what is answering (docsctl's version and build). */
import * as z from 'zod';
import { defineRoute } from '../route.js';
import { noQuery } from '../schemas/common.js';

export const getApiInformation = defineRoute({
  id: 'getApiInformation',
  method: 'GET',
  path: '/v1/',
  summary: 'Get the version and build date of the API server',
  source: 'real-api',
  access: 'none',
  params: z.object({}),
  query: noQuery(),
});
