/**
 * Revisions' content as content-addressed objects, so that a new revision costs
 * O(changed pages) in the store, like a git commit.
 *
 * A revision record (`revisions` table) carries `content`: the hash of a root object
 *
 *   { rootPages: pageId[], pages: <HAMT root | null>, files: <HAMT root | null> }
 *
 * where `pages` is a hash trie (src/store/hamt.ts) pageId → hash of a page object
 * and `files` one fileId → hash of a file object:
 *
 *   page object  PageMeta fields + { parent?: pageId, children: pageId[], body?: hash of {markdown} }
 *   file object  { id, name, contentType, size, dimensions?, git?, data: hash of {base64} }
 *
 * No `content` = an empty revision (what spaces get when created). A page refers to
 * its children and parent by id, never by hash, so editing a page rewrites its own
 * object (and its body), plus the O(log n) trie nodes above its entry, and nothing
 * else: 10 edited pages of 5,000 cost ~10 page objects, ~10 bodies and a few dozen
 * trie nodes. Paths are not stored; they are computed from the slugs of the ancestors.
 *
 * Reads: `openContent(reader, revision)` gives a `RevisionContent` that answers
 * single pages, paths and files without loading the whole tree (`page`, `pathOf`,
 * `findByPath`, `fileIds`, `file`), and the whole tree when needed (`tree()`, for
 * merge, export, links). `saveTree(tx, tree, bases)` writes a tree back, reusing the
 * objects of `bases` (trees returned by `tree()`/`loadTree`, or saved earlier)
 * for every page and file equal to theirs, so unchanged pages are neither
 * re-serialised nor re-written.
 */
import { type ContentFile, type ContentPage, type ContentTree, type GitBlobRef, type PageMeta, REUSABLE_ID_PREFIX } from '../../content-model/model.js';
import { type Change as TrieChange, DELETE, type HamtNode, type LeafNode, type NodeSource, hamtApply, hamtEntries, hamtGet, checkHashedLeaf, isHashedLeaf, isLeaf, leafEach, leafHashAt, makeChange } from '../../store/hamt.js';
import type { Json, ObjectSink, ObjectStager, StagedObjects, StoreReader, StoreWriter } from '../../store/types.js';
import { HASH_RE } from '../../store/objects.js';
import type { RevisionRecord } from '../core-records.js';
import { sameBytes } from '../../util/bytes.js';
import { type PageOutline, outlineOf, rowOutline, slotHash, slotOf, slotOutline } from './page-slot.js';

// ─── Stored shapes ─────────────────────────────────────────────────────────

export interface ContentRoot {
  rootPages: string[];
  pages: string | null;
  files: string | null;
}

export interface StoredPage extends PageMeta {
  parent?: string;
  children: string[];
  /** Hash of `{markdown}`; absent when the page has no body (groups, links). */
  body?: string;
}

export interface FileMeta {
  id: string;
  name: string;
  contentType: string;
  size: number;
  dimensions?: { width: number; height: number };
  git?: GitBlobRef;
}

export interface StoredFile extends FileMeta {
  /** Hash of `{base64}`. */
  data: string;
}

interface BodyObject {
  markdown: string;
}
interface DataObject {
  base64: string;
}

const EMPTY_ROOT: ContentRoot = { rootPages: [], pages: null, files: null };

/** The content hash of a revision record, or undefined for an empty revision. */
export function contentOf(revision: Pick<RevisionRecord, 'content'>): string | undefined {
  return typeof revision.content === 'string' ? revision.content : undefined;
}

/** True when two revisions have the same content (both empty, or the same root object). */
export function sameContent(a: Pick<RevisionRecord, 'content'>, b: Pick<RevisionRecord, 'content'>): boolean {
  return contentOf(a) === contentOf(b);
}

// ─── Equality without serialising ─────────────────────────────────────────

/** Deep equality of JSON-like values; a key whose value is undefined counts as absent. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  let countA = 0;
  for (const key of Object.keys(ra)) {
    if (ra[key] === undefined) continue;
    countA += 1;
    if (!sameJson(ra[key], rb[key])) return false;
  }
  let countB = 0;
  for (const key of Object.keys(rb)) if (rb[key] !== undefined) countB += 1;
  return countA === countB;
}


/** A copy of `value` without its undefined members (what JSON would keep). */
function defined<T extends object>(value: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) if (item !== undefined) out[key] = item;
  return out as T;
}

