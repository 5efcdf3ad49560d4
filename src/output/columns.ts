/**
 * Column definitions for table and TSV output, per resource. A column reads a
 * value out of an API object; `wide` columns show only on a wide terminal.
 */
export interface Column {
  header: string;
  get: (item: Record<string, unknown>) => unknown;
  /** Hidden in tables narrower than 100 columns. */
  wide?: boolean;
}

const field =
  (...path: string[]) =>
  (item: Record<string, unknown>): unknown => {
    let value: unknown = item;
    for (const key of path) {
      if (typeof value !== 'object' || value === null) return undefined;
      value = (value as Record<string, unknown>)[key];
    }
    return value;
  };

const col = (header: string, path: string, wide = false): Column => ({ header, get: field(...path.split('.')), wide });

export const columns = {
  organization: [col('ID', 'id'), col('TITLE', 'title'), col('PLAN', 'plan', true), col('CREATED', 'createdAt', true)],
  user: [col('ID', 'id'), col('NAME', 'displayName'), col('EMAIL', 'email')],
  collection: [
    col('ID', 'id'),
    col('TITLE', 'title'),
    col('PARENT', 'parent'),
    col('DEFAULT LEVEL', 'defaultLevel', true),
    col('DESCRIPTION', 'description', true),
  ],
  space: [
    col('ID', 'id'),
    col('TITLE', 'title'),
    col('VISIBILITY', 'visibility'),
    col('PARENT', 'parent'),
    col('EDIT MODE', 'editMode', true),
    col('UPDATED', 'updatedAt', true),
    col('DELETED', 'deletedAt', true),
  ],
  invite: [col('INVITED', 'invited'), { header: 'USERS', get: (item) => (item.users as string[] | undefined)?.join(',') }],
} satisfies Record<string, Column[]>;

export type ColumnSet = keyof typeof columns;
