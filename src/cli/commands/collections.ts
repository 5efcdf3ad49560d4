/** `docsctl collection …` (API doc §4.1): declared with the routes (src/api/routes/collections.ts); what data cannot say. */
import type { Hooks } from '../derive.js';
import { buildPosition, moveFlags } from './flags.js';

export const hooks = {
  'collection move': { flags: moveFlags, build: buildPosition },
} satisfies Hooks;
