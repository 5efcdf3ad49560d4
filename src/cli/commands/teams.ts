/** `docsctl team …` (API doc §4.18), declared with the routes (src/api/routes/teams.ts); `team members sync` is in team-sync.ts. */
import type { Hooks } from '../derive.js';

export const hooks = {
  'team members add': {
    flags: [{ flags: '--role <role>', description: 'team role: member (default) or owner', choices: ['owner', 'member'] }],
    build: (options, input) => {
      const body = input.body as { add: string[]; memberships?: Record<string, { role: string }> };
      if (typeof options.role === 'string') body.memberships = Object.fromEntries(body.add.map((ref) => [ref, { role: options.role as string }]));
    },
  },
} satisfies Hooks;
