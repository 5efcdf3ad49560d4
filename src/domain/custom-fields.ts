/**
 * API doc §4.12 custom fields of an organization and §4.2 the values a space
 * gives them (v0.91 shapes, gaps.md §3 "API doc §4.12").
 *
 * Rules decided here:
 * - Defining, editing and deleting fields needs the `admin` role; any member
 *   may list and read them. Reading a space's values needs read access to the
 *   space, setting them needs `edit`.
 * - A value is checked against its field's type: `text` a string, `number` a
 *   finite number, `boolean`, `tags` a list of strings, `select:single` one of
 *   the options, `select:multi` a list of distinct options. An unknown field
 *   name or a value of the wrong type is a 400 naming the field, and nothing of
 *   the request is written (all values are checked before the first write).
 * - `select:*` fields need options (400 otherwise); other types refuse them.
 * - Values are keyed by the field's id, not its name: deleting a field and
 *   creating another of the same name does not resurrect the old values.
 * - `{ "value": null }` in an update clears that value.
 */
import { badRequest, conflict, notFound } from '../api/errors.js';
import type * as fieldRoutes from '../api/routes/custom-fields.js';
import type * as spaceRoutes from '../api/routes/spaces.js';
import type { StoreReader } from '../store/types.js';
import { type Handler, Reply, implementer, nothingToDelete } from './handler.js';
import { KeyedSet, isKeyedId } from './ordered.js';
import { activeSpaceAccess, orgAccess } from './permissions.js';
import { apiUrl } from './urls.js';

export type CustomFieldType = 'text' | 'number' | 'boolean' | 'tags' | 'select:multi' | 'select:single';
export type CustomFieldValue = string | number | boolean | string[];

export interface CustomFieldRecord {
  id: string;
  name: string;
  type: CustomFieldType;
  title: string;
  description: string;
  placeholder: string;
  options?: string[];
  createdAt: string;
  updatedAt: string;
}

/** An organization's fields, by name. */
export const orgCustomFields = new KeyedSet<CustomFieldRecord>('orgCustomFields');
/** A space's values, by field id. */
export const spaceFieldValues = new KeyedSet<CustomFieldValue>('spaceCustomFieldValues');

const isSelect = (type: CustomFieldType) => type === 'select:single' || type === 'select:multi';

function checkOptions(type: CustomFieldType, options: string[] | undefined, name: string): void {
  if (isSelect(type) && (!options || options.length === 0)) {
    throw badRequest(`Custom field "${name}" of type ${type} needs options: pass 1 to 50 option strings`);
  }
  if (!isSelect(type) && options !== undefined) {
    throw badRequest(`Custom field "${name}" of type ${type} takes no options (only select:single and select:multi do)`);
  }
  if (options && new Set(options).size !== options.length) {
    throw badRequest(`Custom field "${name}" has duplicate options`);
  }
}

/** The value if it fits the field, or a 400 naming the field and what it expects. */
export function checkFieldValue(field: CustomFieldRecord, value: unknown): CustomFieldValue {
  const wrong = (expected: string) =>
    badRequest(`Invalid value for custom field "${field.name}" (${field.type}): expected ${expected}, got ${JSON.stringify(value)}`);
  const isStringList = Array.isArray(value) && value.every((item) => typeof item === 'string');
  switch (field.type) {
    case 'text':
      if (typeof value !== 'string') throw wrong('a string');
      return value;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw wrong('a number');
      return value;
    case 'boolean':
      if (typeof value !== 'boolean') throw wrong('true or false');
      return value;
    case 'tags':
      if (!isStringList) throw wrong('a list of strings');
      return value as string[];
    case 'select:single':
      if (typeof value !== 'string' || !field.options?.includes(value)) throw wrong(`one of ${field.options?.join(', ')}`);
      return value;
    case 'select:multi': {
      const options = field.options ?? [];
      if (!isStringList || !(value as string[]).every((item) => options.includes(item))) {
        throw wrong(`a list of options among ${options.join(', ')}`);
      }
      if (new Set(value as string[]).size !== (value as string[]).length) throw wrong('distinct options');
      return value as string[];
    }
  }
}

function fieldView(origin: string, orgId: string, field: CustomFieldRecord) {
  return {
    id: field.id,
    name: field.name,
    title: field.title,
    description: field.description,
    placeholder: field.placeholder,
    type: field.type,
    ...(field.options ? { options: field.options } : {}),
    createdAt: field.createdAt,
    updatedAt: field.updatedAt,
    urls: { location: apiUrl(origin, `orgs/${encodeURIComponent(orgId)}/custom-fields/${encodeURIComponent(field.name)}`) },
  };
}

