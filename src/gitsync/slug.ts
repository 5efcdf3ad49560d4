/**
 * GitBook's slugs: lower case, `&` becomes `and`, apostrophes and other
 * punctuation are dropped, white space becomes `-`, dots are kept
 * (`Vue.js no-code email builder` → `vue.js-no-code-email-builder`).
 * Letters outside ASCII are kept; Latin diacritics are removed (`Café` → `cafe`).
 * Idempotent: a valid slug slugifies to itself.
 */

const MAX_SLUG = 100;

export function slugify(title: string): string {
  let s = title.normalize('NFD').replace(/[\u0300-\u036f]/g, '').normalize('NFC').toLowerCase();
  s = s.replace(/&/g, ' and ');
  // Drop everything that is not a letter, a digit, a mark, `.`, `_`, `-` or white space.
  s = s.replace(/[^\p{L}\p{N}\p{M}._\s-]+/gu, '');
  s = s.trim().replace(/[\s-]+/g, '-');
  s = s.replace(/^-+|-+$/g, '');
  if (s.length > MAX_SLUG) s = s.slice(0, MAX_SLUG).replace(/-+$/, '');
  return s;
}

/** The slug of a page from its file path (relative to the content root): `a/b.md` → `b`, `a/b/README.md` → `b`. */
export function slugFromPath(path: string): string {
  const segments = path.split('/');
  const last = segments[segments.length - 1] ?? '';
  const parent = segments[segments.length - 2];
  const name = last.toLowerCase() === 'readme.md' && parent !== undefined ? parent : last.replace(/\.md$/i, '');
  return slugify(name) || 'untitled';
}

/** `base`, then `base-1`, `base-2`, … until `taken` says no. */
export function uniqueName(base: string, taken: (candidate: string) => boolean): string {
  if (!taken(base)) return base;
  for (let n = 1; ; n += 1) {
    const candidate = `${base}-${n}`;
    if (!taken(candidate)) return candidate;
  }
}