// ─── Reading ───────────────────────────────────────────────────────────────

/** A page as stored, with its hash. */
export interface PageEntry {
  hash: string;
  page: StoredPage;
}

/** One revision's content, read on demand (objects are cached for the life of this value). */
export class RevisionContent implements NodeSource {
  readonly root: ContentRoot;
  private readonly nodes = new Map<string, HamtNode>();
  private readonly pageCache = new Map<string, PageEntry | null>();
  private readonly fileCache = new Map<string, { hash: string; file: StoredFile } | null>();
  private pageHashes: Map<string, string> | undefined;
  /** After a walk of the pages trie: its leaves, in walk order. */
  private pageLeaves: LeafNode[] | undefined;
  /** After a walk: page id → its slot without the hash, for pages in leaves that keep hashes apart (most). */
  private pageRows: Map<string, Json[]> | undefined;
  /** After a walk: page id → its slot, for pages in other leaves (written before hashes were kept apart). */
  private pageSlots: Map<string, Json> | undefined;
  private fileHashes: Map<string, string> | undefined;

  constructor(
    readonly reader: StoreReader,
    /** Hash of the root object; undefined = empty content. */
    readonly hash: string | undefined,
  ) {
    this.root = hash === undefined ? EMPTY_ROOT : reader.getObject<ContentRoot>(hash);
  }

  node(hash: string, walk = false): HamtNode {
    let node = this.nodes.get(hash);
    if (!node) {
      // Trie nodes are only read here and in hamt.ts, never changed: no copy.
      node = this.reader.sharedObject ? this.reader.sharedObject<HamtNode>(hash, walk) : this.reader.getObject<HamtNode>(hash);
      this.nodes.set(hash, node);
    }
    return node;
  }

  /**
   * One walk of the pages trie: each page id → its slot (`PageSlot`), without its hash
   * where the leaf keeps hashes apart (hamt.ts): a whole-space read takes outlines only,
   * and no hash string is cut from a leaf until one is asked for. The walk keeps the
   * values and the leaves' lists, not the nodes the store cached: a whole-site read
   * (40,000 pages) held every node it parsed until its space was done, and the collector
   * copied them from scavenge to scavenge.
   */
  private walkPages(): void {
    if (this.pageLeaves) return;
    const leaves: LeafNode[] = [];
    const rows = new Map<string, Json[]>();
    const slots = new Map<string, Json>();
    const root = this.root.pages ?? undefined;
    if (root !== undefined) {
      const visit = (hash: string): void => {
        const node = this.walker.node(hash);
        if (!isLeaf(node)) {
          for (const digit of Object.keys(node.n)) visit(node.n[digit] as string);
          return;
        }
        leaves.push(node);
        if (!isHashedLeaf(node)) {
          leafEach(node, (id, slot) => slots.set(id, slot));
          return;
        }
        checkHashedLeaf(node); // every hash there, every rest a list (hamt.ts writes them together)
        const list = node.a;
        for (let i = 0; i < list.length; i += 2) rows.set(list[i] as string, list[i + 1] as Json[]);
      };
      visit(root);
    }
    this.pageLeaves = leaves;
    this.pageRows = rows;
    this.pageSlots = slots;
  }

  /** A node read by a whole walk: not kept here (nor, in a one-shot process, in the store's cache). */
  private walked(hash: string): HamtNode {
    return this.reader.sharedObject ? this.reader.sharedObject<HamtNode>(hash, true) : this.reader.getObject<HamtNode>(hash);
  }

  /** This content's nodes as a whole walk reads them (not kept). */
  private readonly walker: NodeSource = { node: (hash) => this.nodes.get(hash) ?? this.walked(hash) };

  /** Every page id → page object hash (reads the whole pages trie once). */
  allPageHashes(): Map<string, string> {
    if (!this.pageHashes) {
      this.walkPages();
      const hashes = new Map<string, string>();
      for (const leaf of this.pageLeaves as LeafNode[]) {
        if (isHashedLeaf(leaf)) {
          for (let i = 0; i < leaf.a.length; i += 2) hashes.set(leaf.a[i] as string, leafHashAt(leaf, i));
        } else {
          leafEach(leaf, (id, slot) => {
            const hash = slotHash(slot);
            if (hash !== undefined) hashes.set(id, hash);
          });
        }
      }
      this.pageHashes = hashes;
    }
    return this.pageHashes;
  }

