/**
 * The `--dry-run` observer stops at the first request that would change something,
 * and lets reads and routes declared safe (the Git Sync previews) through — by
 * route id and by raw path (`docsctl api POST …/x-docsctl/git/export-preview --dry-run`).
 */
import { describe, expect, it } from 'vitest';
import { type PlannedRequest, observeWrites } from '../../src/transport/observe.js';
import type { ApiResponse, Transport } from '../../src/transport/types.js';

function recording(): { transport: Transport; sent: string[] } {
  const sent: string[] = [];
  const answer: ApiResponse = { status: 200, body: {}, headers: {} } as ApiResponse;
  return {
    sent,
    transport: {
      mode: 'local',
      request: async (routeId) => {
        sent.push(routeId);
        return answer;
      },
      raw: async (method, path) => {
        sent.push(`${method} ${path}`);
        return answer;
      },
      close: async () => undefined,
    },
  };
}

describe('observeWrites', () => {
  it('sends reads and safe routes, and stops a write before it is sent', async () => {
    const { transport, sent } = recording();
    const seen: PlannedRequest[] = [];
    const observed = observeWrites(transport, async (request) => {
      seen.push(request);
      throw new Error('stopped');
    });
    await observed.request('getSpaceById', { params: { spaceId: 's' } });
    await observed.request('previewGitExport', { params: { spaceId: 's' }, body: { url: 'u', ref: 'refs/heads/main' } });
    await observed.raw('POST', '/v1/spaces/s/x-docsctl/git/export-preview', {});
    await expect(observed.request('exportToGitRepository', { params: { spaceId: 's' }, body: {} })).rejects.toThrow('stopped');
    await expect(observed.raw('POST', '/v1/spaces/s/git/export', {})).rejects.toThrow('stopped');
    expect(sent).toEqual(['getSpaceById', 'previewGitExport', 'POST /v1/spaces/s/x-docsctl/git/export-preview']);
    expect(seen.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v1/spaces/s/git/export', 'POST /v1/spaces/s/git/export']);
  });
});
