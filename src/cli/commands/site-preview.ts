/**
 * `docsctl site preview SITE`: the site as HTML in a browser, served on 127.0.0.1
 * (live reload), or written as static files with `--out DIR`. Everything it shows is
 * read through the session's transport (src/preview/model.ts), so it works locally,
 * against `docsctl serve` and against any /v1 server. Its code (the renderer,
 * highlight.js, the server) loads only when it runs.
 */
import { ApiError, UsageError } from '../../api/errors.js';
import type { ChangeRequestTarget, PreviewTarget, SiteModel } from '../../preview/model.js';
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

/**
 * Serves the preview (or writes it with `out`) until Ctrl-C; `open` opens it in the
 * browser, at `openAt`'s page when given (`--web` on a page).
 */
export async function runPreview(
  session: Session,
  target: PreviewTarget,
  options: PreviewOptions & { openAt?: { spaceId: string; pageId: string } | undefined },
): Promise<void> {
  const [{ Preview }, { PreviewSource }, { fileReader }] = await Promise.all([
    import('../../preview/preview.js'),
    import('../../preview/model.js'),
    import('../../preview/files.js'),
  ]);
  const port = options.port === undefined ? 4001 : Number(options.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port expects 0-65535, got "${options.port}"`);
  const transport = await session.transport({ manyRequests: true });

  const site = await new PreviewSource(transport, target, undefined).site();
  const changeRequest = options.changeRequest === undefined ? undefined : await changeRequestOf(transport, site, options.changeRequest);
  const source = new PreviewSource(transport, target, changeRequest);
  const preview = new Preview(source, await source.fingerprint());
  const fileBytes = fileReader(transport);

  if (options.out !== undefined) {
    const { writeStaticCopy } = await import('../../preview/static.js');
    const copy = await writeStaticCopy(preview, options.out, { fileBytes, concurrency: transport.mode === 'remote' ? 8 : 1 });
    for (const name of copy.missingFiles.slice(0, 10)) await session.info(`warning: could not read file ${name}`);
    if (session.format === 'json' || session.format === 'yaml') {
      await session.printObject({ dir: copy.dir, pages: copy.pages, files: copy.files, missingFiles: copy.missingFiles }, []);
      return;
    }
    await session.printText(`Wrote ${copy.pages} page${copy.pages === 1 ? '' : 's'} and ${copy.files} file${copy.files === 1 ? '' : 's'} of "${site.title}" to ${copy.dir} (open ${copy.dir}/index.html)`);
    return;
  }

  const { startPreviewServer } = await import('../../preview/server.js');
  let server: Awaited<ReturnType<typeof startPreviewServer>>;
  try {
    server = await startPreviewServer(preview, {
      port,
      fileBytes,
      generation: transport.generation?.bind(transport),
      log: (line) => void session.info(line),
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new UsageError(`Port ${port} on 127.0.0.1 is in use`, { hint: 'pass --port N, or --port 0 for any free port' });
    }
    throw error;
  }
  let url = server.url;
  const variant = options.openAt ? site.variants.find((v) => v.spaceId === options.openAt?.spaceId) : undefined;
  if (variant && options.openAt) {
    const [{ servedUrls }, content] = await Promise.all([import('../../preview/urls.js'), preview.content(variant.spaceId)]);
    const page = content.byId.get(options.openAt.pageId);
    if (page?.type === 'document') url = new URL(servedUrls(preview.firstPage).page(variant, page.id === preview.firstPage(variant)?.id ? undefined : page), server.url).href;
  }
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
