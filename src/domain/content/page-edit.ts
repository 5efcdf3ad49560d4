/**
 * `updateChangeRequestContent` (the newest real API's page editing, gaps.md §2.2):
 * a batch of changes applied to a change request, in one new revision. docsctl applies
 *
 * - `update_page` with page metadata — `title`, `linkTitle` (the page link title Git
 *   Sync writes as `[Title](page.md "Short")`), `description`, `hidden`, `noIndex`,
 *   `noRobotsIndex` — a new body, `document: {markdown}` (its front matter, when
 *   it has one, sets the page's description, icon, flags and layout, as the real API
 *   reads it), and a move: `into` (a page id, or null for the root) and `at` (the
 *   position among the new siblings; absent: the end, or unchanged when the parent is);
 * - `insert_page`: a new document page from `document: {markdown}`, titled by its front
 *   matter's or leading heading's text (as Git Sync does), else `title`, else "Untitled",
 *   with a slug unique among its siblings, under `into` at `at`; `ref` names it for the
 *   answer (`compat=false`);
 * - `delete_page`: the page and its subpages;
 * - `revert_page`: the page as it is in `revision` (default: the change request's
 *   base), whole: its content, its place (parent and position among its siblings), or
 *   its absence (a page the revision does not have is removed with its subpages; one
 *   the change request does not have is restored, without subpages, under its parent).
 *   `cr resolve` resolves conflicts with these two.
 *
 * - `insert_files`: files added to the change request's content (as Git Sync imports a
 *   `.gitbook/assets` file: a file of the tree with a new id), each from `base64` (at most
 *   1 MiB, with its `contentType`) or a `url` fetched before the transaction under the
 *   request's input policy (`fetch-url.ts`: no private network or plain http under `serve`,
 *   at most 20 MiB); its `contentType` is the one given, else its name's. A file's `ref` is
 *   replaced, in the Markdown documents of the same batch (whatever their order), by the
 *   file's path `/files/<id>` where a link or image points at `./<ref>`. The answer (`compat=false`)
 *   lists them in `insertedFiles`.
 *
 * A JSON `document`, `revert_page`'s `block` and links to a page `ref` inside a document
 * answer 501 by name, never a fake success. With `compat=false` the answer is
 * the real API's `ChangeRequestContentUpdate` (the change request and one outcome per page
 * touched, in the order first touched); by default, the change request.
 *
 * An edit writes the edited page objects and the trie path above them (`applyPatch`):
 * editing one page of a 5,000-page space reads and writes a few objects, not the tree.
 * The batch is atomic: any invalid change rejects it all.
 *
 * Page metadata edits
 *
 * `updateChangeRequestContent` (the newest real API's page editing; not in the 0.143.2 spec, so it
 * is listed as a newer-API operation in the route and contract tests) applies `update_page` changes
 * of page metadata (`title`, `linkTitle`, `description`, `hidden`, `noIndex`, `noRobotsIndex`) to a
 * change request in one new revision: `src/domain/content/page-edit.ts` writes the edited page
 * objects and the trie path above them (`applyPatch`), never the tree. Other operations and
 * `update_page`'s `document`/`into`/`at` answer 501 by name. `linkTitle` lives in the page's
 * `extra.linkTitle`, where the Git Sync converter reads and writes the SUMMARY.md link title.
 */
import { ApiError, badRequest, conflict, notFound } from '../../api/errors.js';
import type { RouteInput } from '../../api/route.js';
import type * as routes from '../../api/routes/content.js';
import { DELETE, makeChange } from '../../store/hamt.js';
import { slotOf } from './page-slot.js';
import type { StoreWriter } from '../../store/types.js';
import { type Handler, type HandlerContext, type PrepareContext, type TwoPhaseHandler } from '../handler.js';
import { commitToChangeRequest } from './change-requests.js';
import { changeRequestFor } from './common.js';
import { applyPatch } from './fast-merge.js';
import { type ChangeRequestRecord, requireChangeRequest, requireRevisionRecord } from './change-request-records.js';
import { crView } from './revisions.js';
import { getRevision } from '../core-records.js';
import { type RevisionContent, type StoredFile, type StoredPage, openContent } from './storage.js';
import { fileView } from './views.js';
import { splitLeadingHeading } from '../../content-model/markdown.js';
import { slugify, uniqueName } from '../../gitsync/slug.js';
import { apiUrl } from '../urls.js';


