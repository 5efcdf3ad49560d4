/** `docsctl integration …`: integrations and their installations (API doc §4.13), declared with the routes (src/api/routes/integrations.ts); publishing from a manifest here. */
import { readTextInput } from '../io.js';
import type { Hooks } from '../derive.js';
import { UsageError } from '../../api/errors.js';
import { idOf, resolveOrganization } from '../operation.js';

export const hooks = {
  // The answer is one entry per integration with its blocks: a table shows one row per block.
  'space integration-blocks': {
    after: async (session, body) => {
      const { columns } = await import('../../output/columns.js');
      if (session.format !== 'table' && session.format !== 'tsv') return session.printObject(body, columns.integrationBlock);
      const entries = Array.isArray(body) ? (body as Array<{ name: string; blocks: unknown[] }>) : [];
      const rows = entries.flatMap((entry) => entry.blocks.map((block) => ({ name: entry.name, block })));
      if (rows.length === 0 && session.format === 'table') return session.info('No integration blocks: install an integration with blocks on the space (docsctl integration install).');
      return session.printList(rows, columns.integrationBlock);
    },
  },
  'integration render': {
    flags: [
      { flags: '--space <space>', description: 'render it in a document of this space (id or title)' },
      { flags: '--site <siteId>', description: "render it in this site's installation configuration" },
      { flags: '--account', description: "render it in the organization's installation configuration" },
      { flags: '--org <organizationId>', description: 'the organization of --account (default: DOCSCTL_ORG, the profile, or your only one)', aliases: ['--organization'] },
      { flags: '--prop <name=value...>', description: 'a prop of the block (repeatable)' },
      { flags: '--url <url>', description: 'render it as for this URL pasted in the editor (@link.unfurl)' },
    ],
    build: async (options, input, session) => {
      const where = [options.space, options.site, options.account].filter((value) => value !== undefined && value !== false);
      if (where.length !== 1) throw new UsageError('Pass exactly one of --space SPACE, --site SITE or --account: where the block renders');
      const props: Record<string, string> = {};
      for (const text of (options.prop as string[] | undefined) ?? []) {
        const at = text.indexOf('=');
        if (at <= 0) throw new UsageError(`--prop expects NAME=VALUE, got "${text}"`);
        props[text.slice(0, at)] = text.slice(at + 1);
      }
      const context =
        typeof options.space === 'string'
          ? { type: 'document', spaceId: await idOf(session, 'spaceId', options.space), editable: false, theme: 'light' }
          : typeof options.site === 'string'
            ? { type: 'configuration_site', siteId: options.site, theme: 'light' }
            : { type: 'configuration_account', organizationId: typeof options.org === 'string' ? options.org : await resolveOrganization(session, undefined), theme: 'light' };
      input.body = {
        ...(input.body as object),
        props,
        context,
        ...(typeof options.url === 'string' ? { action: { action: '@link.unfurl', url: options.url } } : {}),
      };
    },
    // A table or TSV shows what a reader would see: the card's title and hint, then the Markdown.
    after: async (session, body) => {
      const { columns } = await import('../../output/columns.js');
      if (session.format !== 'table' && session.format !== 'tsv') return session.printObject(body, columns.renderedBlock);
      return session.printText(renderedText(body));
    },
  },
  'integration publish': {
    flags: [
      { flags: '--file <file>', description: 'the manifest: gitbook-manifest.yaml or .json', required: true },
      {
        flags: '--org <organizationId>',
        description: "publishing organization (default: the manifest's, else DOCSCTL_ORG, the profile, or your only one)",
        aliases: ['--organization'],
      },
    ],
    // The integration's name comes from the manifest.
    build: async (options, input, session) => {
      const path = options.file as string;
      const { manifestToPublish } = await import('./integration-manifest.js');
      const { name, body: publish } = manifestToPublish(path, await readTextInput(session.ctx.io.in, path, '--file'));
      input.params = { ...(input.params as object), integrationName: name };
      const organization =
        typeof options.org === 'string' ? options.org : typeof publish.organization === 'string' ? publish.organization : await resolveOrganization(session, undefined);
      input.body = { ...publish, organization };
    },
  },
} satisfies Hooks;

type Rendered = { type?: string; element?: { children?: Array<{ type?: string; title?: string; hint?: string; content?: string; children?: Array<{ content?: string }> }> }; returnValue?: unknown };

/** The text of a rendered block: a card's title, hint and Markdown; a Markdown element's text; a completion's return value. */
function renderedText(body: unknown): string {
  const rendered = body as Rendered;
  if (rendered.type === 'complete') return `complete: ${JSON.stringify(rendered.returnValue ?? {})}`;
  return (rendered.element?.children ?? [])
    .flatMap((child) => (child.type === 'card' ? [child.title, child.hint, ...(child.children ?? []).map((inner) => inner.content)] : [child.content]))
    .filter((line): line is string => typeof line === 'string' && line !== '')
    .join('\n\n');
}
