/**
 * Remote mode against GitBook's API of today (0.202 shapes, test/helpers/todays-api.ts),
 * through the built binary: today's fields are shown (translations as
 * {source, language, status}, a team as a requested reviewer, the section of a
 * variant in site published), and a command whose operation today's API does not
 * have says so in one line (exit 1), while a missing object stays a 404 (exit 4).
 */
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin } from '../helpers/binary.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';
import { onTerminal } from '../helpers/terminal.js';
import { type TodaysApi, startTodaysApi } from '../helpers/todays-api.js';

let api: TodaysApi;
let env: Record<string, string>;
const docsctl = (args: string[]) => execa('node', [bin, ...args], { env, extendEnv: false, reject: false, timeout: 60_000 });

const translation = {
  object: 'translation',
  id: 'tr1',
  status: 'completed',
  source: { space: 'sp1', language: 'en' },
  language: 'fr',
  createdAt: '2026-01-02T03:04:05.000Z',
  updatedAt: '2026-01-02T03:04:05.000Z',
  stats: { runs: 1, totalWords: 10, totalPages: 1, totalDuration: 3, latestRunDuration: 3, latestPages: 1, latestWords: 10 },
  futureField: { note: 'unknown to docsctl' },
};
const requested = (reviewer: Record<string, unknown>) => ({
  object: 'change-request-requested-reviewer',
  revision: 'r1',
  requestedBy: { object: 'user', id: 'u9', displayName: 'Bob' },
  createdAt: '2026-01-02T03:04:05.000Z',
  ...reviewer,
});
const siteSpace = {
  object: 'site-space',
  id: 'ss1',
  section: 'sec1',
  title: 'English',
  path: 'en',
  draft: false,
  default: true,
  space: { object: 'space', id: 'sp1', title: 'Guide' },
  urls: { published: 'https://docs.example.com/en/' },
};

beforeAll(async () => {
  api = await startTodaysApi();
  const home = tempDir('docsctl-todays-api-');
  env = { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: join(home, 'config'), NO_COLOR: '1', DOCSCTL_ENDPOINT: api.url, DOCSCTL_TOKEN: 'gb_api_test', DOCSCTL_ORG: 'org1' };
  api.override('listTranslations', { items: [translation] });
  api.override('getTranslation', translation);
  api.override('getRequestedReviewersByChangeRequestId', {
    items: [requested({ kind: 'user', user: { object: 'user', id: 'u1', displayName: 'Ada' } }), requested({ kind: 'team', team: { object: 'team', id: 't1', title: 'Docs team' } })],
  });
  api.override('getPublishedContentSite', {
    object: 'published-content-site',
    site: { object: 'site', id: 's1', title: 'Help', published: true },
    structure: { type: 'siteSpaces', structure: [siteSpace] },
    customizations: { site: {}, siteSpaces: {} },
    scripts: [],
  });
  api.missing.add('/v1/spaces/gone');
});
afterAll(async () => {
  await api.close();
  cleanupTempDirs();
});

describe("remote mode shows today's fields", { timeout: 300_000 }, () => {
  it('translation list and get: source, language and status (a title made of the languages)', async () => {
    const list = await docsctl(['translation', 'list', '--format', 'tsv']);
    expect(list.exitCode, list.stderr).toBe(0);
    expect(list.stdout).toBe('tr1\ten → fr\tfr\tsp1\tcompleted');
    const get = await docsctl(['translation', 'get', 'tr1', '--format', 'tsv']);
    expect(get.stdout).toBe('tr1\ten → fr\tfr\tsp1\tcompleted');
    const table = await onTerminal(['translation', 'list'], { env: { ...env, TERM: 'dumb' } });
    expect(table.output).toMatch(/ID\s+TITLE\s+LANGUAGES\s+SOURCE\s+STATUS\s*\r\ntr1\s+en → fr\s+fr\s+sp1\s+completed/);
    const json = JSON.parse((await docsctl(['translation', 'get', 'tr1', '--json'])).stdout) as unknown;
    expect(json).toEqual(translation);
  });

  it('cr reviewers: a user and a team, each with its name and kind', async () => {
    const result = await docsctl(['cr', 'reviewers', 'sp1', 'cr1', '--format', 'tsv']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout.split('\n')).toEqual(['u1\tAda\tBob\t2026-01-02T03:04:05.000Z\tuser', 't1\tDocs team\tBob\t2026-01-02T03:04:05.000Z\tteam']);
  });

  it("site published: a variant's section (today's siteSpaces structure names it by id)", async () => {
    const result = await docsctl(['site', 'published', 's1', '--format', 'tsv']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe('sec1\tEnglish\ttrue\thttps://docs.example.com/en/');
  });
});

describe("commands whose operation today's API does not have", { timeout: 300_000 }, () => {
  it.each([
    [['space', 'links', 'sp1'], 'listSpaceLinks'],
    [['space', 'fields', 'sp1'], 'getSpaceCustomFields'],
    [['custom-field', 'list'], 'listOrganizationCustomFields'],
    [['custom-field', 'get', 'tier'], 'getOrganizationCustomFieldByName'],
  ])('%j says in one line that this server has no %s, and what to use (exit 1)', async (argv, operation) => {
    const result = await docsctl(argv);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(new RegExp(`^error: This server's API has no ${operation} operation \\(GET /v1/[^)]+\\) \\(.*works locally \\(--store DIR\\) and against docsctl serve\\)$`));
  });

  it.each([
    [['token', 'list'], 'listTokensForAuthenticatedUser', 'GET /v1/x-docsctl/user/tokens'],
    [['token', 'list', '--user', 'ci@acme.io'], 'listTokensForUser', 'GET /v1/x-docsctl/users/{userId}/tokens'],
    [['token', 'create', '--label', 'ci'], 'createTokenForAuthenticatedUser', 'POST /v1/x-docsctl/user/tokens'],
    [['token', 'revoke', '0123456789abcdef'], 'revokeToken', 'DELETE /v1/x-docsctl/tokens/{tokenId}'],
    [['user', 'create', '--email', 'ci@acme.io'], 'createUser', 'POST /v1/x-docsctl/users'],
  ])("%j: docsctl's account routes, which GitBook's API has not, say so in one line (exit 1)", async (argv, operation, route) => {
    const result = await docsctl(argv);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `error: This server's API has no ${operation} operation (${route}) (GitBook makes users and API tokens in its app, its API has no such operation; the command works locally (--store DIR) and against docsctl serve)`,
    );
  });

  it('a space that does not exist is still "not found" (exit 4)', async () => {
    const result = await docsctl(['space', 'links', 'gone']);
    expect(result.exitCode).toBe(4);
    // Not an id: looked up by title first (names, issue 23), which finds no space either.
    expect(result.stderr).toMatch(/^error: (Not found|Space "gone" not found)/);
  });
});
