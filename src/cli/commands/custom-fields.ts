/**
 * `docsctl custom-field …` and `space fields` (API doc §4.2 custom-field values, §4.12):
 * an organization's custom fields and a space's values of them.
 */
import { UsageError } from '../../api/errors.js';
import type { RawInput } from '../../api/validate.js';
import { columns } from '../../output/columns.js';
import { customFieldLookup } from '../lookups.js';
import { type OperationCommandSpec } from '../operation.js';

const CUSTOM_FIELD_TYPES = ['text', 'number', 'boolean', 'tags', 'select:multi', 'select:single'] as const;
const body = (input: RawInput) => {
  input.body ??= {};
  return input.body as Record<string, unknown>;
};

const fieldArg = [{ name: 'fieldName', description: 'field name (or id)', lookup: customFieldLookup }];
const fieldFlags = [
  { flags: '--title <title>', description: 'title shown to editors (max 100)', to: 'body.title' },
  { flags: '--description <text>', description: 'description (max 200)', to: 'body.description' },
  { flags: '--placeholder <text>', description: 'placeholder (max 100)', to: 'body.placeholder' },
  { flags: '--options <a,b,…>', description: 'options of a select field, comma-separated', to: 'body.options', type: 'list' as const },
];

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

export const customFieldCommands: OperationCommandSpec[] = [
  {
    command: 'custom-field list',
    route: 'listOrganizationCustomFields',
    summary: 'List the custom fields of an organization',
    aliases: ['ls'],
    org: true,
    output: 'list',
    columns: 'customField',
    noun: 'custom field',
    examples: ['docsctl custom-field list', 'docsctl custom-field list --format tsv'],
  },
  {
    command: 'custom-field get',
    route: 'getOrganizationCustomFieldByName',
    summary: 'Show a custom field',
    args: fieldArg,
    org: true,
    output: 'object',
    columns: 'customField',
    examples: ['docsctl custom-field get team'],
  },
  {
    command: 'custom-field create',
    route: 'createOrganizationCustomField',
    summary: 'Define a custom field (admin)',
    args: [{ name: 'name', param: '__name', description: 'field name (lowercase letters, digits, _ and -)' }],
    org: true,
    flags: [
      { flags: '--type <type>', description: 'value type', to: 'body.type', choices: CUSTOM_FIELD_TYPES, required: true },
      ...fieldFlags,
    ],
    build: (_options, input) => {
      const params = input.params as Record<string, string>;
      body(input).name = params.__name;
      delete params.__name;
    },
    output: 'object',
    columns: 'customField',
    examples: [
      'docsctl custom-field create owner --type text --title "Owning team"',
      'docsctl custom-field create tier --type select:single --options gold,silver,bronze',
    ],
  },
  {
    command: 'custom-field edit',
    route: 'updateOrganizationCustomField',
    summary: 'Change the title, description, placeholder or options of a custom field (admin)',
    args: fieldArg,
    org: true,
    flags: fieldFlags,
    nonEmptyBody: 'Nothing to change: pass --title, --description, --placeholder or --options',
    output: 'object',
    columns: 'customField',
    examples: ['docsctl custom-field edit tier --options gold,silver,bronze,tin'],
  },
  {
    command: 'custom-field delete',
    route: 'deleteOrganizationCustomField',
    summary: 'Delete a custom field and the values spaces gave it (admin)',
    aliases: ['rm'],
    args: fieldArg,
    org: true,
    confirm: (input) => `Delete custom field ${input.params?.fieldName} and every space's value for it?`,
    output: 'delete',
    columns: 'customField',
    noun: 'custom field',
    examples: ['docsctl custom-field delete tier --yes'],
  },
  {
    command: 'space fields',
    route: 'getSpaceCustomFields',
    summary: 'Show the custom field values of a space',
    args: [{ name: 'spaceId', description: 'space id' }],
    output: 'object',
    columns: 'customFieldValue',
    after: async (session, answer) => session.printList(answer as unknown[], columns.customFieldValue),
    examples: ['docsctl space fields sp4c3', 'docsctl space fields sp4c3 --json'],
  },
  {
    command: 'space fields set',
    route: 'updateSpaceCustomFields',
    summary: 'Set custom field values of a space: NAME=TEXT, or NAME:=JSON for numbers, booleans, lists and null',
    args: [
      { name: 'spaceId', description: 'space id' },
      { name: 'assignments', description: 'NAME=TEXT or NAME:=JSON', variadic: { to: 'body.values' } },
    ],
    build: (_options, input) => {
      const assignments = (body(input).values as string[] | undefined) ?? [];
      if (assignments.length === 0) throw new UsageError('Nothing to set: pass NAME=TEXT or NAME:=JSON');
      body(input).values = parseFieldAssignments(assignments);
    },
    output: 'empty',
    columns: 'customFieldValue',
    examples: ['docsctl space fields set sp4c3 owner="API team" pages:=12 reviewed:=true tags:=\'["beta"]\''],
  },
];
