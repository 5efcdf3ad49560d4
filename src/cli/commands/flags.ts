/** Flags shared by several command groups: move positions, access levels. */
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
