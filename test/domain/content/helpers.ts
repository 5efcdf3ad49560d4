/**
 * Content tests' harness: a MemoryStore with one organization (test/domain/harness.ts),
 * calls through `executeOperation` with an in-memory artifact sink, every 2xx body
 * validated against the real OpenAPI document (`responseValidator`), and helpers to
 * put content into a space or a change request directly (there is no page-editing
 * operation in the API version we follow).
 */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { ApiError } from '../../../src/api/errors.js';
import { getRoute } from '../../../src/api/table.js';
import type { RawInput } from '../../../src/api/validate.js';
import type { ContentPage, ContentTree } from '../../../src/content-model/model.js';
import { type OperationResult, executeOperation } from '../../../src/domain/execute.js';
import type { ArtifactSink } from '../../../src/domain/handler.js';
import { type ChangeRequestRecord, getChangeRequest, newRevisionRecord, putChangeRequest } from '../../../src/domain/content/change-request-records.js';
import { loadTree, saveTree } from '../../../src/domain/content/storage.js';
import { type SpaceRecord, getRevision, getSpace, putSpace } from '../../../src/domain/core-records.js';
import type { StoreWriter } from '../../../src/store/types.js';
import { responseValidator } from '../../contract/openapi.js';
import { ORIGIN, setup } from '../harness.js';
import type { RouteId } from '../../../src/api/route-id.js';

export { ORIGIN };

export type Obj = Record<string, unknown> & { id: string };

export async function contentSetup() {
  const h = await setup();
  const artifacts = new Map<string, { data: Uint8Array; contentType: string }>();
  const sink: ArtifactSink = {
    async save(name, data, contentType) {
      artifacts.set(name, { data, contentType });
      return `${ORIGIN}/artifacts/${name}`;
    },
  };

  const call = (userId: string, routeId: RouteId, raw: RawInput = {}): Promise<OperationResult> =>
    executeOperation({ store: h.store, actor: { userId }, clock: h.clock, ids: h.ids, origin: ORIGIN, artifacts: sink }, getRoute(routeId), raw);

  /** Calls and expects a success; validates the body against the spec's schema for that status. */
  async function ok<T = Obj>(userId: string, routeId: RouteId, raw: RawInput = {}, status?: number): Promise<T> {
    const result = await call(userId, routeId, raw);
    if (status !== undefined) expect(result.status).toBe(status);
    const check = responseValidator(routeId, result.status)(result.body);
    expect(check.errors, `${routeId} ${result.status} body vs the OpenAPI schema`).toEqual([]);
    return result.body as T;
  }

  async function fails(userId: string, routeId: RouteId, raw: RawInput, status: number, message?: RegExp): Promise<ApiError> {
    const error = await call(userId, routeId, raw).then(
      (result) => {
        throw new Error(`expected ${status}, got ${result.status} ${JSON.stringify(result.body)}`);
      },
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status, (error as ApiError).message).toBe(status);
    if (message) expect((error as ApiError).message).toMatch(message);
    return error as ApiError;
  }

  const admin = {
    ok: <T = Obj>(routeId: RouteId, raw: RawInput = {}, status?: number) => ok<T>(h.adminId, routeId, raw, status),
    fails: (routeId: RouteId, raw: RawInput, status: number, message?: RegExp) => fails(h.adminId, routeId, raw, status, message),
    call: (routeId: RouteId, raw: RawInput = {}) => call(h.adminId, routeId, raw),
  };

  const space = (id: string) => getSpace(h.store.read(), id) as SpaceRecord;
  const cr = (spaceId: string, crId: string) => getChangeRequest(h.store.read(), spaceId, crId) as ChangeRequestRecord;

  /** Makes `tree` the primary content of a space (a new `edits` revision). */
  async function seedSpace(spaceId: string, tree: ContentTree): Promise<string> {
    return h.store.transact((tx) => {
      const current = getSpace(tx, spaceId) as SpaceRecord;
      const content = saveTree(tx, tree);
      const id = h.ids();
      newRevisionRecord(tx, { id, space: spaceId, type: 'edits', parents: [current.revision], createdAt: h.clock().toISOString(), content });
      putSpace(tx, { ...current, revision: id });
      return id;
    });
  }

  /** Edits a change request's content in place (a new `edits` revision), like the editor would. */
  async function editChangeRequest(spaceId: string, crId: string, edit: (tree: ContentTree) => void, tx?: StoreWriter): Promise<string> {
    const run = (t: StoreWriter) => {
      const record = getChangeRequest(t, spaceId, crId) as ChangeRequestRecord;
      const revision = getRevision(t, spaceId, record.revision);
      if (!revision) throw new Error('no revision');
      const tree = loadTree(t, revision);
      edit(tree);
      const content = saveTree(t, tree, [tree]);
      const id = h.ids();
      newRevisionRecord(t, { id, space: spaceId, type: 'edits', parents: [record.revision], createdAt: h.clock().toISOString(), content });
      putChangeRequest(t, { ...record, revision: id });
      return id;
    };
    return tx ? run(tx) : h.store.transact(run);
  }

  async function createSpace(title = 'Docs'): Promise<Obj & { revision: string }> {
    return admin.ok('createSpace', { params: { organizationId: h.orgId }, body: { title } }, 201) as Promise<Obj & { revision: string }>;
  }

  async function createCR(spaceId: string, subject = 'Change', userId = h.adminId): Promise<Obj & { number: number; revision: string }> {
    return ok(userId, 'createChangeRequest', { params: { spaceId }, body: { subject } }, 201) as Promise<Obj & { number: number; revision: string }>;
  }

  return { ...h, call, ok, fails, admin, artifacts, space, cr, seedSpace, editChangeRequest, createSpace, createCR };
}

export type ContentHarness = Awaited<ReturnType<typeof contentSetup>>;

// ─── Trees ─────────────────────────────────────────────────────────────────

export function doc(id: string, title: string, markdown: string, pages: ContentPage[] = [], extra: Partial<ContentPage> = {}): ContentPage {
  return { id, type: 'document', title, slug: title.toLowerCase().replace(/[^a-z0-9]+/g, '-'), markdown, pages, ...extra };
}

/** A page anywhere in a tree, by id. */
export function findPage(tree: ContentTree, id: string): ContentPage {
  const visit = (pages: ContentPage[]): ContentPage | undefined => {
    for (const page of pages) {
      if (page.id === id) return page;
      const found = visit(page.pages);
      if (found) return found;
    }
    return undefined;
  };
  const found = visit(tree.pages);
  if (!found) throw new Error(`no page ${id}`);
  return found;
}

/** Writes `files` (path → text or bytes) under a new temp directory and returns it. */
export function writeFixture(files: Record<string, string | Uint8Array>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'docsctl-content-'));
  for (const [rel, data] of Object.entries(files)) {
    const file = path.join(dir, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, data);
  }
  return dir;
}
