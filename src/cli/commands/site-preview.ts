/**
 * `docsctl site preview SITE`: the site as HTML in a browser, served on 127.0.0.1
 * (live reload), or written as static files with `--out DIR`. Everything it shows is
 * read through the session's transport (src/preview/model.ts), so it works locally,
 * against `docsctl serve` and against any /v1 server. Its code (the renderer,
 * highlight.js, the server) loads only when it runs.
 */
import { ApiError, UsageError } from '../../api/errors.js';
import type { ChangeRequestTarget, PreviewTarget, SiteModel } from '../../preview/model.js';
import type { Preview } from '../../preview/preview.js';
import type { Transport } from '../../transport/types.js';
import type { Session } from '../session.js';

export interface PreviewOptions {
  port?: string;
  changeRequest?: string;
  out?: string;
  open?: boolean;
}

/** The change request `--change-request` names, among the site's spaces: exactly one, or an error saying why not. */
async function changeRequestOf(transport: Transport, site: SiteModel, changeRequest: string): Promise<ChangeRequestTarget> {
  const { findChangeRequest } = await import('../../preview/model.js');
  const found = await findChangeRequest(
    transport,
    site.variants.map((v) => v.spaceId),
    changeRequest,
  );
  if (found.length === 0) {
    throw new ApiError(404, `No change request "${changeRequest}" in the spaces of ${site.title}`, { hint: 'docsctl cr list SPACE lists them' });
  }
  if (found.length > 1) {
    throw new UsageError(`Change request "${changeRequest}" is in several spaces of ${site.title}: ${found.map((cr) => `${cr.spaceId} (${cr.id})`).join(', ')}`, {
      hint: 'pass its id instead of its number',
    });
  }
  return found[0] as ChangeRequestTarget;
}

type OpenAt = { spaceId: string; pageId: string } | undefined;

/** Writes the static copy (`--out DIR`) and says what it wrote. */
async function writeCopy(session: Session, preview: Preview, out: string, transport: Transport, siteTitle: string): Promise<void> {
  const [{ writeStaticCopy }, { fileReader }] = await Promise.all([import('../../preview/static.js'), import('../../preview/files.js')]);
  const copy = await writeStaticCopy(preview, out, { fileBytes: fileReader(transport), concurrency: transport.mode === 'remote' ? 8 : 1 });
  for (const name of copy.missingFiles.slice(0, 10)) await session.info(`warning: could not read file ${name}`);
  if (session.format === 'json' || session.format === 'yaml') {
    await session.printObject({ dir: copy.dir, pages: copy.pages, files: copy.files, missingFiles: copy.missingFiles }, []);
    return;
  }
  await session.printText(`Wrote ${copy.pages} page${copy.pages === 1 ? '' : 's'} and ${copy.files} file${copy.files === 1 ? '' : 's'} of "${siteTitle}" to ${copy.dir} (open ${copy.dir}/index.html)`);
}

/** The preview server on 127.0.0.1:`port`, or a usage error when the port is taken. */
async function listen(session: Session, preview: Preview, transport: Transport, port: number) {
  const [{ startPreviewServer }, { fileReader }] = await Promise.all([import('../../preview/server.js'), import('../../preview/files.js')]);
  try {
    return await startPreviewServer(preview, {
      port,
      fileBytes: fileReader(transport),
      generation: transport.generation?.bind(transport),
      log: (line) => void session.info(line),
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new UsageError(`Port ${port} on 127.0.0.1 is in use`, { hint: 'pass --port N, or --port 0 for any free port' });
    }
    throw error;
  }
}

/** The served URL of `openAt`'s page (`--web` on a page), else the site's root. */
async function urlOf(preview: Preview, site: SiteModel, root: string, openAt: OpenAt): Promise<string> {
  const variant = openAt ? site.variants.find((v) => v.spaceId === openAt.spaceId) : undefined;
  if (!variant || !openAt) return root;
  const [{ servedUrls }, content] = await Promise.all([import('../../preview/urls.js'), preview.content(variant.spaceId)]);
  const page = content.byId.get(openAt.pageId);
  if (page?.type !== 'document') return root;
  return new URL(servedUrls(preview.firstPage).page(variant, page.id === preview.firstPage(variant)?.id ? undefined : page), root).href;
}

function parsePort(port: string | undefined): number {
  const parsed = port === undefined ? 4001 : Number(port);
  if (!Number.isInteger(parsed) || parsed < 0 || parsed > 65535) throw new UsageError(`--port expects 0-65535, got "${port}"`);
  return parsed;
}

/**
 * Serves the preview (or writes it with `out`) until Ctrl-C; `open` opens it in the
 * browser, at `openAt`'s page when given (`--web` on a page).
 */
export async function runPreview(session: Session, target: PreviewTarget, options: PreviewOptions & { openAt?: OpenAt }): Promise<void> {
  const [{ Preview }, { PreviewSource }] = await Promise.all([import('../../preview/preview.js'), import('../../preview/model.js')]);
  const port = parsePort(options.port);
  const transport = await session.transport({ manyRequests: true });

  const site = await new PreviewSource(transport, target, undefined).site();
  const changeRequest = options.changeRequest === undefined ? undefined : await changeRequestOf(transport, site, options.changeRequest);
  const source = new PreviewSource(transport, target, changeRequest);
  const preview = new Preview(source, await source.fingerprint());
  if (options.out !== undefined) return writeCopy(session, preview, options.out, transport, site.title);

  const server = await listen(session, preview, transport, port);
  const url = await urlOf(preview, site, server.url, options.openAt);
  const what = changeRequest ? `change request #${changeRequest.number} of "${site.title}"` : `"${site.title}"`;
  await session.printText(`Previewing ${what} at ${url} (Ctrl-C to stop)`);
  if (options.open) {
    const { openInBrowser } = await import('../web.js');
    await openInBrowser(session, url);
  }
  await new Promise<void>((resolve) => {
    const unsubscribe = session.ctx.onStopSignal(() => {
      unsubscribe();
      resolve();
    });
  });
  await server.close();
}
