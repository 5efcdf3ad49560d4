/**
 * `docsctl api` and the ad partner's key: the key (DOCSCTL_ADS_PARTNER_KEY) travels as
 * X-GitBook-Partner-Key on the partner's operations only; any other request a script sends
 * with the variable set must not carry it (a loopback server records every request's headers).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin } from '../helpers/binary.js';

const KEY = 'partner-key-0123456789abcdef';

describe('docsctl api: the partner key goes where it is asked for', () => {
  const seen: Array<{ line: string; partnerKey: string | undefined }> = [];
  let server: Server;
  let home: string;
  let endpoint: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const partnerKey = req.headers['x-gitbook-partner-key'];
      seen.push({ line: `${req.method} ${req.url}`, partnerKey: typeof partnerKey === 'string' ? partnerKey : undefined });
      req.resume();
      req.on('end', () => {
        if (req.method === 'PATCH') {
          res.writeHead(204).end();
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(req.url?.startsWith('/v1/ads/') ? JSON.stringify({ items: [] }) : JSON.stringify({ object: 'user', id: 'u1' }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    home = mkdtempSync(join(tmpdir(), 'docsctl-api-key-'));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(home, { recursive: true, force: true });
  });

  const api = async (...args: string[]) => {
    seen.length = 0;
    const result = await execa('node', [bin, 'api', ...args], {
      env: { HOME: home, DOCSCTL_CONFIG_DIR: join(home, 'config'), DOCSCTL_ENDPOINT: endpoint, DOCSCTL_TOKEN: 'gb_api_test', DOCSCTL_ADS_PARTNER_KEY: KEY, NO_COLOR: '1' },
      extendEnv: false,
      reject: false,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    return seen.map((request) => ({ ...request }));
  };

  it('sends it on the partner list and update', async () => {
    expect(await api('GET', '/v1/ads/sites?status=live')).toEqual([{ line: 'GET /v1/ads/sites?status=live', partnerKey: KEY }]);
    expect(await api('PATCH', 'ads/sites/s1t3', '-f', 'status=pending')).toEqual([{ line: 'PATCH /v1/ads/sites/s1t3', partnerKey: KEY }]);
  });

  it('never on any other operation, nor on a path no operation has', async () => {
    expect(await api('GET', '/v1/user')).toEqual([{ line: 'GET /v1/user', partnerKey: undefined }]);
    expect(await api('GET', '/v1/ads/other')).toEqual([{ line: 'GET /v1/ads/other', partnerKey: undefined }]);
  });
});
