/** Users (real API): `getUserById`. */
import * as z from 'zod';
import { defineRoute } from '../route.js';
import { pathParams } from '../schemas/common.js';

export const getUserById = defineRoute({
  id: 'getUserById',
  method: 'GET',
  path: '/v1/users/{userId}',
  summary: 'Get a user',
  source: 'real-api',
  access: 'none',
  params: pathParams('userId'),
  query: z.object({}),
});
