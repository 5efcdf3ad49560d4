/**
 * The handler registry: route id → domain handler. A route with no entry here
 * answers 501 "<id> is not implemented yet" in every mode.
 */
import type { Handler } from './handler.js';
import { collectionHandlers } from './collections.js';
import { orgHandlers } from './orgs.js';
import { spaceHandlers } from './spaces.js';

export const handlers: Readonly<Record<string, Handler>> = {
  ...orgHandlers,
  ...collectionHandlers,
  ...spaceHandlers,
};
