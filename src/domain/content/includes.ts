/**
 * Reusable contents inside a page: `{% include "…" %}` tags expanded with the bodies of the
 * reusable contents they name (Git Sync's `.gitbook/includes/*.md`, files with `rc_` ids). Used
 * by documents (`dereferenced` page documents) and by page reads (`dereferenced` pages).
 */
import { dirname, joinPath, normalizePath } from '../../gitsync/paths.js';
import { REUSABLE_ID_PREFIX } from '../../content-model/model.js';
import type { RevisionContent, StoredFile, StoredPage } from './storage.js';
import { reusableParts } from './views.js';

/** A reusable content's title (from its front matter) and body. */
export function reusableText(content: RevisionContent, file: StoredFile): { title: string; body: string } {
  return reusableParts(file.name, textDecoder.decode(content.fileData(file)));
}

const textDecoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** `{% include "…" %}` tags: a path relative to the page, or an app URL of a space's reusable content. */
const INCLUDE_TAG = /\{%\s*include\s+"([^"\n]{1,2048})"\s*%\}/g;

/** How many include tags one document expands: past it, the rest stay tags. */
const MAX_EXPANDED_INCLUDES = 1000;

/**
 * The page's Markdown with its `{% include %}` tags replaced by the bodies of the reusable
 * contents they name (this space's: by path from the page's file, or by an app URL
 * `…/s/<this space>/~/reusable/<id>`). One level: an include's own tags stay as written.
 * The revision's includes are read once, by Git path, only when the page has a tag.
 */
export function expandIncludes(content: RevisionContent, spaceId: string, page: StoredPage, markdown: string): string {
  if (!markdown.includes('{%')) return markdown;
  let byPath: Map<string, StoredFile> | undefined;
  const bodies = new Map<string, string>();
  const bodyOf = (file: StoredFile): string => {
    let body = bodies.get(file.id);
    if (body === undefined) {
      body = reusableText(content, file).body;
      bodies.set(file.id, body);
    }
    return body;
  };
  let expanded = 0;
  return markdown.replace(INCLUDE_TAG, (tag, target: string) => {
    if (expanded >= MAX_EXPANDED_INCLUDES) return tag;
    let file: StoredFile | undefined;
    const byUrl = /\/s\/([^/]+)\/~\/reusable\/([^/?#]+)/.exec(target);
    if (byUrl) {
      if (byUrl[1] === spaceId && (byUrl[2] as string).startsWith(REUSABLE_ID_PREFIX)) file = content.file(byUrl[2] as string);
    } else if (page.git && !target.startsWith('/') && !/^[a-z][a-z0-9+.-]*:/i.test(target)) {
      const path = normalizePath(joinPath(dirname(page.git.path), target));
      if (byPath === undefined) {
        byPath = new Map();
        for (const id of content.reusableIds()) {
          const candidate = content.file(id);
          if (candidate?.git) byPath.set(candidate.git.path, candidate);
        }
      }
      if (path) file = byPath.get(path);
    }
    if (!file) return tag;
    expanded++;
    // The body without blank lines around it: the tag's own line breaks stay as the page wrote them.
    return bodyOf(file).replace(/^\n+|\n+$/g, '');
  });
}