  /**
   * A page's outline (title, kind, slug, children) without reading its object when the
   * trie carries it (page-slot.ts); from the object for pages written before outlines.
   * A fresh value, its children shared with the trie node: never change them.
   */
  outline(id: string): PageOutline | undefined {
    if (!this.pageLeaves) this.walkPages();
    const row = (this.pageRows as Map<string, Json[]>).get(id);
    let kept: PageOutline | undefined;
    if (row !== undefined) {
      kept = rowOutline(row);
    } else {
      const slot = (this.pageSlots as Map<string, Json>).get(id);
      if (slot === undefined) return undefined;
      kept = slotOutline(slot);
    }
    if (kept) return kept;
    const page = this.page(id);
    return page ? outlineOf(page) : undefined;
  }

  /**
   * Fills `into` with a page's outline and returns true (false, `into` untouched, for no
   * such page): `outline` without a new object per page, for walks of every page (a
   * whole-site read of 40,000 pages made as many short-lived outlines for the collector).
   * `into.c` is shared with the trie node: never change it.
   */
  outlineInto(id: string, into: PageOutline): boolean {
    if (!this.pageLeaves) this.walkPages();
    const row = (this.pageRows as Map<string, Json[]>).get(id);
    if (row !== undefined && typeof row[0] === 'string') {
      into.t = row[0];
      const kind = row[1];
      into.k = kind === 'group' || kind === 'link' ? kind : undefined;
      const slug = row[2];
      into.s = typeof slug === 'string' ? slug : undefined;
      const children = row[3];
      into.c = Array.isArray(children) && children.length > 0 ? (children as string[]) : undefined;
      return true;
    }
    const outline = this.outline(id);
    if (!outline) return false;
    into.t = outline.t;
    into.k = outline.k;
    into.s = outline.s;
    into.c = outline.c;
    return true;
  }

  /** Every file id → file object hash. */
  allFileHashes(): Map<string, string> {
    if (!this.fileHashes) {
      this.fileHashes = new Map();
      for (const [id, hash] of hamtEntries(this.walker, this.root.files ?? undefined)) this.fileHashes.set(id, hash as string);
    }
    return this.fileHashes;
  }

  private pageHash(id: string): string | undefined {
    if (this.pageHashes) return this.pageHashes.get(id);
    if (this.pageRows && this.pageSlots) return this.pageRows.has(id) ? this.allPageHashes().get(id) : slotHash(this.pageSlots.get(id));
    return slotHash(hamtGet(this, this.root.pages ?? undefined, id));
  }

  /** A page object by id (without its body), or undefined. */
  entry(id: string): PageEntry | undefined {
    const cached = this.pageCache.get(id);
    if (cached !== undefined) return cached ?? undefined;
    const hash = this.pageHash(id);
    const entry = hash === undefined ? undefined : { hash, page: this.reader.getObject<StoredPage>(hash) };
    this.pageCache.set(id, entry ?? null);
    return entry;
  }

  page(id: string): StoredPage | undefined {
    return this.entry(id)?.page;
  }

  /** The Markdown body of a page (undefined when it has none). */
  markdown(page: StoredPage): string | undefined {
    return page.body === undefined ? undefined : this.reader.getObject<BodyObject>(page.body).markdown;
  }

  /** The page path (`guides/setup`): the slugs of its ancestors and its own, joined by `/`. */
  pathOf(id: string): string {
    const slugs: string[] = [];
    const seen = new Set<string>();
    let current = this.page(id);
    while (current && !seen.has(current.id)) {
      seen.add(current.id);
      if (current.slug) slugs.push(current.slug);
      current = current.parent === undefined ? undefined : this.page(current.parent);
    }
    return slugs.reverse().join('/');
  }

  /** Children (stored) of a page, or the root pages. */
  children(parent?: StoredPage): StoredPage[] {
    const ids = parent ? parent.children : this.root.rootPages;
    const out: StoredPage[] = [];
    for (const id of ids) {
      const page = this.page(id);
      if (page) out.push(page);
    }
    return out;
  }

