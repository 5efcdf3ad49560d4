/** `docsctl space …` (API doc §4.2 and the real API's create/list): declared with the routes (src/api/routes/spaces.ts); what data cannot say. */
import type { Hooks } from '../derive.js';
import { buildPosition, moveFlags } from './flags.js';
import { webSpace } from './web-targets.js';

export const hooks = {
  'space get': { web: webSpace },
  'space restore': { unchanged: (space) => space.deletedAt === undefined && `space ${String(space.id)} is not deleted` },
  'space move': { flags: moveFlags, build: buildPosition },
} satisfies Hooks;
