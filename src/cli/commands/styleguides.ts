/**
 * Hooks of the style guide commands (src/api/routes/styleguides.ts): the organization's
 * lists answer `{templates}` and `{styleguides}`, printed as lists (`--json`: the items).
 * (`site styleguide` has none: the `site` group, which every site command loads, stays as it was.)
 */
import { type Hooks, listed } from '../derive.js';

const field = (name: string) => (body: unknown) => ((body as Record<string, unknown> | undefined)?.[name] as unknown[] | undefined) ?? [];

export const hooks = {
  'styleguide templates': { request: listed('listStyleguideTemplates', field('templates')) },
  'styleguide list': {
    request: listed('listOrganizationStyleguides', field('styleguides')),
    emptyHint: () => 'No style guides yet: docsctl site styleguide create SITE --template ID makes one (docsctl styleguide templates lists them).',
  },
} satisfies Hooks;
