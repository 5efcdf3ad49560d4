/**
 * Generates the comments and search benchmark store: one space of ~5,000 pages
 * (bench/content-tree.ts, with its search index built as a commit would build it)
 * and a change request with COMMENTS comments, a tenth of them on a page.
 * Usage (bundled by bench/run.mjs): node generate-comments.mjs DIR COMMENTS
 * Prints JSON: {spaceId, changeRequest, pages, comments, seconds}.
 */
import { commentHandlers } from '../src/domain/comments/handlers.js';
import { newRevisionRecord } from '../src/domain/content/change-request-records.js';
import { saveTree } from '../src/domain/content/storage.js';
import type { HandlerContext } from '../src/domain/handler.js';
import { LOCAL_POLICY } from '../src/domain/policy.js';
import { type SpaceRecord, getRevision, getSpace, putSpace } from '../src/domain/core-records.js';
import { indexCommit } from '../src/domain/search/index.js';
import { benchStore } from './bench-store.js';
import { benchContentTree } from './content-tree.js';

const [dir, commentsArg] = process.argv.slice(2);
if (!dir) throw new Error('usage: generate-comments DIR COMMENTS');
const comments = Number(commentsArg ?? 10_000);
const started = Date.now();
const { store, ids, clock, organization, env, run } = await benchStore(dir);

const { tree, leaves, pages } = benchContentTree();
const space = await run('createSpace', { params: { organizationId: organization.id }, body: { title: 'Big space' } });
const spaceId = space.id as string;
await store.transact((tx) => {
  const current = getSpace(tx, spaceId) as SpaceRecord;
  const id = ids();
  newRevisionRecord(tx, { id, space: spaceId, type: 'edits', parents: [current.revision], createdAt: clock().toISOString(), content: saveTree(tx, tree) });
  putSpace(tx, { ...current, revision: id });
  // As the merge that would have brought these pages: the search index follows the primary revision.
  indexCommit(tx, spaceId, getRevision(tx, spaceId, current.revision), getRevision(tx, spaceId, id) as NonNullable<ReturnType<typeof getRevision>>);
});
const cr = await run('createChangeRequest', { params: { spaceId }, body: { subject: 'Much discussed' } });

// Comments through the domain's own handler, 1,000 per commit (one commit each would take minutes).
const post = (commentHandlers as unknown as Record<string, (ctx: HandlerContext, input: object) => unknown>).postCommentInChangeRequest;
if (!post) throw new Error('no postCommentInChangeRequest handler');
for (let start = 0; start < comments; start += 1000) {
  await store.transact((tx) => {
    const access = { userId: env.actor.userId, organizationId: organization.id, role: 'admin' as const };
    const ctx: HandlerContext = { tx, ...env, access, artifacts: { save: () => Promise.reject(new Error('comments make no files')) }, policy: LOCAL_POLICY };
    for (let i = start; i < Math.min(comments, start + 1000); i++) {
      const onPage = i % 10 === 0 ? { page: (leaves[i % leaves.length] as { id: string }).id } : {};
      post(ctx, { params: { spaceId, changeRequestId: cr.id }, query: {}, body: { body: { markdown: `Comment ${i}: is this step still needed?` }, ...onPage } });
    }
  });
}
await store.close();
process.stdout.write(`${JSON.stringify({ spaceId, changeRequest: cr.number, pages, comments, seconds: (Date.now() - started) / 1000 })}\n`);
