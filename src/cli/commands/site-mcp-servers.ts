/**
 * `docsctl site mcp-server …`: MCP servers a site's assistant may call (real API
 * `site-mcp-servers`). Header values may be secrets: tables show header names only,
 * listings hide the values (the server does), and `--header-env NAME=VAR` reads a
 * value from the environment so it never sits in the command line.
 */
import { UsageError } from '../../api/errors.js';
import type { RawInput } from '../../api/validate.js';
import type { FlagSpec, OperationCommandSpec } from '../operation.js';
import type { Session } from '../session.js';

const SITE = { name: 'siteId', description: 'site id' };
const SERVER = { name: 'siteMcpServerId', description: 'MCP server id' };

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

export const siteMcpServerCommands: OperationCommandSpec[] = [
  {
    command: 'site mcp-server list',
    route: 'listSiteMcpServers',
    summary: 'List the MCP servers of a site (header values hidden)',
    aliases: ['ls'],
    args: [SITE],
    org: true,
    output: 'list',
    columns: 'siteMcpServer',
    noun: 'MCP server',
    examples: ['docsctl site mcp-server list s1t3'],
  },
  {
    command: 'site mcp-server get',
    route: 'getSiteMcpServerById',
    summary: 'Show an MCP server of a site (header values with --json or --yaml)',
    args: [SITE, SERVER],
    org: true,
    output: 'object',
    columns: 'siteMcpServer',
    examples: ['docsctl site mcp-server get s1t3 mcp1', 'docsctl site mcp-server get s1t3 mcp1 --json | jq .headers'],
  },
  {
    command: 'site mcp-server add',
    route: 'createSiteMcpServer',
    summary: 'Add an MCP server to a site (docsctl never connects to it)',
    args: [SITE],
    org: true,
    flags: [
      { flags: '--name <name>', description: 'name (1 to 100 characters)', to: 'body.name', required: true },
      { flags: '--url <url>', description: 'https:// URL of the server', to: 'body.url', required: true },
      ...headerFlags,
    ],
    build: (options, input, session) => {
      body(input).headers = headers(options, session) ?? {};
    },
    output: 'object',
    columns: 'siteMcpServer',
    examples: [
      'docsctl site mcp-server add s1t3 --name Tickets --url https://mcp.acme.example/sse',
      'MCP_TOKEN=… docsctl site mcp-server add s1t3 --name Tickets --url https://mcp.acme.example/sse --header-env Authorization=MCP_TOKEN',
    ],
  },
  {
    command: 'site mcp-server edit',
    route: 'updateSiteMcpServerById',
    summary: 'Change the name, URL or headers of an MCP server (headers given replace them all)',
    args: [SITE, SERVER],
    org: true,
    flags: [
      { flags: '--name <name>', description: 'new name', to: 'body.name' },
      { flags: '--url <url>', description: 'new URL', to: 'body.url' },
      ...headerFlags,
      { flags: '--no-headers', description: 'send no header any more' },
    ],
    build: (options, input, session) => {
      const given = headers(options, session);
      if (options.headers === false && given !== undefined) throw new UsageError('Pass --header/--header-env or --no-headers, not both');
      if (options.headers === false) body(input).headers = {};
      else if (given !== undefined) body(input).headers = given;
    },
    nonEmptyBody: 'Nothing to change: pass --name, --url, --header, --header-env or --no-headers',
    output: 'object',
    columns: 'siteMcpServer',
    examples: ['docsctl site mcp-server edit s1t3 mcp1 --url https://mcp.acme.example/v2/sse', 'docsctl site mcp-server edit s1t3 mcp1 --header-env Authorization=MCP_TOKEN'],
  },
  {
    command: 'site mcp-server delete',
    route: 'deleteSiteMcpServerById',
    summary: 'Delete an MCP server of a site',
    aliases: ['rm'],
    args: [SITE, SERVER],
    org: true,
    confirm: (input) => `Delete MCP server ${input.params?.siteMcpServerId}?`,
    output: 'delete',
    columns: 'siteMcpServer',
    noun: 'MCP server',
    examples: ['docsctl site mcp-server delete s1t3 mcp1 --yes'],
  },
];
