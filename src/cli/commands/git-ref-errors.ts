/** The errors of `git import --ref` that name what the user gave (a short name is tried as a branch, then as a tag). */
import { ApiError } from '../../api/errors.js';
import { redactUrls } from '../../util/redact.js';

/** Every candidate ref was missing: the error names what the user gave, not the last candidate tried. */
export function noSuchRef(url: string, given: string, tried: readonly string[]): ApiError {
  const what = tried.length > 1 ? `no branch or tag "${given}"` : `no ref "${given}"`;
  return new ApiError(404, `Cannot fetch ${redactUrls(url)}: ${what}`, { hint: `list its branches and tags with: git ls-remote ${redactUrls(url)}` });
}

/** A remote-ref-not-found answer (the candidate does not exist there). */
export function isRefNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404 && /remote ref not found/.test(error.message);
}