/** Fields of `update_page` that docsctl applies. */
const METADATA = ['title', 'slug', 'emoji', 'icon', 'linkTitle', 'description', 'hidden', 'noIndex', 'noRobotsIndex'] as const;
const KNOWN: Record<string, Set<string>> = {
  update_page: new Set<string>(['operation', 'page', 'document', 'into', 'at', ...METADATA]),
  insert_page: new Set<string>(['operation', 'document', 'into', 'at', 'ref', ...METADATA]),
  delete_page: new Set<string>(['operation', 'page']),
  revert_page: new Set<string>(['operation', 'page', 'revision']),
  insert_files: new Set<string>(['operation', 'files']),
};

/** `insert_files` limits: the spec's 1 MB for inline bytes, and what a fetched file may weigh. */
const MAX_INLINE_FILE_BYTES = 1024 * 1024;
const MAX_FETCHED_FILE_BYTES = 20 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 60_000;

type FileSpec = { ref?: string | undefined; name: string; contentType?: string | undefined; url?: string | undefined; base64?: string | undefined };
/** The bytes of `insert_files` URLs, fetched before the transaction, by `<change index>/<file index>`. */
type Fetched = Map<string, Uint8Array>;

/** What the batch did to one page (`ChangeRequestContentUpdateChange`), in the order pages were first touched. */
type Outcome = { kind: 'created_page'; ref?: string } | { kind: 'updated_page' } | { kind: 'deleted_page' };

type Change = RouteInput<typeof routes.updateChangeRequestContent>['body']['changes'][number];

/**
 * The change request's pages as the batch changes them: the pages it rewrote (null:
 * removed) over the content it started from, and the root order.
 */
class Draft {
  readonly changed = new Map<string, StoredPage | null>();
  readonly files = new Map<string, StoredFile>();
  rootPages: string[];

  constructor(readonly content: RevisionContent) {
    this.rootPages = [...content.root.rootPages];
  }

  page(id: string): StoredPage | undefined {
    return this.changed.has(id) ? (this.changed.get(id) ?? undefined) : this.content.page(id);
  }

  set(page: StoredPage): void {
    this.changed.set(page.id, page);
  }

  childrenOf(parent: string | undefined): string[] {
    return parent === undefined ? this.rootPages : (this.page(parent)?.children ?? []);
  }

  setChildren(parent: string | undefined, ids: string[]): void {
    if (parent === undefined) this.rootPages = ids;
    else this.set({ ...(this.page(parent) as StoredPage), children: ids });
  }

  /** Removes a page and its subpages from the tree; the ids removed, the page first. */
  remove(id: string): string[] {
    const page = this.page(id);
    if (!page) return [];
    this.setChildren(page.parent, this.childrenOf(page.parent).filter((child) => child !== id));
    const removed: string[] = [];
    const stack = [id];
    while (stack.length > 0) {
      const current = stack.pop() as string;
      for (const child of this.page(current)?.children ?? []) stack.push(child);
      this.changed.set(current, null);
      removed.push(current);
    }
    return removed;
  }

  /** Whether `id` is `ancestor` or below it. */
  within(id: string | undefined, ancestor: string): boolean {
    const seen = new Set<string>();
    for (let at = id; at !== undefined && !seen.has(at); at = this.page(at)?.parent) {
      if (at === ancestor) return true;
      seen.add(at);
    }
    return false;
  }

  /** Puts `id` among the children of `parent`: after `after` when it is one of them, else at `index` (at most the end). */
  place(id: string, parent: string | undefined, after: string | null, index: number): void {
    const siblings = this.childrenOf(parent).filter((child) => child !== id);
    const anchor = after === null ? -1 : siblings.indexOf(after);
    const at = after === null ? 0 : anchor >= 0 ? anchor + 1 : Math.min(index, siblings.length);
    siblings.splice(at, 0, id);
    this.setChildren(parent, siblings);
  }

