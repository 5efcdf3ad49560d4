/**
 * The content model shared by the pure content modules (Git Sync conversion,
 * three-way merge, diff, links, PDF): a space's revision as a tree of pages
 * plus files, in memory. How revisions are stored (content-addressed objects)
 * is the domain's business (`src/domain/content/`); these modules never touch
 * the store.
 */

export type PageType = 'document' | 'group' | 'link';

/** Layout options of a document page (API `RevisionPageLayoutOptions`, flattened). */
export interface PageLayout {
  width?: 'default' | 'wide';
  cover?: boolean;
  coverSize?: 'hero' | 'full' | 'background';
  coverMask?: 'none' | 'radial';
  title?: boolean;
  description?: boolean;
  tableOfContents?: boolean;
  outline?: boolean;
  pagination?: boolean;
  metadata?: boolean;
  tags?: boolean;
  actions?: boolean;
  anchors?: boolean;
}

/** A reference to content (API `ContentRef`), used by link pages and covers. */
export type ContentRef =
  | { kind: 'url'; url: string }
  | { kind: 'page'; page: string; space?: string }
  | { kind: 'anchor'; anchor: string; page?: string; space?: string }
  | { kind: 'file'; file: string }
  | { kind: 'space'; space: string };

/** Where a page or file came from in a Git repository. */
export interface GitBlobRef {
  /** Git blob SHA-1 of the file (what `git hash-object` prints). */
  oid: string;
  /** Path of the file from the repository root. */
  path: string;
}

/** Everything about a page except its children and its body. */
export interface PageMeta {
  id: string;
  type: PageType;
  title: string;
  /** Document and group pages: URL segment, unique among siblings. */
  slug?: string;
  description?: string;
  emoji?: string;
  icon?: string;
  hidden?: boolean;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
  layout?: PageLayout;
  cover?: { ref?: ContentRef; refDark?: ContentRef; yPos: number };
  /** Link pages: where the link goes. */
  target?: ContentRef;
  href?: string;
  git?: GitBlobRef;
  /**
   * Data a producer keeps for itself and every other module carries unchanged
   * (e.g. the Git Sync converter's original front matter text and SUMMARY link
   * text, for byte-exact round trips). Compared as a whole by merge.
   */
  extra?: Record<string, unknown>;
}

export interface ContentPage extends PageMeta {
  /** Document pages: the Markdown body (GitBook's dialect), byte for byte, without front matter. */
  markdown?: string;
  /** Child pages, in order. Groups only at the root. */
  pages: ContentPage[];
}

export interface ContentFile {
  id: string;
  name: string;
  contentType: string;
  size: number;
  dimensions?: { width: number; height: number };
  git?: GitBlobRef;
  /** The file's bytes. */
  data: Uint8Array;
}

/**
 * Files whose id starts with this are reusable contents (Git Sync's `.gitbook/includes/*.md`):
 * they travel with the tree's files (stored, merged, exported byte for byte as files are),
 * and the API shows them as `reusableContents`, not as files.
 */
export const REUSABLE_ID_PREFIX = 'rc_';

/** True when a file of a tree is a reusable content. */
export const isReusableContent = (file: Pick<ContentFile, 'id'>): boolean => file.id.startsWith(REUSABLE_ID_PREFIX);

/** One revision's content. */
export interface ContentTree {
  pages: ContentPage[];
  files: ContentFile[];
}

/** Walks every page depth-first, with its parent and the path of slugs from the root. */
export function* walkPages(
  pages: readonly ContentPage[],
  parent: ContentPage | null = null,
  prefix = '',
): Generator<{ page: ContentPage; parent: ContentPage | null; path: string }> {
  for (const page of pages) {
    const path = page.slug ? (prefix ? `${prefix}/${page.slug}` : page.slug) : prefix;
    yield { page, parent, path };
    yield* walkPages(page.pages, page, path);
  }
}