  /**
   * The first page (depth first) whose path is `path` (leading/trailing slashes
   * ignored). Only the branches whose path is a prefix of `path` are read.
   */
  findByPath(path: string): { page: StoredPage; path: string } | undefined {
    const wanted = path.replace(/^\/+|\/+$/g, '');
    const visit = (pages: StoredPage[], prefix: string): { page: StoredPage; path: string } | undefined => {
      for (const page of pages) {
        const own = page.slug ? (prefix ? `${prefix}/${page.slug}` : page.slug) : prefix;
        if (page.slug && own === wanted) return { page, path: own };
        if (page.children.length > 0 && (own === '' || wanted.startsWith(`${own}/`) || (!page.slug && own === prefix))) {
          const found = visit(this.children(page), own);
          if (found) return found;
        }
      }
      return undefined;
    };
    return visit(this.children(), '');
  }

  /** File ids, sorted (reusable contents included: the tree's files). */
  fileIds(): string[] {
    return [...this.allFileHashes().keys()].sort();
  }

  /** Ids of the files the API lists as files, sorted: reusable contents left out. */
  assetIds(): string[] {
    return this.fileIds().filter((id) => !id.startsWith(REUSABLE_ID_PREFIX));
  }

  /** Ids of the reusable contents (Git Sync includes), sorted. */
  reusableIds(): string[] {
    return this.fileIds().filter((id) => id.startsWith(REUSABLE_ID_PREFIX));
  }

  fileEntry(id: string): { hash: string; file: StoredFile } | undefined {
    const cached = this.fileCache.get(id);
    if (cached !== undefined) return cached ?? undefined;
    const hash = this.fileHashes ? this.fileHashes.get(id) : hamtGet(this, this.root.files ?? undefined, id);
    const entry = typeof hash === 'string' ? { hash, file: this.reader.getObject<StoredFile>(hash) } : undefined;
    this.fileCache.set(id, entry ?? null);
    return entry;
  }

  file(id: string): StoredFile | undefined {
    return this.fileEntry(id)?.file;
  }

  fileData(file: StoredFile): Uint8Array {
    return new Uint8Array(Buffer.from(this.reader.getObject<DataObject>(file.data).base64, 'base64'));
  }

  /**
   * The whole tree. `bodies: false` leaves `markdown` out (page listings), `data:
   * false` gives files with empty data; a function reads the data of the files it
   * answers true for (a Git export reads only the files whose blob id it does not
   * know). A load with bodies and some data (the default: all) is registered as a
   * base for `saveTree`: a file left with empty data there matches a file of the
   * same id and empty data in the tree saved over it (its data object is kept).
   */
  tree(options: { bodies?: boolean; data?: boolean | ((file: StoredFile) => boolean) } = {}): ContentTree {
    const bodies = options.bodies ?? true;
    const withData = options.data ?? true;
    this.allPageHashes();
    const index: TreeIndex = { content: this.hash, root: this.root, pages: new Map(), files: new Map() };
    const build = (page: StoredPage, seen: Set<string>): ContentPage => {
      const { parent: _parent, children, body: _body, ...meta } = page;
      const markdown = bodies ? this.markdown(page) : undefined;
      const entry = this.entry(page.id) as PageEntry;
      index.pages.set(page.id, { hash: entry.hash, page, markdown });
      const pages: ContentPage[] = [];
      for (const id of children) {
        if (seen.has(id)) continue;
        const child = this.page(id);
        if (!child) continue;
        seen.add(id);
        pages.push(build(child, seen));
      }
      return { ...meta, ...(markdown !== undefined ? { markdown } : {}), pages };
    };
    const seen = new Set<string>();
    const pages: ContentPage[] = [];
    for (const root of this.children()) {
      if (seen.has(root.id)) continue;
      seen.add(root.id);
      pages.push(build(root, seen));
    }
    const files: ContentFile[] = [];
    for (const id of this.fileIds()) {
      const entry = this.fileEntry(id);
      if (!entry) continue;
      const { data: _data, ...meta } = entry.file;
      const read = typeof withData === 'function' ? withData(entry.file) : withData;
      const data = read ? this.fileData(entry.file) : new Uint8Array();
      files.push({ ...meta, data });
      index.files.set(id, { hash: entry.hash, file: entry.file, data });
    }
    const tree: ContentTree = { pages, files };
    if (bodies && withData !== false) indexes.set(tree, index);
    return tree;
  }
}

