/** `docsctl audit …`: the audit log, declared with the routes (src/api/routes/audit.ts); ages for --since/--until here. */
import { UsageError } from '../../api/errors.js';
import { parseDuration } from '../../util/clock.js';
import type { Hooks } from '../derive.js';

/** `24h` → the ISO time 24 hours before `now`; an ISO time as it is (the server checks it); else a usage error. */
function timeOf(flag: string, value: string, now: Date): string {
  const age = parseDuration(value);
  if (age !== undefined && age >= 0) return new Date(now.getTime() - age).toISOString();
  if (/^\d{4}-\d{2}-\d{2}/.test(value) && !Number.isNaN(Date.parse(value))) return new Date(Date.parse(value)).toISOString();
  throw new UsageError(`${flag} expects an ISO 8601 time (2026-11-28T00:00:00Z) or an age (90s, 15m, 24h, 7d), got "${value}"`);
}

export const hooks = {
  'audit list': {
    build: (options, input, session) => {
      const query = input.query as Record<string, unknown>;
      const now = session.ctx.clock();
      if (typeof options.since === 'string') query.from = timeOf('--since', options.since, now);
      if (typeof options.until === 'string') query.to = timeOf('--until', options.until, now);
    },
  },
} satisfies Hooks;
