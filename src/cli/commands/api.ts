/**
 * `docsctl api METHOD PATH`: sends any operation, in either mode, and prints the
 * JSON answer. `-f key=value` adds a string field, `-F key=value` a typed one
 * (numbers, true/false, null, @FILE for a file's text); fields go to the query
 * for GET and DELETE, to the JSON body otherwise. `--list` shows every operation.
 */
import type { Command } from 'commander';
import { UsageError } from '../../api/errors.js';
import { readTextInput } from '../io.js';
import type { Session } from '../session.js';

interface ApiOptions {
  field?: string[];
  rawField?: string[];
  input?: string;
  paginate?: boolean;
  list?: boolean;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function registerApiCommand(program: Command, getSession: (command: Command) => Session): void {
  program
    .command('api')
    .description('Send any API operation and print its JSON answer')
    .argument('[method]', 'HTTP method (GET, POST, PUT, PATCH, DELETE)')
    .argument('[url-path]', 'path of the API doc, e.g. /v1/spaces/ID (the /v1 prefix may be omitted)')
    .option('-f, --raw-field <key=value>', 'add a string field (repeatable)', collect)
    .option('-F, --field <key=value>', 'add a typed field: number, true/false, null, or @FILE (repeatable)', collect)
    .option('--input <file>', 'JSON request body from a file ("-" for stdin)')
    .option('--paginate', 'follow next.page and print every item as one JSON array')
    .option('--list', 'list the operations, and whether each is implemented locally')
    .option('--dry-run', 'for a method other than GET: print the request (method, path, body) instead of sending it')
    .addHelpText(
      'after',
      `
Examples:
  $ docsctl api GET /v1/user
  $ docsctl api GET /v1/orgs/ORG/spaces --paginate | jq length
  $ docsctl api POST /v1/orgs/ORG/collections -f title=Guides
  $ docsctl api PATCH /v1/spaces/SPACE --input patch.json
  $ docsctl api --list
  $ DOCSCTL_ADS_PARTNER_KEY=… docsctl api GET /v1/ads/sites
    (the ad partner's key goes as X-GitBook-Partner-Key, on the partner's operations only)
`,
    )
    .action(async (method: string | undefined, path: string | undefined, options: ApiOptions, command: Command) => {
      await runApi(getSession(command), method, path, options);
    });
}

async function typedValue(raw: string): Promise<unknown> {
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  if (raw === 'null') return null;
  if (/^-?\d+(\.\d+)?$/.test(raw)) return Number(raw);
  if (raw.startsWith('@')) {
    const { readFile } = await import('node:fs/promises');
    try {
      return await readFile(raw.slice(1), 'utf8');
    } catch (error) {
      throw new UsageError(`Cannot read ${raw.slice(1)}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  }
  return raw;
}

function splitField(field: string, flag: string): [string, string] {
  const at = field.indexOf('=');
  if (at <= 0) throw new UsageError(`${flag} expects key=value, got "${field}"`);
  return [field.slice(0, at), field.slice(at + 1)];
}

async function readInput(session: Session, file: string): Promise<unknown> {
  const text = await readTextInput(session.ctx.io.in, file, '--input');
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError(`--input ${file} is not valid JSON`);
  }
}

async function listOperations(session: Session): Promise<void> {
  const [{ routes }, { isImplemented }] = await Promise.all([import('../../api/table.js'), import('../../domain/execute.js')]);
  const rows = await Promise.all(
    routes.map(async (route) => ({
      id: route.id,
      method: route.method,
      path: route.path,
      // docsctl's own routes are not in the real API: a real server answers 404 for them.
      local: `${(await isImplemented(route.id)) ? 'implemented' : 'not implemented'}${route.source === 'docsctl' ? ' (docsctl extension, not in the real API)' : ''}`,
    })),
  );
  await session.printList(rows, [
    { header: 'OPERATION', get: (r) => r.id },
    { header: 'METHOD', get: (r) => r.method },
    { header: 'PATH', get: (r) => r.path },
    { header: 'LOCAL', get: (r) => r.local },
  ]);
}

export async function runApi(session: Session, method: string | undefined, path: string | undefined, options: ApiOptions) {
  if (options.list) return listOperations(session);
  if (!method || !path) throw new UsageError('api needs METHOD and PATH, e.g. docsctl api GET /v1/user', { hint: 'docsctl api --list shows every operation' });
  const verb = method.toUpperCase();
  if (!['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(verb)) throw new UsageError(`Unknown HTTP method "${method}"`);
  let target = path.startsWith('/') ? path : `/${path}`;
  if (!target.startsWith('/v1/') && target !== '/v1') target = `/v1${target}`;

  const fields: Record<string, unknown> = {};
  for (const field of options.rawField ?? []) {
    const [key, value] = splitField(field, '-f');
    fields[key] = value;
  }
  for (const field of options.field ?? []) {
    const [key, value] = splitField(field, '-F');
    fields[key] = await typedValue(value);
  }
  let body: unknown = options.input !== undefined ? await readInput(session, options.input) : undefined;
  const url = new URL(target, 'http://api');
  if (verb === 'GET' || verb === 'DELETE') {
    for (const [key, value] of Object.entries(fields)) url.searchParams.append(key, String(value));
  } else if (Object.keys(fields).length > 0) {
    body = { ...((body as Record<string, unknown> | undefined) ?? {}), ...fields };
  }

  const transport = await session.transport({ manyRequests: options.paginate === true });
  const pathAndQuery = `${url.pathname}${url.search}`;
  const partnerKeySet = Boolean(session.ctx.env.DOCSCTL_ADS_PARTNER_KEY);
  // The route table is read only when something needs the operation (a remote one-shot call does not).
  const catalog = typeof session.flags.json === 'string' || partnerKeySet ? await import('../../api/catalog.js') : undefined;
  const route = catalog?.matchRouteInfo(verb, url.pathname)?.item;
  // `--json FIELDS` accepts the fields of the operation's answer type (of its items with --paginate).
  if (typeof session.flags.json === 'string' && route && (options.paginate === true) === route.paginated) session.printsAnswerOf(route.id);
  // The ad partner's operations carry DOCSCTL_ADS_PARTNER_KEY as `ads site list|update` do; no other
  // request does (the key never goes where it is not asked for).
  const partnerKey = partnerKeySet && route && catalog?.takesPartnerKey(route.id) ? session.ctx.env.DOCSCTL_ADS_PARTNER_KEY : undefined;
  const sendOptions = partnerKey === undefined ? undefined : { partnerKey };
  const response = await transport.raw(verb, pathAndQuery, body, sendOptions);
  if (!options.paginate) {
    if (response.body !== undefined) await session.printJson(response.body);
    return;
  }
  const page = response.body as { items?: unknown[]; next?: { page?: string } };
  if (!Array.isArray(page?.items)) throw new UsageError(`--paginate needs a list answer; ${verb} ${url.pathname} did not return items`);
  const items = [...page.items];
  let next = page.next?.page;
  while (next) {
    url.searchParams.set('page', next);
    const more = (await transport.raw(verb, `${url.pathname}${url.search}`, body, sendOptions)).body as typeof page;
    items.push(...(more.items ?? []));
    next = more.next?.page;
  }
  await session.printJson(items);
}