/** The content of a revision (empty when it has none). */
export function openContent(reader: StoreReader, revision: Pick<RevisionRecord, 'content'>): RevisionContent {
  return new RevisionContent(reader, contentOf(revision));
}

/** The whole tree of a revision (pages with bodies, files with data), usable as a base of `saveTree`. */
export function loadTree(reader: StoreReader, revision: Pick<RevisionRecord, 'content'>): ContentTree {
  return openContent(reader, revision).tree();
}

// ─── Writing ───────────────────────────────────────────────────────────────

interface TreeIndex {
  content: string | undefined;
  root: ContentRoot;
  pages: Map<string, SavedPage>;
  files: Map<string, { hash: string; file: StoredFile; data: Uint8Array }>;
}

/** Stored objects of trees loaded or saved here, by tree: the bases `saveTree` reuses. */
const indexes = new WeakMap<ContentTree, TreeIndex>();

export interface SaveStats {
  pagesWritten: number;
  filesWritten: number;
}

/**
 * Writes `tree` and returns the hash of its root object (undefined for an empty
 * tree: no pages, no files). Pages and files equal to those of a base (same id,
 * same metadata, parent, children and body) keep the base's object; the tries are
 * updated from the first base's, so only the changed entries' paths are written.
 * A tree equal to the first base returns the base's hash and writes nothing.
 */
export function saveTree(tx: StoreWriter, tree: ContentTree, bases: readonly ContentTree[] = [], stats?: SaveStats): string | undefined {
  const steps = saveTreeSteps(tx, tree, bases, stats);
  for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
}

/**
 * `saveTree` ahead of a transaction, outside the store's lock (Store.stage): the objects
 * go into `stager`'s pack, a page or file at a time with `pause` between them, so `serve`
 * keeps answering while thousands are serialized, hashed and written, and memory holds
 * a few MiB of them at a time. The transaction adopts the sealed pack and names the
 * returned root (see `StoreWriter.adopt`).
 */
export async function stageTree(
  stager: ObjectStager,
  tree: ContentTree,
  bases: readonly ContentTree[] = [],
  stats?: SaveStats,
  storedData?: StoredData,
): Promise<string | undefined> {
  const steps = saveTreeSteps(stager, tree, bases, stats, storedData);
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return step.value;
    await stager.pause();
  }
}

/**
 * A tree to save, as a two-phase handler's `prepare` leaves it for `run`: written ahead
 * (`stageTree`, when the store can stage), or to be written in the transaction.
 */
export type SavedTree = { staged: StagedObjects; content: string | undefined } | { tree: ContentTree; bases: readonly ContentTree[] };

/**
 * In `prepare`: writes `tree` ahead of the transaction when the store can (the objects of
 * an import are then serialized and written outside the lock, in slices).
 */
export async function prepareSave(
  ctx: { stage?: (() => ObjectStager) | undefined },
  tree: ContentTree,
  bases: readonly ContentTree[],
  /** The stager the files' data went into as they were read (`storeFileData`), and what it holds. */
  early?: { stager: ObjectStager; storedData: StoredData },
): Promise<SavedTree> {
  return (await stageSave(ctx, tree, bases, early)).seal();
}

/**
 * `prepareSave` in two steps: the tree's objects staged (`content`, its hash, is then known),
 * and `seal`, which makes the staged pack durable (its writes and fsyncs). A caller overlaps
 * the seal with work that needs only the hash (an import's search index plan): the fsyncs of
 * the pack and its index were waited for, one after the other, before that work began.
 * `content` is undefined for an empty tree, and where the store cannot stage (then nothing
 * is written before the transaction: `seal` answers the tree).
 */
export async function stageSave(
  ctx: { stage?: (() => ObjectStager) | undefined },
  tree: ContentTree,
  bases: readonly ContentTree[],
  early?: { stager: ObjectStager; storedData: StoredData },
): Promise<{ staged: boolean; content: string | undefined; seal: () => Promise<SavedTree> }> {
  const stager = early?.stager ?? ctx.stage?.();
  if (stager === undefined) return { staged: false, content: undefined, seal: () => Promise.resolve({ tree, bases }) };
  const content = await stageTree(stager, tree, bases, undefined, early?.storedData);
  return { staged: true, content, seal: async () => ({ staged: await stager.seal(), content }) };
}

/**
 * Data objects put before their tree was saved, by git blob id: a file of a tree whose
 * `data` is empty while its `size` is not (the converter's StoredBytes) has its data here.
 */
