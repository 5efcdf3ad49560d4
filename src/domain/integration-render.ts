/**
 * `renderIntegrationUIWithPost`/`WithGet`: GitBook runs the integration's code to render one
 * of its components. docsctl runs no integration code, so the answer is decided by what the
 * published integration declares for the block `componentId` (its `blocks`), the same for the
 * same request:
 * - the block with a `markdown.codeblock`: a block element holding a Markdown code block of
 *   that syntax whose body is the prop `markdown.body` names (as GitBook's Markdown export
 *   writes such a block);
 * - any other block: a block element holding a card titled like the block, its description as
 *   the hint, and a Markdown line per prop (`**name**: value`; a `url` prop as a link);
 * - action `@link.unfurl` (a URL pasted in the editor) sets the `url` prop; `@ui.modal.close`
 *   completes the component with the action's `returnValue`; any other action is kept in the
 *   state as `lastAction`, so a client sees which action produced the element.
 * Where it renders must be readable by the caller and covered by an installation of the
 * integration (a space or a site: installed on it or on all of its organization's; an
 * account configuration: installed on the organization): 404 otherwise, naming what is
 * missing. GET takes the same request as lz-string's `compressToEncodedURIComponent` of its
 * JSON and is cacheable (Cache-Control); POST is not.
 */
import { badRequest, notFound } from '../api/errors.js';
import type * as routes from '../api/routes/integrations.js';
import type { StoreReader } from '../store/types.js';
import { type HandlerContext, Reply, implementer } from './handler.js';
import { coveringInstallationsOf, orgInstallationId } from './integration-records.js';
import { getIntegration } from './integrations.js';
import { orgAccess, spaceAccess } from './permissions.js';
import { getSite } from './sites/site-records.js';
import { lzUriDecompressedLength } from '../util/lz-string-bound.js';

interface RenderRequest {
  componentId: string;
  props: Record<string, unknown>;
  state?: Record<string, unknown> | undefined;
  context: { type: string; spaceId?: string | undefined; siteId?: string | undefined; organizationId?: string | undefined };
  action?: { action: string; [key: string]: unknown } | undefined;
}

