/**
 * Hooks of the context-source commands (src/api/routes/site-context.ts): a connection's setup
 * from `--setting KEY=VALUE` and `--setting-env KEY=VAR` (a secret read from the environment,
 * never from the command line, where the process list shows it), its usage settings from
 * single flags over the ones it has, records pushed from a JSON file or stdin.
 */
import { UsageError } from '../../api/errors.js';
import type { RawInput } from '../../api/validate.js';
import type { Transport } from '../../transport/types.js';
import { columns } from '../../output/columns.js';
import type { Hooks } from '../derive.js';
import { readJsonFile } from '../json-file.js';
import { CheckFailedError, type FlagSpec } from '../operation.js';

const BUILTIN = ['api', 'email', 'website', 'youtube', 'github-discussions', 'github-issues', 'intercom', 'front', 'zendesk', 'zoho-desk', 'freshdesk', 'pylon', 'hubspot', 'linear', 'jira'];

const settingFlags: FlagSpec[] = [
  { flags: '--setting <key=value...>', description: 'a setting of the connector, e.g. url=https://example.com/help or repository=my-org/docs (repeat it)' },
  { flags: '--setting-env <key=VAR...>', description: 'a secret setting read from environment variable VAR, e.g. token=GITHUB_TOKEN (repeat it)' },
];
const usageFlags: FlagSpec[] = [
  { flags: '--search <bool>', description: 'show the records in search results', choices: ['true', 'false'] },
  { flags: '--change-requests <bool>', description: 'let the records propose change requests', choices: ['true', 'false'] },
  { flags: '--outbound-sync <bool>', description: 'write change-request states back to the source', choices: ['true', 'false'] },
  { flags: '--boost <factor>', description: "score adjustment of the records in search", choices: ['x0.8', 'x1.0', 'x1.2'] },
  { flags: '--filter <text>', description: 'what the source ingests (a tag, label or expression; "" for everything)' },
];

function bodyOf(input: RawInput): Record<string, unknown> {
  input.body ??= {};
  return input.body as Record<string, unknown>;
}

function pairs(values: unknown, flag: string): Array<[string, string]> {
  return ((values as string[] | undefined) ?? []).map((item) => {
    const at = item.indexOf('=');
    if (at <= 0) throw new UsageError(`${flag} expects KEY=${flag === '--setting-env' ? 'VAR' : 'VALUE'}, got "${item}"`);
    return [item.slice(0, at), item.slice(at + 1)];
  });
}

/** The settings the flags give (undefined: none given). */
function settingsOf(options: Record<string, unknown>, env: Readonly<Record<string, string | undefined>>): Record<string, string> | undefined {
  const given = [...pairs(options.setting, '--setting')];
  for (const [key, variable] of pairs(options.settingEnv, '--setting-env')) {
    const value = env[variable];
    if (value === undefined || value === '') throw new UsageError(`--setting-env ${key}=${variable}: environment variable ${variable} is not set`);
    given.push([key, value]);
  }
  return given.length === 0 ? undefined : Object.fromEntries(given);
}

/** The usage settings the flags change (undefined: none). */
function usageChanges(options: Record<string, unknown>): Record<string, unknown> | undefined {
  const changes: Record<string, unknown> = {};
  if (options.search !== undefined) changes.search = options.search === 'true';
  if (options.changeRequests !== undefined) changes.changeRequests = options.changeRequests === 'true';
  if (options.outboundSync !== undefined) changes.sync = options.outboundSync === 'true';
  if (options.boost !== undefined) changes.searchBoost = options.boost;
  return Object.keys(changes).length === 0 ? undefined : changes;
}

const connectorOf = (name: string) => (BUILTIN.includes(name) ? `builtin:${name}` : name);

/** Fields the hooks keep between `build` and `request` (not sent as such). */
const USAGE = '__usage';

async function currentConnection(transport: Transport, input: RawInput) {
  const answer = await transport.request('getSiteContextConnectionById', { params: input.params ?? {}, query: {} });
  return answer.body as { connector: string; setupSettings?: Record<string, unknown>; usageSettings: Record<string, unknown> };
}

export const hooks = {
  'site context add': {
    flags: [
      { flags: '--connector <name>', description: `the source: ${BUILTIN.join(', ')}, or integration:NAME`, required: true },
      ...settingFlags,
      ...usageFlags,
    ],
    build: (options, input, session) => {
      const body = bodyOf(input);
      body.connector = connectorOf(String(options.connector));
      const settings = settingsOf(options, session.ctx.env);
      if (settings !== undefined) body.setupSettings = settings;
      const usage = usageChanges(options);
      if (usage !== undefined) body.usageSettings = { changeRequests: true, search: true, searchBoost: 'x1.0', ...usage };
      if (options.filter !== undefined) body.filter = options.filter;
    },
  },
  'site context edit': {
    flags: [...settingFlags, ...usageFlags, { flags: '--label <text>', description: 'a label for the connection ("" removes it)' }],
    build: (options, input, session) => {
      const body = bodyOf(input);
      const settings = settingsOf(options, session.ctx.env);
      if (settings !== undefined) body.setupSettings = settings;
      const usage = usageChanges(options);
      if (usage !== undefined) body[USAGE] = usage;
      if (options.label !== undefined) body.label = options.label;
      if (options.filter !== undefined) body.filter = options.filter;
      if (Object.keys(body).length === 0) throw new UsageError('Nothing to change: pass --setting, --setting-env, --label, --filter, --search, --change-requests, --outbound-sync or --boost');
    },
    // A setup goes with its connector and all its settings, usage settings as a whole: both read from the connection.
    request: async (transport, input) => {
      const { [USAGE]: usage, ...body } = input.body as Record<string, unknown>;
      if (body.setupSettings !== undefined || usage !== undefined) {
        const current = await currentConnection(transport, input);
        if (body.setupSettings !== undefined) {
          body.connector = current.connector;
          // Stored secrets read back as ******** and sent so, they are kept.
          body.setupSettings = { ...current.setupSettings, ...(body.setupSettings as object) };
        }
        if (usage !== undefined) body.usageSettings = { ...current.usageSettings, ...(usage as object) };
      }
      return transport.request('updateSiteContextConnectionById', { ...input, body });
    },
  },
  'site context test': {
    after: async (session, answer) => {
      await session.printObject(answer, columns.siteContextTest);
      const result = answer as { success: boolean; error?: string };
      if (!result.success) throw new CheckFailedError(`The connection's credentials were not verified: ${result.error ?? 'no reason given'}`);
    },
  },
  'site context-record push': {
    flags: [{ flags: '--file <file>', description: 'a JSON array of records ({id, type, title, body, …}); - for stdin', required: true }],
    build: (options, input) => {
      const file = String(options.file);
      const parsed = readJsonFile(file, 'an array of records ({"id", "type", "title", "body"})');
      if (!Array.isArray(parsed)) throw new UsageError(`--file ${file} must hold a JSON array of records, not ${parsed === null ? 'null' : typeof parsed}`);
      input.body = parsed;
    },
  },
} satisfies Hooks;