function requireField(tx: StoreReader, orgId: string, name: string): CustomFieldRecord {
  const field = isKeyedId(name) ? orgCustomFields.get(tx, orgId, name) : undefined;
  if (!field) throw notFound(`Custom field "${name}" not found in organization ${orgId}`);
  return field;
}

const onFields = implementer<typeof fieldRoutes>();
const onSpaces = implementer<typeof spaceRoutes>();

export const customFieldHandlers: Record<string, Handler> = {
  ...onFields('listOrganizationCustomFields', (ctx, { params, query }) => {
    const { org } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    return orgCustomFields.page(ctx.tx, org.id, query, ({ value }) => fieldView(ctx.origin, org.id, value));
  }),

  ...onFields('createOrganizationCustomField', (ctx, { params, body }) => {
    const { org } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    if (orgCustomFields.has(ctx.tx, org.id, body.name)) {
      throw conflict(`Custom field "${body.name}" already exists in organization ${org.id}: edit it or pick another name`);
    }
    checkOptions(body.type, body.options, body.name);
    const now = ctx.clock().toISOString();
    const field: CustomFieldRecord = {
      id: ctx.ids(),
      name: body.name,
      type: body.type,
      title: body.title ?? body.name,
      description: body.description ?? '',
      placeholder: body.placeholder ?? '',
      ...(body.options ? { options: body.options } : {}),
      createdAt: now,
      updatedAt: now,
    };
    orgCustomFields.put(ctx.tx, org.id, field.name, field);
    const view = fieldView(ctx.origin, org.id, field);
    return new Reply(201, view, { Location: view.urls.location });
  }),

  ...onFields('getOrganizationCustomFieldByName', (ctx, { params }) => {
    const { org } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    return fieldView(ctx.origin, org.id, requireField(ctx.tx, org.id, params.fieldName));
  }),

  ...onFields('updateOrganizationCustomField', (ctx, { params, body }) => {
    const { org } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    const field = requireField(ctx.tx, org.id, params.fieldName);
    if (Object.keys(body).length === 0) throw badRequest('Nothing to update: pass title, description, placeholder or options');
    if (body.options !== undefined) checkOptions(field.type, body.options, field.name);
    const updated: CustomFieldRecord = { ...field, ...body, updatedAt: ctx.clock().toISOString() };
    orgCustomFields.put(ctx.tx, org.id, field.name, updated);
    return fieldView(ctx.origin, org.id, updated);
  }),

  ...onFields('deleteOrganizationCustomField', (ctx, { params }) => {
    const { org } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    // v0.91 declares 204 for this delete whether or not the field existed.
    if (isKeyedId(params.fieldName)) orgCustomFields.remove(ctx.tx, org.id, params.fieldName);
    return nothingToDelete();
  }),

};

/** The values of a space (routes of the spaces module, loaded with the space handlers). */
export const spaceCustomFieldHandlers: Record<string, Handler> = {
  ...onSpaces('getSpaceCustomFields', (ctx, { params }) => {
    const { space } = activeSpaceAccess(ctx.tx, params.spaceId, ctx.actor.userId, ctx.clock());
    return orgCustomFields.all(ctx.tx, space.organization).map(({ value: field }) => {
      const value = spaceFieldValues.get(ctx.tx, space.id, field.id);
      return { customField: fieldView(ctx.origin, space.organization, field), ...(value !== undefined ? { value } : {}) };
    });
  }),

  ...onSpaces('updateSpaceCustomFields', (ctx, { params, body }) => {
    const { space } = activeSpaceAccess(ctx.tx, params.spaceId, ctx.actor.userId, ctx.clock());
    const changes: Array<[CustomFieldRecord, CustomFieldValue | null]> = [];
    for (const [name, { value }] of Object.entries(body.values)) {
      const field = isKeyedId(name) ? orgCustomFields.get(ctx.tx, space.organization, name) : undefined;
      if (!field) throw badRequest(`Unknown custom field "${name}": define it first (docsctl custom-field create ${name} --type …)`);
      changes.push([field, value === null ? null : checkFieldValue(field, value)]);
    }
    for (const [field, value] of changes) {
      if (value === null) spaceFieldValues.remove(ctx.tx, space.id, field.id);
      else spaceFieldValues.put(ctx.tx, space.id, field.id, value);
    }
    return new Reply(204);
  }),
};

