/**
 * Ref names from a request or the command line, checked before git sees them.
 *
 * The rules are `git check-ref-format`'s, plus: nothing that starts with `-`
 * (git would read it as an option) and no control characters. `HEAD` and a
 * commit id (7 to 64 hex digits) are accepted where a commit may be named.
 */
import { badRequest } from '../api/errors.js';

const HEX = /^[0-9a-f]{7,64}$/i;

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
  return name === 'HEAD' || HEX.test(name);
}

/** A ref to import from: a full ref, `HEAD` or a commit id. Throws 400 otherwise. */
export function checkImportRef(name: string): string {
  return isCommitName(name) ? name : checkRefName(name);
}
