/**
 * `docsctl custom-field …` and `space fields` (API doc §4.2 custom-field values, §4.12):
 * an organization's custom fields and a space's values of them. Declared with the routes
 * (src/api/routes/custom-fields.ts, spaces.ts); lookups by name and the NAME=TEXT values here.
 */
import { UsageError } from '../../api/errors.js';
import type { RawInput } from '../../api/validate.js';
import { columns } from '../../output/columns.js';
import { customFieldLookup } from '../lookups.js';
import type { Hooks } from '../derive.js';

const body = (input: RawInput) => {
  input.body ??= {};
  return input.body as Record<string, unknown>;
};

/**
 * `NAME=TEXT` sets a text value as given; `NAME:=JSON` sets a typed value
 * (`pages:=12`, `reviewed:=true`, `tags:='["a","b"]'`, `NAME:=null` clears it),
 * as httpie does, so a value never changes type by looking like a number.
 */
export function parseFieldAssignments(assignments: readonly string[]): Record<string, { value: unknown }> {
  const values: Record<string, { value: unknown }> = {};
  for (const assignment of assignments) {
    const match = /^([^=:]+)(:?=)([\s\S]*)$/.exec(assignment);
    if (!match) throw new UsageError(`Expected NAME=TEXT or NAME:=JSON, got "${assignment}"`);
    const [, name = '', operator, raw = ''] = match;
    if (name in values) throw new UsageError(`Custom field "${name}" is set twice`);
    if (operator === '=') {
      values[name] = { value: raw };
      continue;
    }
    try {
      values[name] = { value: JSON.parse(raw) };
    } catch {
      throw new UsageError(`${name}:= expects JSON (a number, true/false, null, or ["a","b"]), got ${raw}`);
    }
  }
  return values;
}

export const hooks = {
  'custom-field get': { lookups: { fieldName: customFieldLookup } },
  'custom-field edit': { lookups: { fieldName: customFieldLookup } },
  'custom-field delete': { lookups: { fieldName: customFieldLookup } },
  'space fields': { after: async (session, answer) => session.printList(answer as unknown[], columns.customFieldValue) },
  'space fields set': {
    build: (_options, input) => {
      const assignments = (body(input).values as string[] | undefined) ?? [];
      if (assignments.length === 0) throw new UsageError('Nothing to set: pass NAME=TEXT or NAME:=JSON');
      body(input).values = parseFieldAssignments(assignments);
    },
  },
} satisfies Hooks;
