/**
 * `serve` as a CI emulator: named snapshots of the whole store and a reset to the state
 * `serve --seed` started from, so a test suite isolates its cases (docsctl extensions under
 * `/v1/x-docsctl/emulator/`, answered by docsctl's local mode and `serve`; the commands are
 * `docsctl serve snapshot save|restore|list|delete` and `docsctl serve reset`, hand-written
 * in src/cli/commands/serve-snapshots.ts). The store is content-addressed: a snapshot is the
 * root hash of each table, so saving and restoring cost the same at 10 spaces and at 10,000.
 * They act on the whole store, so only the store's owner may call them (the token
 * `serve --print-env` prints as `token`).
 */
import * as z from 'zod';
import { defineRoute } from '../route.js';
import { listQuery, noQuery } from '../schemas/common.js';

/** A snapshot's name: what a test suite would type; `@`-names are docsctl's own (`@seed`). */
export const SnapshotName = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'use letters, digits, ".", "_" and "-" (starting with a letter or digit)')
  .describe('snapshot name (letters, digits, ".", "_", "-")');

const snapshotParams = z.object({ snapshotName: SnapshotName });

export const saveEmulatorSnapshot = defineRoute({
  id: 'saveEmulatorSnapshot',
  method: 'POST',
  path: '/v1/x-docsctl/emulator/snapshots',
  summary: "Save the store's whole state under a name (replacing a snapshot of that name); O(1) (docsctl extension)",
  source: 'docsctl',
  access: 'owner',
  params: z.object({}),
  query: noQuery(),
  body: z.object({ name: SnapshotName }),
  bodyRequired: true,
  success: 201,
});

export const listEmulatorSnapshots = defineRoute({
  id: 'listEmulatorSnapshots',
  method: 'GET',
  path: '/v1/x-docsctl/emulator/snapshots',
  summary: "List the store's named snapshots, by name (docsctl extension)",
  source: 'docsctl',
  access: 'owner',
  params: z.object({}),
  query: listQuery(),
  paginated: true,
});

export const restoreEmulatorSnapshot = defineRoute({
  id: 'restoreEmulatorSnapshot',
  method: 'POST',
  path: '/v1/x-docsctl/emulator/snapshots/{snapshotName}/restore',
  summary: 'Make the whole store what a snapshot saved (snapshots themselves are kept); O(1) (docsctl extension)',
  source: 'docsctl',
  access: 'owner',
  params: snapshotParams,
  query: noQuery(),
  success: 200,
});

export const deleteEmulatorSnapshot = defineRoute({
  id: 'deleteEmulatorSnapshot',
  method: 'DELETE',
  path: '/v1/x-docsctl/emulator/snapshots/{snapshotName}',
  summary: 'Delete a named snapshot (the state it kept goes with the next store gc) (docsctl extension)',
  source: 'docsctl',
  access: 'owner',
  params: snapshotParams,
  query: noQuery(),
  success: 'delete',
});

export const resetEmulator = defineRoute({
  id: 'resetEmulator',
  method: 'POST',
  path: '/v1/x-docsctl/emulator/reset',
  summary: 'Put the store back to the state serve --seed started from (docsctl extension)',
  source: 'docsctl',
  access: 'owner',
  params: z.object({}),
  query: noQuery(),
  success: 200,
});