export type StoredData = ReadonlyMap<string, string>;

/**
 * Puts a file's data object (`{base64}`) and answers its hash: as bytes built once where the
 * sink takes them (`putEncoded`), not JSON text copied twice on its way to the disk.
 */
export function storeFileData(sink: ObjectSink, data: Uint8Array): string {
  const base64 = Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64');
  if (sink.putEncoded === undefined) return sink.putObject({ base64 } satisfies DataObject);
  // Exactly encodeJson({ base64 }): base64 needs no escaping in JSON.
  const bytes = Buffer.allocUnsafe(base64.length + DATA_PREFIX.length + DATA_SUFFIX.length);
  bytes.write(DATA_PREFIX, 0, 'latin1');
  bytes.write(base64, DATA_PREFIX.length, 'latin1');
  bytes.write(DATA_SUFFIX, DATA_PREFIX.length + base64.length, 'latin1');
  return sink.putEncoded(bytes, base64.length === 64 && HASH_RE.test(base64));
}

const DATA_PREFIX = '{"base64":"';
const DATA_SUFFIX = '"}';

/** In `run`: the content hash of a prepared save (adopting the staged objects, or writing the tree now). */
export function commitSave(tx: StoreWriter, saved: SavedTree): string | undefined {
  if ('tree' in saved) return saveTree(tx, saved.tree, saved.bases);
  tx.adopt(saved.staged);
  return saved.content;
}

/** The work of `saveTree`, yielding after each page and file written (so a caller can let others run). */
function* saveTreeSteps(sink: ObjectSink, tree: ContentTree, bases: readonly ContentTree[], stats?: SaveStats, storedData?: StoredData): Generator<void, string | undefined> {
  const baseIndexes = bases.map((base) => indexes.get(base)).filter((index): index is TreeIndex => index !== undefined);
  const primary = baseIndexes[0];
  const saved: TreeIndex = { content: undefined, root: EMPTY_ROOT, pages: new Map(), files: new Map() };
  const pageChanges: TrieChange[] = [];
  yield* savePages(sink, tree, baseIndexes, saved, pageChanges, stats);
  if (primary) for (const id of primary.pages.keys()) if (!saved.pages.has(id)) pageChanges.push(makeChange(id, DELETE));
  const fileChanges: TrieChange[] = [];
  yield* saveFiles(sink, tree, baseIndexes, saved, fileChanges, stats, storedData);
  if (primary) for (const id of primary.files.keys()) if (!saved.files.has(id)) fileChanges.push(makeChange(id, DELETE));

  const rootPages = tree.pages.map((page) => page.id);
  if (primary && pageChanges.length === 0 && fileChanges.length === 0 && sameJson(primary.root.rootPages, rootPages)) {
    saved.root = primary.root;
    saved.content = primary.content;
    indexes.set(tree, saved);
    return primary.content;
  }
  const emit = (node: HamtNode): string => sink.putObject(node);
  const source: NodeSource = { node: (hash) => sink.getObject<HamtNode>(hash) };
  const pagesRoot = hamtApply(source, primary ? (primary.root.pages ?? undefined) : undefined, pageChanges, emit);
  const filesRoot = hamtApply(source, primary ? (primary.root.files ?? undefined) : undefined, fileChanges, emit);
  if (pagesRoot === undefined && filesRoot === undefined) {
    indexes.set(tree, saved);
    return undefined;
  }
  const root: ContentRoot = { rootPages, pages: pagesRoot ?? null, files: filesRoot ?? null };
  saved.root = root;
  saved.content = sink.putObject(root);
  indexes.set(tree, saved);
  return saved.content;
}

