/**
 * Flags shared by several command groups (move positions, access levels), and the
 * naming rule every command's flags follow, so a flag can be derived from a route:
 *
 * 1. A flag that fills an API field is that field in kebab case: `defaultLevel` →
 *    `--default-level`, `editMode` → `--edit-mode`; a boolean field is `--x` / `--no-x`.
 *    A path parameter that is not a positional argument keeps its noun: `--cr`, `--reply`.
 * 2. One name, one meaning, on every command. These names are reserved for:
 *    - `--org ID`: the organization (`organizationId`; `--to-org` for a transfer's target);
 *    - `--space ID`, `--cr ID|NUMBER`, `--parent ID` (the container it goes into);
 *    - `--page ID|PATH`: a page of content, by id or path, never a list position;
 *    - `--limit N`, `--cursor CURSOR` (the `next.page` of an answer), `--all`: pagination of a list;
 *    - `--body JSON|@FILE`: the request body as JSON (flags override its fields);
 *    - `--text MARKDOWN` / `--text-file FILE|-`: text a person writes (a comment, a
 *      review's note: the API's `{markdown}` bodies);
 *    - `--file FILE|-`: a document the command reads (a manifest, a schema, a sync list);
 *    - `--yes`, `--dry-run`, `--force`, `--quiet`, and the global output flags.
 * 3. A value that may be a local file or directory is written `<file>`, `<dir>`, `<path>`
 *    or `<repository>` (or a name ending in `-file` / `-dir`: `<certificate-file>`) in the
 *    flag or argument; completion offers file names there (completion.ts, `takesPath`).
 *    A path inside a URL is `<url-path>`.
 * 4. A renamed flag keeps its old spelling as a hidden alias (`FlagSpec.aliases`:
 *    `--organization` → `--org`, `--body` → `--text` on comments, `--page` → `--cursor`
 *    on lists), so scripts written for it keep working.
 */
import { UsageError } from '../../api/errors.js';
import type { RawInput } from '../../api/validate.js';
import type { FlagSpec } from '../operation.js';

export const moveFlags: FlagSpec[] = [
  { flags: '--parent <collectionId>', description: 'new parent collection ("none" for the organization root)', to: 'body.parent', noneIsNull: true },
  { flags: '--before <kind:id>', description: 'place before a sibling: space:ID or collection:ID' },
  { flags: '--after <kind:id>', description: 'place after a sibling: space:ID or collection:ID' },
];

function pointer(flag: string, value: string) {
  const match = /^(space|collection):(.+)$/.exec(value);
  if (!match) throw new UsageError(`${flag} expects space:ID or collection:ID, got "${value}"`);
  const type = match[1] as 'space' | 'collection';
  return type === 'space' ? { type, space: match[2] } : { type, collection: match[2] };
}

export function buildPosition(options: Record<string, unknown>, input: RawInput): void {
  const before = options.before as string | undefined;
  const after = options.after as string | undefined;
  if (before && after) throw new UsageError('Pass --before or --after, not both');
  const body = (input.body ?? {}) as Record<string, unknown>;
  if (before) body.position = { before: pointer('--before', before) };
  if (after) body.position = { after: pointer('--after', after) };
  input.body = body;
  if (Object.keys(body).length === 0) {
    throw new UsageError('Nothing to move: pass --parent, --before or --after');
  }
}

/** Values of `--default-level` (a role, or `inherit` from the parent). */
export const DEFAULT_LEVELS = ['admin', 'create', 'edit', 'review', 'comment', 'read', 'inherit'] as const;
