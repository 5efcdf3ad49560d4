/**
 * `docsctl site mcp-server …`: MCP servers a site's assistant may call (real API
 * `site-mcp-servers`). Header values may be secrets: tables show header names only,
 * listings hide the values (the server does), and `--header-env NAME=VAR` reads a
 * value from the environment so it never sits in the command line. Declared with
 * the routes (src/api/routes/sites.ts); the header flags here.
 */
import { UsageError } from '../../api/errors.js';
import type { RawInput } from '../../api/validate.js';
import type { Hooks } from '../derive.js';
import type { FlagSpec } from '../operation.js';
import type { Session } from '../session.js';

const headerFlags: FlagSpec[] = [
  { flags: '--header <name:value...>', description: 'header sent to the server, e.g. "X-Team: docs" (repeatable)' },
  { flags: '--header-env <name=VAR...>', description: 'header whose value is read from environment variable VAR, e.g. Authorization=MCP_TOKEN (repeatable)' },
];

const list = (value: unknown): string[] => (value === undefined ? [] : Array.isArray(value) ? value.map(String) : [String(value)]);

/** `--header` / `--header-env` → `body.headers` (none given: undefined). */
function headers(options: Record<string, unknown>, session: Session): Record<string, string> | undefined {
  const given = list(options.header);
  const fromEnv = list(options.headerEnv);
  if (given.length === 0 && fromEnv.length === 0) return undefined;
  const out: Record<string, string> = {};
  const add = (name: string, value: string) => {
    if (Object.keys(out).some((known) => known.toLowerCase() === name.toLowerCase())) throw new UsageError(`Header ${name} is given twice`);
    out[name] = value;
  };
  for (const item of given) {
    const colon = item.indexOf(':');
    if (colon <= 0) throw new UsageError(`--header expects NAME: VALUE, got "${item.slice(0, 40)}"`);
    add(item.slice(0, colon).trim(), item.slice(colon + 1).trim());
  }
  for (const item of fromEnv) {
    const equals = item.indexOf('=');
    if (equals <= 0) throw new UsageError(`--header-env expects NAME=VARIABLE, got "${item}"`);
    const variable = item.slice(equals + 1);
    const value = session.ctx.env[variable];
    if (value === undefined || value === '') throw new UsageError(`--header-env ${item}: environment variable ${variable} is not set`);
    add(item.slice(0, equals).trim(), value);
  }
  return out;
}

function body(input: RawInput): Record<string, unknown> {
  input.body ??= {};
  return input.body as Record<string, unknown>;
}

export const hooks = {
  'site mcp-server add': {
    flags: headerFlags,
    build: (options, input, session) => {
      body(input).headers = headers(options, session) ?? {};
    },
  },
  'site mcp-server edit': {
    flags: [...headerFlags, { flags: '--no-headers', description: 'send no header any more' }],
    build: (options, input, session) => {
      const given = headers(options, session);
      if (options.headers === false && given !== undefined) throw new UsageError('Pass --header/--header-env or --no-headers, not both');
      if (options.headers === false) body(input).headers = {};
      else if (given !== undefined) body(input).headers = given;
    },
  },
} satisfies Hooks;