  write(tx: StoreWriter): string | undefined {
    return applyPatch(tx, {
      ours: this.content.root,
      oursHash: this.content.hash,
      pages: [...this.changed].map(([id, page]) => makeChange(id, page === null ? DELETE : slotOf(tx.putObject(page), page))),
      files: [...this.files].map(([id, file]) => makeChange(id, tx.putObject(file))),
      rootPages: this.rootPages,
    });
  }
}

/** The page after one `update_page` change's metadata (a new object; `null` removes a field). */
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
  for (const key of ['emoji', 'icon'] as const) {
    const value = change[key];
    if (value === undefined) continue;
    // The spec's "set to an empty string to remove it".
    if (value === '') delete next[key];
    else next[key] = value;
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

/**
 * A page with the `slug` a change names (RevisionPageSlug): a slug as GitBook writes them (what
 * slugify keeps as it is), unique among the page's siblings: a collision is refused, as the
 * spec says, not renamed.
 */
function withSlug(draft: Draft, page: StoredPage, slug: string, where: string): StoredPage {
  if (page.type === 'link') throw badRequest(`${where}.slug: a link page has no slug (it has no path)`);
  if (slug === '' || slugify(slug) !== slug) {
    throw badRequest(`${where}.slug: "${slug}" is not a slug; give lower-case words joined by "-"${slugify(slug) ? ` (e.g. "${slugify(slug)}")` : ''}`);
  }
  const clash = draft.childrenOf(page.parent).find((id) => id !== page.id && draft.page(id)?.slug === slug);
  if (clash !== undefined) throw conflict(`${where}.slug: "${slug}" is already the slug of page ${clash}, a sibling: slugs are unique among siblings`);
  return { ...page, slug };
}

/** `update_page`'s `document: {markdown}`: the new body, and the metadata its front matter sets. */
async function withDocument(tx: StoreWriter, page: StoredPage, document: unknown, where: string): Promise<StoredPage> {
  const markdown = (document as { markdown?: unknown } | null)?.markdown;
  if (typeof document !== 'object' || document === null || Array.isArray(document)) throw badRequest(`${where}.document: expected {"markdown": "…"}`);
  if (typeof markdown !== 'string' || Object.keys(document).length !== 1) {
    throw new ApiError(501, `${where}.document: only {"markdown": "…"} is implemented yet (not a JSON document)`);
  }
  if (page.type !== 'document') throw badRequest(`${where}.document: a ${page.type === 'group' ? 'page group' : 'link page'} has no document`);
  const [{ MAX_PAGE_BYTES }, { splitFrontMatter, parseFrontMatter, fieldsFromFrontMatter, PAGE_FIELD_KEYS }] = await Promise.all([
    import('../../gitsync/limits.js'),
    import('../../gitsync/frontmatter.js'),
  ]);
  if (Buffer.byteLength(markdown) > MAX_PAGE_BYTES) {
    throw new ApiError(413, `${where}.document: more than the ${MAX_PAGE_BYTES / 1024 / 1024} MiB of Markdown a page may hold`);
  }
  const split = splitFrontMatter(markdown);
  // Git Sync's rule: a leading `# Heading` is the page's title, kept raw in extra.heading so export writes
  // it back as it was. Left in the body, export would write the title's heading and then this one.
  const heading = splitLeadingHeading(split.body);
  const titled = heading !== null && heading.text.trim() !== '';
  const next: StoredPage = { ...page, body: tx.putObject({ markdown: titled ? heading.rest : split.body }) };
  if (titled) next.title = heading.text.trim().slice(0, 200);
  if (split.frontMatter) {
    const parsed = parseFrontMatter(split.frontMatter.yaml);
    if (parsed.error !== undefined) throw badRequest(`${where}.document: front matter: ${parsed.error}`);
    // Covers name files of the repository they came from: not read here.
    const fields = fieldsFromFrontMatter(parsed.data, () => undefined);
    for (const key of PAGE_FIELD_KEYS) {
      if (key === 'cover') continue;
      if (fields[key] === undefined) delete next[key];
      else (next as unknown as Record<string, unknown>)[key] = fields[key];
    }
    next.extra = { ...(next.extra ?? {}), frontMatter: split.frontMatter.raw };
  }
  if (titled) next.extra = { ...(next.extra ?? {}), heading: heading.raw };
  return next;
}

/** `revert_page`: the page as `source` has it (see the file comment). */
function reverted(draft: Draft, source: RevisionContent, id: string, where: string, cr: ChangeRequestRecord): void {
  const target = source.page(id);
  const current = draft.page(id);
  if (!target && !current) throw notFound(`${where}: page ${id} is neither in change request #${cr.number} nor in the revision`);
  if (!target) {
    draft.remove(id);
    return;
  }
  const parent = target.parent !== undefined && draft.page(target.parent) ? target.parent : current ? current.parent : undefined;
  if (target.parent !== undefined && parent !== target.parent && !current) {
    throw conflict(`${where}: page ${id} cannot be restored: its parent ${target.parent} is not in change request #${cr.number}`);
  }
  if (current && parent !== undefined && draft.within(parent, id)) {
    throw conflict(`${where}: page ${id} cannot go back under ${parent}, which is now inside it`);
  }
  const { children: _children, parent: _parent, ...rest } = target;
  const next: StoredPage = { ...rest, ...(parent !== undefined ? { parent } : {}), children: current?.children ?? [] };
  if (current && current.parent !== parent) draft.setChildren(current.parent, draft.childrenOf(current.parent).filter((child) => child !== id));
  draft.set(next);
  // Its place among the revision's siblings (after the same previous sibling), unless its parent there is gone.
  if (parent !== target.parent) return;
  const siblings = source.children(target.parent === undefined ? undefined : source.page(target.parent)).map((page) => page.id);
  const index = siblings.indexOf(id);
  draft.place(id, parent, index > 0 ? (siblings[index - 1] as string) : null, Math.max(index, 0));
}

type Input = RouteInput<typeof routes.updateChangeRequestContent>;

/** The files a batch inserts from URLs, fetched under the request's input policy before the transaction. */
async function fetchFiles(ctx: PrepareContext, { body }: Input): Promise<Fetched> {
  const fetched: Fetched = new Map();
  for (const [index, change] of body.changes.entries()) {
    if (change.operation !== 'insert_files') continue;
    for (const [at, file] of ((change.files ?? []) as FileSpec[]).entries()) {
      if (file.url === undefined) continue;
      if (file.base64 !== undefined) throw badRequest(`changes[${index}].files[${at}]: set exactly one of url and base64`);
      const where = `changes[${index}].files[${at}].url`;
      if (!/^https?:\/\//i.test(file.url) || !URL.canParse(file.url)) throw badRequest(`${where}: give an http(s) URL`);
      const [{ fetchToFile }, { readFile }] = await Promise.all([import('../fetch-url.js'), import('node:fs/promises')]);
      const download = await fetchToFile(ctx.policy, new URL(file.url), { maxBytes: MAX_FETCHED_FILE_BYTES, timeoutMs: FETCH_TIMEOUT_MS });
      try {
        fetched.set(`${index}/${at}`, new Uint8Array(await readFile(download.file)));
      } finally {
        await download.dispose();
      }
    }
  }
  return fetched;
}

/** One file of `insert_files`, as stored (its bytes written as an object). */
async function insertedFile(ctx: HandlerContext, spec: FileSpec, fetched: Uint8Array | undefined, where: string): Promise<StoredFile> {
  if ((spec.url === undefined) === (spec.base64 === undefined)) throw badRequest(`${where}: set exactly one of url and base64`);
  let bytes: Uint8Array;
  if (spec.base64 !== undefined) {
    if (spec.contentType === undefined) throw badRequest(`${where}.contentType: required with base64`);
    if (!/^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(spec.base64)) throw badRequest(`${where}.base64: not base64`);
    bytes = Buffer.from(spec.base64, 'base64');
    if (bytes.byteLength > MAX_INLINE_FILE_BYTES) throw new ApiError(413, `${where}.base64: ${bytes.byteLength} bytes, over the 1 MiB inline bytes may hold (give a url)`);
  } else {
    bytes = fetched as Uint8Array;
  }
  const name = spec.name.trim();
  if (name === '' || /[/\\\u0000-\u001f\u007f]/.test(name)) throw badRequest(`${where}.name: a file name without "/", "\\" or control characters`);
  const { contentTypeOf } = await import('../../gitsync/media.js');
  return {
    id: ctx.ids(),
    name,
    contentType: spec.contentType ?? contentTypeOf(name),
    size: bytes.byteLength,
    data: ctx.tx.putObject({ base64: Buffer.from(bytes).toString('base64') }),
  };
}

/** A document's Markdown with each `](./<ref>)` of a file ref pointing at the file (`/files/<id>`). */
function withFileRefs(document: unknown, fileRefs: Map<string, string>): unknown {
  const markdown = (document as { markdown?: unknown } | undefined)?.markdown;
  if (fileRefs.size === 0 || typeof markdown !== 'string') return document;
  let text = markdown;
  for (const [ref, id] of fileRefs) text = text.split(`](./${ref})`).join(`](/files/${id})`);
  return { ...(document as object), markdown: text };
}

/** The batch's `insert_files` changes, added to the draft: the files, and their ids by ref. */
async function insertFiles(ctx: HandlerContext, changes: readonly Change[], draft: Draft, fetched: Fetched) {
  const fileRefs = new Map<string, string>();
  const insertedFiles: StoredFile[] = [];
  for (const [index, change] of changes.entries()) {
    if (change.operation !== 'insert_files') continue;
    const unsupported = Object.keys(change).filter((key) => !KNOWN.insert_files?.has(key));
    if (unsupported.length > 0) throw new ApiError(501, `changes[${index}]: ${unsupported.join(', ')} of insert_files ${unsupported.length > 1 ? 'are' : 'is'} not implemented yet`);
    const files = (change.files ?? []) as FileSpec[];
    if (files.length === 0) throw badRequest(`changes[${index}].files: required (1 to 20 files)`);
    for (const [at, spec] of files.entries()) {
      const file = await insertedFile(ctx, spec, fetched.get(`${index}/${at}`), `changes[${index}].files[${at}]`);
      if (spec.ref !== undefined) {
        if (fileRefs.has(spec.ref)) throw badRequest(`changes[${index}].files[${at}].ref: "${spec.ref}" is already the ref of another file of this batch`);
        fileRefs.set(spec.ref, file.id);
      }
      draft.files.set(file.id, file);
      insertedFiles.push(file);
    }
  }
  return { fileRefs, insertedFiles };
}

const updateChangeRequestContent: TwoPhaseHandler<typeof routes.updateChangeRequestContent, Fetched> = {
  prepare: fetchFiles,
  async run(ctx, { params, query, body }, fetched) {
    const { space, cr } = changeRequestFor(ctx.tx, ctx, params.spaceId, params.changeRequestId);
    if (cr.status === 'merged' || cr.status === 'archived') {
      throw conflict(`Change request #${cr.number} is ${cr.status}: its content cannot change`);
    }
    const content = openContent(ctx.tx, requireRevisionRecord(ctx.tx, space.id, cr.revision));
    const draft = new Draft(content);
    const outcomes = new Map<string, Outcome>();
    const touch = (id: string, outcome: Outcome) => {
      const before = outcomes.get(id);
      // A page created then edited stays created; created then deleted, or deleted, is deleted.
      if (before?.kind === 'created_page' && outcome.kind === 'updated_page') return;
      outcomes.set(id, outcome);
    };
    const refs = new Set<string>();
    // Files first (a document of the batch may point at one by its ref, whatever the order).
    const { fileRefs, insertedFiles } = await insertFiles(ctx, body.changes, draft, fetched);
    for (const [index, change] of body.changes.entries()) {
      const where = `changes[${index}]`;
      if (change.operation === 'insert_files') continue;
      const known = KNOWN[change.operation];
      if (!known) throw new ApiError(501, `${where}: operation ${change.operation} is not implemented yet (docsctl applies update_page, insert_page, delete_page, revert_page and insert_files)`);
      const unsupported = Object.keys(change).filter((key) => !known.has(key));
      if (unsupported.length > 0) {
        throw new ApiError(501, `${where}: ${unsupported.join(', ')} of ${change.operation} ${unsupported.length > 1 ? 'are' : 'is'} not implemented yet`);
      }
      if (change.operation === 'insert_page') {
        if (change.ref !== undefined) {
          if (refs.has(change.ref)) throw badRequest(`${where}.ref: "${change.ref}" is already the ref of another page of this batch`);
          refs.add(change.ref);
        }
        const page = await inserted(ctx.tx, draft, { ...change, document: withFileRefs(change.document, fileRefs) }, where, ctx.ids());
        touch(page.id, { kind: 'created_page', ...(change.ref !== undefined ? { ref: change.ref } : {}) });
        continue;
      }
      if (!change.page) throw badRequest(`${where}.page: required (the id of the page to ${change.operation.replace('_page', '')})`);
      if (change.operation === 'delete_page') {
        const page = draft.page(change.page);
        if (!page) throw notFound(`${where}: page ${change.page} not found in change request #${cr.number}`);
        for (const id of draft.remove(change.page)) touch(id, { kind: 'deleted_page' });
        continue;
      }
      if (change.operation === 'revert_page') {
        const revisionId = typeof change.revision === 'string' ? change.revision : (cr.revisionMergedAncestor ?? cr.revisionInitial);
        const revision = getRevision(ctx.tx, space.id, revisionId);
        if (!revision) throw notFound(`${where}.revision: no revision ${revisionId} in space ${space.id}`);
        reverted(draft, openContent(ctx.tx, revision), change.page, where, cr);
        touch(change.page, draft.page(change.page) ? { kind: 'updated_page' } : { kind: 'deleted_page' });
        continue;
      }
      const page = draft.page(change.page);
      if (!page) throw notFound(`${where}: page ${change.page} not found in change request #${cr.number}`);
      let next = edited(page, change, where);
      if (change.document !== undefined) next = await withDocument(ctx.tx, next, withFileRefs(change.document, fileRefs), where);
      draft.set(next);
      if (change.into !== undefined || change.at !== undefined) moved(draft, next.id, change.into, change.at, where);
      // Checked where the page ends up: among its new siblings after a move.
      if (change.slug !== undefined) draft.set(withSlug(draft, draft.page(next.id) as StoredPage, change.slug, where));
      touch(next.id, { kind: 'updated_page' });
    }
    if (refs.size > 0) refuseLinksToRefs(body.changes, refs);
    const hash = draft.write(ctx.tx);
    if (hash !== content.hash) commitToChangeRequest(ctx, ctx.tx, cr, hash);
    const view = crView(ctx.tx, ctx, space, requireChangeRequest(ctx.tx, space.id, cr.id));
    if (query.compat !== false) return view;
    const location = (id: string) => apiUrl(ctx.origin, `spaces/${seg(space.id)}/change-requests/${seg(cr.id)}/content/page/${seg(id)}`);
    const changes = [...outcomes].map(([id, outcome]) => {
      if (outcome.kind === 'deleted_page') return { object: 'deleted_page' as const, page: id };
      const ref = { object: 'page' as const, id, urls: { location: location(id) } };
      return outcome.kind === 'created_page'
        ? { object: 'created_page' as const, ...(outcome.ref !== undefined ? { ref: outcome.ref } : {}), page: ref }
        : { object: 'updated_page' as const, page: ref };
    });
    return { changeRequest: view, changes, ...(insertedFiles.length > 0 ? { insertedFiles: insertedFiles.map((file) => fileView(ctx.origin, file, false)) } : {}) };
  },
};

export const pageEditHandlers: Record<string, Handler> = { updateChangeRequestContent };

const seg = encodeURIComponent;

/** `insert_page`: a new document page from its Markdown, placed under `into` at `at`. */
async function inserted(tx: StoreWriter, draft: Draft, change: Change, where: string, id: string): Promise<StoredPage> {
  if (change.document === undefined) throw badRequest(`${where}.document: required (the new page's {"markdown": "…"})`);
  const parent = change.into ?? undefined;
  if (parent !== undefined) {
    const into = draft.page(parent);
    if (!into) throw notFound(`${where}.into: page ${parent} not found in the change request`);
    if (into.type === 'link') throw badRequest(`${where}.into: page ${parent} is a link: it cannot hold pages`);
  }
  let page: StoredPage = { id, type: 'document', title: change.title ?? 'Untitled', children: [], ...(parent !== undefined ? { parent } : {}) };
  page = edited(page, { ...change, title: undefined }, where);
  page = await withDocument(tx, page, change.document, where);
  if (change.slug !== undefined) page = withSlug(draft, page, change.slug, where);
  else {
    const taken = new Set(draft.childrenOf(parent).map((sibling) => draft.page(sibling)?.slug));
    page.slug = uniqueName(slugify(page.title) || 'untitled', (candidate) => taken.has(candidate));
  }
  draft.set(page);
  const siblings = draft.childrenOf(parent);
  const at = change.at ?? siblings.length;
  draft.place(id, parent, at === 0 ? null : (siblings[Math.min(at, siblings.length) - 1] as string), at);
  return page;
}

/** `update_page`'s `into`/`at`: the page under `into` (null: the root; absent: where it is) at `at` (absent: the end, or unchanged). */
function moved(draft: Draft, id: string, into: string | null | undefined, at: number | undefined, where: string): void {
  const page = draft.page(id) as StoredPage;
  const parent = into === undefined ? page.parent : (into ?? undefined);
  if (parent !== undefined) {
    const target = draft.page(parent);
    if (!target) throw notFound(`${where}.into: page ${parent} not found in the change request`);
    if (target.type === 'link') throw badRequest(`${where}.into: page ${parent} is a link: it cannot hold pages`);
    if (draft.within(parent, id)) throw badRequest(`${where}.into: page ${parent} is ${parent === id ? 'the page itself' : 'inside the page'}: a page cannot move under itself`);
  }
  if (parent === page.parent && at === undefined) return;
  const siblings = draft.childrenOf(parent).filter((child) => child !== id);
  const index = at === undefined ? siblings.length : Math.min(at, siblings.length);
  if (parent !== page.parent) {
    draft.setChildren(page.parent, draft.childrenOf(page.parent).filter((child) => child !== id));
    const { parent: _old, ...rest } = draft.page(id) as StoredPage;
    // Its slug stays unless a new sibling has it (two pages at one path): then the next free one.
    const taken = new Set(siblings.map((sibling) => draft.page(sibling)?.slug));
    const slug = rest.slug !== undefined && taken.has(rest.slug) ? uniqueName(rest.slug, (candidate) => taken.has(candidate)) : rest.slug;
    draft.set({ ...rest, ...(slug !== undefined ? { slug } : {}), ...(parent !== undefined ? { parent } : {}) });
  }
  draft.place(id, parent, index === 0 ? null : (siblings[index - 1] as string), index);
}

/** Links to a batch `ref` inside a document would need rewriting to the new page's id: refused by name rather than left dangling. */
function refuseLinksToRefs(changes: readonly Change[], refs: Set<string>): void {
  for (const [index, change] of changes.entries()) {
    const markdown = (change.document as { markdown?: unknown } | undefined)?.markdown;
    if (typeof markdown !== 'string') continue;
    for (const ref of refs) {
      if (markdown.includes(`${ref}.md)`) || markdown.includes(`${ref}.md#`)) {
        throw new ApiError(501, `changes[${index}].document: links to the batch ref "${ref}" are not implemented yet; link to the page by its path after this batch`);
      }
    }
  }
}