/** The pages of `tree`, depth first (a stack, so the walk can pause between pages): objects written, trie changes noted. */
function* savePages(sink: ObjectSink, tree: ContentTree, baseIndexes: readonly TreeIndex[], saved: TreeIndex, changes: TrieChange[], stats?: SaveStats): Generator<void> {
  const primary = baseIndexes[0];
  const pending: Array<[ContentPage, string | undefined]> = tree.pages.map((page): [ContentPage, string | undefined] => [page, undefined]).reverse();
  while (pending.length > 0) {
    const [page, parent] = pending.pop() as [ContentPage, string | undefined];
    if (saved.pages.has(page.id)) throw new Error(`content tree has two pages with id ${page.id}`);
    const { pages: children, markdown, ...meta } = page;
    const stored: StoredPage = defined({ ...meta, ...(parent !== undefined ? { parent } : {}), children: children.map((child) => child.id) });
    let hash: string | undefined;
    let body: string | undefined;
    for (const index of baseIndexes) {
      const candidate = index.pages.get(page.id);
      if (!candidate || candidate.markdown !== markdown) continue;
      body = candidate.page.body;
      const { body: _b, ...candidateRest } = candidate.page;
      if (sameJson(candidateRest, stored)) {
        hash = candidate.hash;
        break;
      }
    }
    if (markdown !== undefined) {
      body ??= sink.putObject({ markdown } satisfies BodyObject);
      stored.body = body;
    }
    if (hash === undefined) {
      hash = sink.putObject(stored);
      if (stats) stats.pagesWritten += 1;
    }
    saved.pages.set(page.id, { hash, page: stored, markdown });
    if (primary?.pages.get(page.id)?.hash !== hash) changes.push(makeChange(page.id, slotOf(hash, stored)));
    for (let i = children.length - 1; i >= 0; i -= 1) pending.push([children[i] as ContentPage, page.id]);
    yield;
  }
}

/** The files of `tree`: objects written (data shared with an equal base file), trie changes noted. */
function* saveFiles(
  sink: ObjectSink,
  tree: ContentTree,
  baseIndexes: readonly TreeIndex[],
  saved: TreeIndex,
  changes: TrieChange[],
  stats?: SaveStats,
  storedData?: StoredData,
): Generator<void> {
  const primary = baseIndexes[0];
  for (const file of tree.files) {
    if (saved.files.has(file.id)) throw new Error(`content tree has two files with id ${file.id}`);
    const { data, ...meta } = file;
    const metaOnly: FileMeta = defined(meta);
    let hash: string | undefined;
    // Put as it was read (the tree holds no bytes for it): matched to a base by its data object.
    let dataHash = storedData !== undefined && data.byteLength === 0 && file.size > 0 ? storedDataOf(storedData, file) : undefined;
    for (const index of baseIndexes) {
      const candidate = index.files.get(file.id);
      if (!candidate || (dataHash !== undefined ? candidate.file.data !== dataHash : !sameBytes(candidate.data, data))) continue;
      dataHash = candidate.file.data;
      const { data: _d, ...candidateMeta } = candidate.file;
      if (sameJson(candidateMeta, metaOnly)) {
        hash = candidate.hash;
        break;
      }
    }
    dataHash ??= storeFileData(sink, data);
    const stored: StoredFile = { ...metaOnly, data: dataHash };
    if (hash === undefined) {
      hash = sink.putObject(stored);
      if (stats) stats.filesWritten += 1;
    }
    saved.files.set(file.id, { hash, file: stored, data });
    if (primary?.files.get(file.id)?.hash !== hash) changes.push(makeChange(file.id, hash));
    yield;
  }
}

function storedDataOf(storedData: StoredData, file: ContentFile): string {
  const hash = file.git === undefined ? undefined : storedData.get(file.git.oid);
  if (hash === undefined) throw new Error(`file ${file.id} (${file.git?.path ?? file.name}) has no data: its bytes were not stored as they were read`);
  return hash;
}

/** A page of a tree loaded or saved here: its stored object's hash, the object, its Markdown. */
export interface SavedPage {
  hash: string;
  page: StoredPage;
  markdown: string | undefined;
}

/** The pages of a tree loaded or saved here, by id (undefined for a tree that was neither). */
export function savedPages(tree: ContentTree): ReadonlyMap<string, SavedPage> | undefined {
  return indexes.get(tree)?.pages;
}

/** The data object of each file of a tree loaded or saved here, by file id (undefined for a tree that was neither). */
export function fileDataHashes(tree: ContentTree): ReadonlyMap<string, string> | undefined {
  const files = indexes.get(tree)?.files;
  if (files === undefined) return undefined;
  const hashes = new Map<string, string>();
  for (const [id, entry] of files) hashes.set(id, entry.file.data);
  return hashes;
}

/** True when `tree` was loaded or saved here (so `saveTree` can reuse its objects). */
export function isIndexed(tree: ContentTree): boolean {
  return indexes.has(tree);
}
