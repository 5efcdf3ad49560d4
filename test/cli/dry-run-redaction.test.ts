/**
 * `--dry-run` prints the request instead of sending it, and that print goes to terminals
 * and CI logs: the values of headers (an MCP server's Authorization, read from the
 * environment so that it stays off the command line) and the userinfo of URLs are masked,
 * in text and in JSON; everything else is printed as it would be sent.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

afterAll(cleanupTempDirs);

let env: Record<string, string>;
let site: string;

beforeAll(async () => {
  env = { DOCSCTL_STORE: join(tempDir('docsctl-dry-redact-'), 'store'), MCP_TOKEN: 'Bearer s3cr3t-t0ken' };
  expect((await runCli(['init', '--org', 'Acme'], { env })).exitCode).toBe(0);
  site = (await runCli(['site', 'create', '--title', 'Help', '--format', 'ids'], { env })).stdout.trim();
});

const add = (...extra: string[]) =>
  runCli(
    ['site', 'mcp-server', 'add', site, '--name', 'Tickets', '--url', 'https://bob:pa55@mcp.acme.example/sse', '--header', 'X-Team: docs', '--header-env', 'Authorization=MCP_TOKEN', '--dry-run', ...extra],
    { env },
  );

describe('--dry-run keeps secrets out of what it prints', () => {
  it('masks header values and URL userinfo in the text form', async () => {
    const result = await add();
    expect(result.exitCode).toBe(0);
    expect(result.stdout).not.toMatch(/s3cr3t|pa55|docs"/);
    expect(result.stdout).toContain(`POST /v1/orgs/`);
    expect(result.stdout).toContain('"Authorization": "***"');
    expect(result.stdout).toContain('"X-Team": "***"');
    expect(result.stdout).toContain('"url": "https://***@mcp.acme.example/sse"');
    expect(result.stdout).toContain('"name": "Tickets"');
  });

  it('masks them in --json too, keeping the names and the shape', async () => {
    const result = await add('--json');
    expect(result.exitCode).toBe(0);
    const printed = JSON.parse(result.stdout) as { dryRun: boolean; method: string; body: Record<string, unknown> };
    expect(printed).toMatchObject({ dryRun: true, method: 'POST' });
    expect(printed.body).toEqual({ name: 'Tickets', url: 'https://***@mcp.acme.example/sse', headers: { 'X-Team': '***', Authorization: '***' } });
  });

  it('sends nothing: the site has no MCP server afterwards', async () => {
    const listed = await runCli(['site', 'mcp-server', 'list', site, '--json'], { env });
    expect(JSON.parse(listed.stdout)).toEqual([]);
  });
});
