/** The real API's `system` operation: what is answering (docsctl's version and build). */
import * as z from 'zod';
import { defineRoute } from '../route.js';
import { noQuery, pathParams } from '../schemas/common.js';

export const getApiInformation = defineRoute({
  id: 'getApiInformation',
  method: 'GET',
  path: '/v1/',
  summary: 'Get the version and build date of the API server',
  source: 'real-api',
  access: 'none',
  params: z.object({}),
  query: noQuery(),
  cli: {
    command: 'system info',
    summary: 'Show the version and build date of the API server (this docsctl, locally)',
    columns: 'apiInformation',
    examples: ['docsctl system info', 'docsctl --endpoint https://api.gitbook.com system info --json'],
  },
});

export const getSubdomain = defineRoute({
  id: 'getSubdomain',
  method: 'GET',
  path: '/v1/subdomains/{subdomain}',
  summary: 'Get the organization a gitbook.io subdomain (an organization hostname) belongs to',
  source: 'real-api',
  // Any signed-in caller, as the real API: a published site's subdomain is public.
  access: 'none',
  params: pathParams('subdomain'),
  query: noQuery(),
  cli: {
    command: 'org subdomain',
    summary: 'Show which organization a subdomain (<hostname>.gitbook.io, set with "org edit --hostname") belongs to',
    columns: 'subdomain',
    examples: ['docsctl org subdomain acme', 'docsctl org subdomain acme --json target'],
  },
});