interface DeclaredBlock {
  id: string;
  title: string;
  description?: string;
  markdown?: { codeblock: string; body: string };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The most text the GET form's request may decompress to (its output grows with the square of the URL). */
export const MAX_RENDER_REQUEST_CHARS = 1024 * 1024;

/** The GET form's request: lz-string, then JSON, then the POST body's shape (400 naming what is wrong). */
async function decodeRequest(compressed: string): Promise<RenderRequest> {
  const size = lzUriDecompressedLength(compressed, MAX_RENDER_REQUEST_CHARS);
  if (size === undefined) throw badRequest('Invalid request: not lz-string compressed JSON (compressToEncodedURIComponent of the render request)');
  if (size === Infinity) {
    throw badRequest(`Invalid request: it decompresses to more than ${MAX_RENDER_REQUEST_CHARS} characters; send a smaller request, or the POST form`);
  }
  const { default: lz } = await import('lz-string');
  const text = lz.decompressFromEncodedURIComponent(compressed);
  if (!text) throw badRequest('Invalid request: not lz-string compressed JSON (compressToEncodedURIComponent of the render request)');
  let request: unknown;
  try {
    request = JSON.parse(text);
  } catch {
    throw badRequest('Invalid request: its decompressed text is not JSON');
  }
  if (!isObject(request) || typeof request.componentId !== 'string' || request.componentId === '') throw badRequest('Invalid request: componentId must be a string');
  if (!isObject(request.props)) throw badRequest('Invalid request: props must be an object');
  if (request.state !== undefined && !isObject(request.state)) throw badRequest('Invalid request: state must be an object');
  if (!isObject(request.context) || typeof request.context.type !== 'string') throw badRequest('Invalid request: context must be an object with a type');
  if (request.action !== undefined && (!isObject(request.action) || typeof request.action.action !== 'string')) throw badRequest('Invalid request: action must be an object with an action');
  return request as unknown as RenderRequest;
}

/** The organization where it renders, after checking the caller may read it and the integration is installed there. */
function requireInstalledWhere(ctx: HandlerContext, name: string, context: RenderRequest['context']): void {
  const { type } = context;
  if (type === 'document' || type === 'configuration_space') {
    if (!context.spaceId) throw badRequest(`Invalid context: a ${type} context needs spaceId`);
    const { space } = spaceAccess(ctx.tx, context.spaceId, ctx.actor.userId, ctx.clock());
    if (!coveringInstallationsOf(ctx.tx, space.organization, 'space', space.id).some((found) => found.integration === name)) {
      throw notFound(`Integration ${name} is not installed on space ${space.id} (docsctl integration space install ${name} INSTALLATION ${space.id})`);
    }
    return;
  }
  if (type === 'configuration_site') {
    if (!context.siteId) throw badRequest('Invalid context: a configuration_site context needs siteId');
    const site = getSite(ctx.tx, context.siteId);
    if (!site) throw notFound(`Site ${context.siteId} not found`);
    orgAccess(ctx.tx, site.organization, ctx.actor.userId);
    if (!coveringInstallationsOf(ctx.tx, site.organization, 'site', context.siteId).some((found) => found.integration === name)) {
      throw notFound(`Integration ${name} is not installed on site ${context.siteId}`);
    }
    return;
  }
  if (type === 'configuration_account') {
    if (!context.organizationId) throw badRequest('Invalid context: a configuration_account context needs organizationId');
    const { org } = orgAccess(ctx.tx, context.organizationId, ctx.actor.userId);
    if (orgInstallationId(ctx.tx, org.id, name) === undefined) throw notFound(`Integration ${name} is not installed on organization ${org.id}`);
    return;
  }
  throw badRequest(`Invalid context type "${type}": docsctl renders blocks in document, configuration_space, configuration_site and configuration_account contexts`);
}

function requireBlock(tx: StoreReader, name: string, componentId: string): DeclaredBlock {
  const integration = getIntegration(tx, name);
  if (!integration) throw notFound(`Integration ${name} not found`);
  const blocks = integration.blocks as DeclaredBlock[];
  const block = blocks.find((candidate) => candidate.id === componentId);
  if (!block) {
    throw notFound(`Integration ${name} has no block "${componentId}"${blocks.length > 0 ? `: its blocks are ${blocks.map((b) => b.id).join(', ')}` : ': it declares no blocks'}`);
  }
  return block;
}

const propText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
/** Markdown text of a value: characters that would format escaped. */
const markdownText = (text: string) => text.replace(/[\\`*_[\]<>#|]/g, (c) => `\\${c}`);

function elementOf(block: DeclaredBlock, props: Record<string, unknown>) {
  if (block.markdown) {
    const body = propText(props[block.markdown.body] ?? '');
    const fence = '`'.repeat(Math.max(3, ...Array.from(body.matchAll(/`+/g), (match) => match[0].length + 1)));
    return { type: 'block', children: [{ type: 'markdown', content: `${fence}${block.markdown.codeblock}\n${body}\n${fence}` }] };
  }
  const lines = Object.entries(props).map(([key, value]) => {
    const text = propText(value);
    return key === 'url' && /^https?:\/\//i.test(text) ? `**url**: <${text.replace(/[<>\s]/g, encodeURIComponent)}>` : `**${markdownText(key)}**: ${markdownText(text)}`;
  });
  return {
    type: 'block',
    children: [{ type: 'card', title: block.title, ...(block.description ? { hint: block.description } : {}), children: lines.length > 0 ? [{ type: 'markdown', content: lines.join('\n\n') }] : [] }],
  };
}

/** The answer for a request (see the module comment). */
function render(ctx: HandlerContext, name: string, request: RenderRequest) {
  const block = requireBlock(ctx.tx, name, request.componentId);
  requireInstalledWhere(ctx, name, request.context);
  const { action } = request;
  if (action?.action === '@ui.modal.close') return { type: 'complete', returnValue: isObject(action.returnValue) ? action.returnValue : {} };
  let props = request.props;
  let state = request.state ?? {};
  if (action?.action === '@link.unfurl') {
    if (typeof action.url !== 'string') throw badRequest('Invalid action: @link.unfurl needs a url');
    props = { ...props, url: action.url };
  } else if (action) {
    state = { ...state, lastAction: action.action };
  }
  return { type: 'element', element: elementOf(block, props), state, props, canAccessVisitorClaims: false };
}

const on = implementer<typeof routes>();

export const renderHandlers = {
  ...on('renderIntegrationUIWithPost', (ctx, { params, body }) => new Reply(200, render(ctx, params.integrationName, body), { 'Cache-Control': 'private, no-store' })),
  ...on('renderIntegrationUIWithGet', async (ctx, { params, query }) => {
    const request = await decodeRequest(query.request);
    // The same request renders the same element until the integration or its installations change: a short private cache.
    return new Reply(200, render(ctx, params.integrationName, request), { 'Cache-Control': 'private, max-age=60' });
  }),
};


