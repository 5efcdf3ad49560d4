/**
 * Ref names from a request or the command line, checked before git sees them.
 *
 * The rules are `git check-ref-format`'s, plus: nothing that starts with `-`
 * (git would read it as an option) and no control characters. `HEAD` and a
 * full commit id (40 or 64 hex digits: a remote can only be asked for a full
 * one) are accepted where a commit may be named.
 */
import { badRequest } from '../api/errors.js';

const FULL_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i;
const SHORT_ID = /^[0-9a-f]{7,39}$/i;

/** Why `name` is not a valid full ref name (`refs/…`), or undefined when it is. */
function refNameProblem(name: string): string | undefined {
  if (name.startsWith('-')) return 'it starts with "-"';
  if (/[\u0000-\u0020\u007f~^:?*[\\]/.test(name)) return 'it contains a space, a control character or one of ~^:?*[\\';
  if (name.includes('..') || name.includes('@{') || name.includes('//')) return 'it contains "..", "@{" or "//"';
  if (name.endsWith('/') || name.endsWith('.') || name.endsWith('.lock')) return 'it ends with "/", "." or ".lock"';
  if (name.split('/').some((part) => part === '' || part.startsWith('.'))) return 'a component is empty or starts with "."';
  if (!name.startsWith('refs/')) return 'a full ref starts with refs/ (refs/heads/<branch>, refs/tags/<tag>)';
  return undefined;
}

/** A full ref (`refs/heads/main`, `refs/pull/1/head`…): answers it, or throws 400 naming the problem. */
export function checkRefName(name: string, what = 'ref'): string {
  const problem = refNameProblem(name);
  if (problem !== undefined) throw badRequest(`Invalid ${what} "${name.replace(/[\u0000-\u001f\u007f]/g, '?')}": ${problem}`);
  return name;
}

/** True for something that names a commit directly: `HEAD` or a commit id. */
export function isCommitName(name: string): boolean {
  return name === 'HEAD' || FULL_ID.test(name);
}

/** A ref to import from: a full ref, `HEAD` or a full commit id. Throws 400 otherwise. */
export function checkImportRef(name: string): string {
  if (SHORT_ID.test(name)) throw badRequest(`Invalid ref "${name}": give the full commit id (git rev-parse ${name})`);
  return isCommitName(name) ? name : checkRefName(name);
}

/**
 * The mirror's own ref for what `name` fetches: a full ref is kept as is; `HEAD`
 * and a commit id get refs of docsctl's own (several processes share a mirror).
 */
export function mirrorRefFor(name: string): string {
  if (name === 'HEAD') return 'refs/docsctl/HEAD';
  if (FULL_ID.test(name)) return `refs/docsctl/commits/${name.toLowerCase()}`;
  return name;
}
