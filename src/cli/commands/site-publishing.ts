/**
 * Hooks of the commands of src/api/routes/site-publishing.ts and site-structure.ts whose
 * answers are lists in another shape than `{items}`: a bare array (integration scripts)
 * and `{results}` (a bulk redirect write, which fails the command when a row failed).
 */
import { type Hooks, listed } from '../derive.js';

export const hooks = {
  // `--site-space` alone means the specific scope, `--current` alone the default one (the API requires `scope.mode`).
  'site search': {
    build: (_options, input) => {
      const scope = (input.body as { scope?: { mode?: string; siteSpaceIds?: unknown; currentSiteSpace?: unknown } } | undefined)?.scope;
      if (scope && scope.mode === undefined) scope.mode = scope.siteSpaceIds !== undefined ? 'specific' : 'default';
    },
  },
  'site integration-scripts': {
    request: listed('listSiteIntegrationScripts', (body) => (Array.isArray(body) ? body : [])),
    emptyHint: () => 'No integration installed on this site injects a script.',
  },
  'site redirect apply': {
    request: listed('bulkUpsertSiteRedirects', (body) => (body as { results?: unknown[] } | undefined)?.results ?? []),
    failWhen: (items: unknown[]) => {
      const failed = items.filter((item) => (item as { status?: string }).status === 'error').length;
      return failed > 0 ? `${failed} of ${items.length} redirects failed (status error); the others were applied` : undefined;
    },
  },
} satisfies Hooks;
