/**
 * `updateChangeRequestContent` (the newest real API's page editing, gaps.md §2.2):
 * docsctl applies `update_page` changes of page metadata — `title`, `linkTitle`
 * (the page link title Git Sync writes as `[Title](page.md "Short")`),
 * `description`, `hidden`, `noIndex`, `noRobotsIndex` — to a change request, in
 * one new revision. The other operations (insert, delete, revert, files) and
 * `update_page`'s `document`/`into`/`at` answer 501 by name, never a fake success.
 *
 * A metadata edit writes the edited page objects and the trie path above them
 * (`applyPatch`): editing one page of a 5,000-page space reads and writes a few
 * objects, not the tree. The batch is atomic: any invalid change rejects it all.
 */
import { ApiError, badRequest, conflict, notFound } from '../../api/errors.js';
import type { RouteInput } from '../../api/route.js';
import type * as routes from '../../api/routes/content.js';
import { makeChange } from '../../store/hamt.js';
import { type Handler, implementer } from '../handler.js';
import { commitToChangeRequest } from './change-requests.js';
import { changeRequestFor } from './common.js';
import { applyPatch } from './fast-merge.js';
import { requireChangeRequest, requireRevisionRecord } from './change-request-records.js';
import { crView } from './revisions.js';
import { type StoredPage, openContent } from './storage.js';

const on = implementer<typeof routes>();

/** Fields of `update_page` that docsctl applies. */
const METADATA = ['title', 'linkTitle', 'description', 'hidden', 'noIndex', 'noRobotsIndex'] as const;
const KNOWN = new Set<string>(['operation', 'page', ...METADATA]);

type Change = RouteInput<typeof routes.updateChangeRequestContent>['body']['changes'][number];

/** The page after one `update_page` change (a new object; `null` removes a field). */
function edited(page: StoredPage, change: Change, where: string): StoredPage {
  const next: StoredPage = { ...page, ...(page.extra ? { extra: { ...page.extra } } : {}) };
  if (change.title !== undefined) next.title = change.title;
  if (change.description === null) delete next.description;
  else if (change.description !== undefined) next.description = change.description;
  for (const flag of ['hidden', 'noIndex', 'noRobotsIndex'] as const) {
    if (change[flag] === undefined) continue;
    if (page.type === 'link' && flag !== 'hidden') throw badRequest(`${where}.${flag}: a link page has no ${flag}`);
    if (change[flag]) next[flag] = true;
    else delete next[flag];
  }
  if (change.linkTitle !== undefined) {
    if (page.type === 'group') throw badRequest(`${where}.linkTitle: a page group has no link title (only document and link pages do)`);
    const extra = { ...(next.extra ?? {}) };
    if (change.linkTitle === null) delete extra.linkTitle;
    else extra.linkTitle = change.linkTitle;
    if (Object.keys(extra).length > 0) next.extra = extra;
    else delete next.extra;
  }
  return next;
}

export const pageEditHandlers: Record<string, Handler> = {
  ...on('updateChangeRequestContent', (ctx, { params, query, body }) => {
    const { space, cr } = changeRequestFor(ctx.tx, ctx, params.spaceId, params.changeRequestId, 'edit', 'edit content');
    if (cr.status === 'merged' || cr.status === 'archived') {
      throw conflict(`Change request #${cr.number} is ${cr.status}: its content cannot change`);
    }
    if (query.compat === false) throw new ApiError(501, 'compat=false is not implemented yet: the answer is the change request (compat=true)');
    const content = openContent(ctx.tx, requireRevisionRecord(ctx.tx, space.id, cr.revision));
    const pages = new Map<string, StoredPage>();
    body.changes.forEach((change, index) => {
      const where = `changes[${index}]`;
      if (change.operation !== 'update_page') {
        throw new ApiError(501, `${where}: operation ${change.operation} is not implemented yet (docsctl applies update_page with page metadata)`);
      }
      const unsupported = Object.keys(change).filter((key) => !KNOWN.has(key));
      if (unsupported.length > 0) {
        throw new ApiError(501, `${where}: ${unsupported.join(', ')} of update_page ${unsupported.length > 1 ? 'are' : 'is'} not implemented yet (docsctl edits ${METADATA.join(', ')})`);
      }
      if (!change.page) throw badRequest(`${where}.page: required (the id of the page to update)`);
      const page = pages.get(change.page) ?? content.page(change.page);
      if (!page) throw notFound(`${where}: page ${change.page} not found in change request #${cr.number}`);
      pages.set(change.page, edited(page, change, where));
    });
    const patch = {
      ours: content.root,
      oursHash: content.hash,
      pages: [...pages].map(([id, page]) => makeChange(id, ctx.tx.putObject(page))),
      files: [],
      rootPages: content.root.rootPages,
    };
    const hash = applyPatch(ctx.tx, patch);
    if (hash !== content.hash) commitToChangeRequest(ctx, ctx.tx, cr, hash);
    return crView(ctx.tx, ctx, space, requireChangeRequest(ctx.tx, space.id, cr.id));
  }),
};
