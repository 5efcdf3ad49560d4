/**
 * `docsctl api --list` shows the true coverage: every operation of the real API is
 * listed, implemented or not (the declared-only ones answer 501, see routes/declared.ts).
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

afterAll(cleanupTempDirs);

describe('api --list', () => {
  it('lists implemented and declared-only operations, and a declared-only one answers 501', async () => {
    const env = { DOCSCTL_STORE: join(tempDir(), 'store') };
    expect((await runCli(['init', '--org', 'Acme', '--json'], { env })).exitCode).toBe(0);
    const list = await runCli(['api', '--list', '--format', 'tsv'], { env });
    expect(list.exitCode, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/^listSiteTopics\tGET\t\/v1\/orgs\/\{organizationId\}\/sites\/\{siteId\}\/topics\tnot implemented$/m);
    expect(list.stdout).toMatch(/^getCustomFont\tGET\t\/v1\/orgs\/\{organizationId\}\/fonts\/\{fontId\}\timplemented$/m);
    expect(list.stdout).toMatch(/^getSpaceById\tGET\t\/v1\/spaces\/\{spaceId\}\timplemented$/m);
    expect(list.stdout).toMatch(/^listCommentsInSpace\tGET\t\/v1\/spaces\/\{spaceId\}\/comments\timplemented$/m);
    expect(list.stdout).toMatch(/^getSiteTree\tGET\t\/v1\/orgs\/\{organizationId\}\/sites\/\{siteId\}\/x-docsctl\/tree\timplemented \(docsctl extension, not in the real API\)$/m);
    expect(list.stdout).toMatch(/^previewGitExport\tPOST\t\/v1\/spaces\/\{spaceId\}\/x-docsctl\/git\/export-preview\timplemented \(docsctl extension, not in the real API\)$/m);
    // @gitbook/api 0.202.0's 377 operations, plus the API doc's and docsctl's own that it lacks.
    expect(list.stdout.trim().split('\n').length).toBeGreaterThanOrEqual(377);
    const cluster = await runCli(['api', 'GET', '/v1/orgs/o1/sites/s1/topics'], { env });
    expect(cluster.exitCode).toBe(1);
    expect(cluster.stderr).toMatch(/listSiteTopics is not implemented yet/);
  });
});
