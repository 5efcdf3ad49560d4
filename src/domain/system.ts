/** `getApiInformation`: which docsctl answers, in any mode (no organization, any caller). */
import type * as routes from '../api/routes/system.js';
import { BUILD, VERSION } from '../version.js';
import { type Handler, implementer } from './handler.js';

const on = implementer<typeof routes>();

export const systemHandlers: Record<string, Handler> = {
  ...on('getApiInformation', () => ({ version: VERSION, build: BUILD })),
};
