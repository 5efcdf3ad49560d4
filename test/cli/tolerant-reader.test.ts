/**
 * Remote mode is a tolerant reader (issue 24 §1): every read command, in every
 * output format, against answers generated from GitBook's API of today (0.202):
 * with every property and one docsctl does not know on each object, with enum
 * values no version has, and with only the required properties. None may fail or
 * print a bug; `--json` passes the answer through as it came.
 *
 * In process (the matrix is ~100 commands × 4 formats × 3 shapes); the values of
 * today's fields are asserted through the built binary in test/e2e/todays-api.test.ts.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeInfo } from '../../src/api/catalog.js';
import type { RouteId } from '../../src/api/route-id.js';
import { loadCommandModules } from '../../src/cli/commands/index.js';
import { NOT_IN_TODAYS_API } from '../../src/cli/missing-operation.js';
import type { OperationCommandSpec } from '../../src/cli/operation.js';
import { runCli } from '../helpers/cli.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';
import { type Shape, type TodaysApi, startTodaysApi } from '../helpers/todays-api.js';

let api: TodaysApi;
let env: Record<string, string>;
let reads: OperationCommandSpec[] = [];

beforeAll(async () => {
  api = await startTodaysApi();
  const home = tempDir('docsctl-tolerant-');
  env = { HOME: home, XDG_CONFIG_HOME: join(home, 'config'), DOCSCTL_ENDPOINT: api.url, DOCSCTL_TOKEN: 'gb_api_test', DOCSCTL_ORG: 'org-1',
    // `ads site list` is the ad partner's: it sends this key (X-GitBook-Partner-Key) or refuses to run.
    DOCSCTL_ADS_PARTNER_KEY: 'partner-key-of-the-test' };
  const modules = await loadCommandModules();
  reads = modules
    .flatMap((module) => module.specs)
    .filter((spec) => typeof spec.route === 'string' && (spec.output === 'list' || spec.output === 'object'))
    .filter((spec) => routeInfo(spec.route as RouteId).method === 'GET' && spec.request === undefined);
});
afterAll(async () => {
  await api.close();
  cleanupTempDirs();
});

/** The command's argv: its words, a value per argument, and each required flag. */
function argvOf(spec: OperationCommandSpec): string[] {
  const argv = spec.command.split(' ');
  for (const arg of spec.args ?? []) argv.push(`${arg.name}-1`);
  for (const flag of spec.flags ?? []) {
    if (!flag.required) continue;
    const name = /--[\w-]+/.exec(flag.flags)?.[0] as string;
    argv.push(name, flag.choices?.[0] ?? `${name.slice(2)}-1`);
  }
  return argv;
}

const SHAPES: Shape[] = ['full', 'unknown-enums', 'minimal'];

describe.each(SHAPES)('every read command against answers of today\'s API (%s)', (shape) => {
  it('prints a table, TSV, JSON and YAML without failing; --json is the answer as it came', { timeout: 600_000 }, async () => {
    api.use(shape);
    expect(reads.length).toBeGreaterThan(40);
    const failures: string[] = [];
    for (const spec of reads) {
      const argv = argvOf(spec);
      const runs = [
        { format: 'table', result: await runCli(argv, { env, tty: true }) },
        { format: 'tsv', result: await runCli([...argv, '--format', 'tsv'], { env }) },
        { format: 'yaml', result: await runCli([...argv, '--format', 'yaml'], { env }) },
      ];
      const json = await runCli([...argv, '--json'], { env });
      for (const { format, result } of [...runs, { format: 'json', result: json }]) {
        // Exit 0, or exit 1 with one line for an operation today's API does not have (missing-operation.ts).
        const missing = NOT_IN_TODAYS_API[spec.route as RouteId] !== undefined;
        const expected = missing ? /^error: This server's API has no \w+ operation .*\n$/ : /^$|^(?!error)/;
        if (result.exitCode !== (missing ? 1 : 0) || !expected.test(result.stderr)) failures.push(`${argv.join(' ')} (${format}): exit ${result.exitCode}: ${result.stderr.trim()}`);
      }
      const answer = api.answered.get(spec.route as string);
      if (json.exitCode === 0 && answer !== undefined && spec.after === undefined) {
        const printed = JSON.parse(json.stdout) as unknown;
        const expected = spec.output === 'list' ? ((answer as { items?: unknown[] }).items ?? answer) : answer;
        if (JSON.stringify(printed) !== JSON.stringify(expected)) failures.push(`${argv.join(' ')} --json: not the answer as it came`);
      }
    }
    expect(failures).toEqual([]);
  });
});
