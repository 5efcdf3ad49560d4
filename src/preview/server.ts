/**
 * `site preview`'s HTTP server: loopback only, GET and HEAD only, every path from the
 * URL looked up in the preview's own maps (never on the file system), bounded per
 * request (headers in 10 s, an answer in 30 s, at most 128 connections, 32 live-reload
 * streams that end after 5 minutes), and pages sent with a strict
 * Content-Security-Policy. A Host header other than the loopback address it listens
 * on is refused, so a web page cannot read the preview through DNS rebinding.
 *
 * Live reload: locally the store's generation is checked every 250 ms (a `stat`), and
 * when it moves, the site's fingerprint (structure and each space's revision) says
 * whether what the preview shows changed; remotely the fingerprint is polled while a
 * browser is watching (1 + spaces requests every 2 s + 0.5 s per space, at most 30 s).
 */
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { escapeHtml } from './html.js';
import { contentSecurityPolicy } from './layout.js';
import { type FileEntry, type SiteModel, safeSegment } from './model.js';
import { FAVICON, SCRIPT, STYLE } from './assets.js';
import { type Preview, newNonce } from './preview.js';
import { PREFIX, type PreviewUrls, servedUrls } from './urls.js';

export interface PreviewServerOptions {
  port: number;
  /** The bytes of a file of the content (undefined: not found). */
  fileBytes(file: FileEntry): Promise<Uint8Array | undefined>;
  /** Local mode: the store's generation (a change is checked when it moves). */
  generation: (() => number) | undefined;
  /** A server failure, for the terminal. */
  log(line: string): void;
}

export interface PreviewServer {
  url: string;
  close(): Promise<void>;
  /** Checks for a change now (tests; the watch loop calls it). */
  check(): Promise<boolean>;
}

const REQUEST_DEADLINE_MS = 30_000;
const MAX_STREAMS = 32;
const STREAM_LIFETIME_MS = 5 * 60_000;
const HEARTBEAT_MS = 20_000;

/** Types a file is shown as in the browser; every other file is downloaded as bytes. */
const INLINE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp', 'image/x-icon', 'image/svg+xml']);

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'no-store',
};

class HttpProblem extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const send = (res: ServerResponse, status: number, type: string, body: string | Uint8Array, headers: Record<string, string> = {}, head = false) => {
  const data = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': type, 'content-length': String(data.byteLength), ...headers });
  res.end(head ? undefined : data);
};
const sendPage = (res: ServerResponse, status: number, html: string, nonce: string, head: boolean) =>
  send(res, status, 'text/html; charset=utf-8', html, { 'content-security-policy': contentSecurityPolicy(nonce) }, head);
const redirect = (res: ServerResponse, location: string) => {
  res.writeHead(302, { ...SECURITY_HEADERS, location, 'content-length': '0' });
  res.end();
};

/** The decoded path segments and query of a request path (the path as sent: never resolved against anything). */
function parsePath(raw: string): { pathname: string; segments: string[]; query: URLSearchParams } {
  if (!raw.startsWith('/')) throw new HttpProblem(400, 'bad request path');
  const mark = raw.indexOf('?');
  const pathname = mark === -1 ? raw : raw.slice(0, mark);
  const query = new URLSearchParams(mark === -1 ? '' : raw.slice(mark + 1));
  try {
    return { pathname, query, segments: pathname.split('/').slice(1).filter((s) => s !== '').map((s) => decodeURIComponent(s)) };
  } catch {
    throw new HttpProblem(400, 'bad percent-encoding in the path');
  }
}

/** The preview's HTTP handling: one instance per `site preview`. */
class PreviewHttp {
  readonly streams = new Set<ServerResponse>();
  port = 0;
  private readonly urls: PreviewUrls;

  constructor(
    private readonly preview: Preview,
    private readonly options: PreviewServerOptions,
  ) {
    this.urls = servedUrls(preview.firstPage);
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD') {
      send(res, 405, 'text/plain; charset=utf-8', 'the preview answers GET and HEAD only\n', { allow: 'GET, HEAD', connection: 'close' });
      return;
    }
    const head = method === 'HEAD';
    const host = req.headers.host ?? '';
    if (host !== `127.0.0.1:${this.port}` && host !== `localhost:${this.port}`) {
      send(res, 421, 'text/plain; charset=utf-8', 'this preview answers on its loopback address only\n');
      return;
    }
    const { pathname, segments, query } = parsePath(req.url ?? '/');
    if (segments[0] === PREFIX) return this.own(req, res, segments.slice(1), query, head);
    // Browsers ask for it whatever the page says: no content, rather than an error in the console.
    if (segments.length === 1 && segments[0] === 'favicon.ico') return send(res, 204, 'image/x-icon', '', {}, head);
    return this.page(res, pathname, segments, head);
  }

  /** /_docsctl/…: assets, files, search, live reload. */
  private async own(req: IncomingMessage, res: ServerResponse, [kind, ...rest]: string[], query: URLSearchParams, head: boolean): Promise<void> {
    const asset = kind === 'assets' && rest.length === 1 ? ASSETS[rest[0] as string] : undefined;
    if (asset) return send(res, 200, asset.type, asset.body, {}, head);
    if (kind === 'events' && rest.length === 0) return this.events(req, res, query);
    const site = await this.preview.model();
    if (kind === 'files') return this.file(res, site, rest, head);
    if (kind === 'search' && rest.length === 0) {
      const variant = site.variantByKey.get(query.get('v') ?? '') ?? site.defaultVariant;
      if (!variant) throw new HttpProblem(404, 'the site shows no space');
      const nonce = newNonce();
      return sendPage(res, 200, await this.preview.renderSearch(variant, query.get('q') ?? '', this.urls, nonce), nonce, head);
    }
    throw new HttpProblem(404, 'nothing here');
  }

  /** A page: /<section>/<variant>/<page path>, the variant's root, a section's root, or the site's. */
  private async page(res: ServerResponse, pathname: string, segments: string[], head: boolean): Promise<void> {
    const { preview, urls } = this;
    const site = await preview.model();
    const nonce = newNonce();
    if (segments.length === 0) {
      if (site.defaultVariant) return redirect(res, urls.page(site.defaultVariant, undefined));
      return sendPage(res, 404, await preview.renderNotFound(undefined, urls, nonce, '/ (the site shows no space yet)'), nonce, head);
    }
    const prefix = site.sections.length > 0 ? 2 : 1;
    const variant = site.variantByKey.get(segments.slice(0, prefix).join('/'));
    if (!variant) {
      const section = prefix === 2 && segments.length === 1 ? site.sections.find((s) => s.segment === segments[0]) : undefined;
      const target = section ? (section.variants.find((v) => v.default) ?? section.variants[0]) : undefined;
      if (target) return redirect(res, urls.page(target, undefined));
      return sendPage(res, 404, await preview.renderNotFound(site.defaultVariant, urls, nonce, pathname), nonce, head);
    }
    const rest = segments.slice(prefix);
    const page = await preview.pageAt(variant, rest);
    if (!page && rest.length > 0) return sendPage(res, 404, await preview.renderNotFound(variant, urls, nonce, pathname), nonce, head);
    sendPage(res, 200, (await preview.renderPage(variant, page, urls, 'served', nonce)).html, nonce, head);
  }

  /** A file of a space the site shows, by its id and name. */
  private async file(res: ServerResponse, site: SiteModel, parts: string[], head: boolean): Promise<void> {
    const [spaceSegment, fileSegment, name] = parts;
    const spaceId = parts.length === 3 ? site.variants.find((v) => safeSegment(v.spaceId) === spaceSegment)?.spaceId : undefined;
    if (spaceId === undefined) throw new HttpProblem(404, 'no such file');
    const content = await this.preview.content(spaceId);
    const byId = content.filesById.get(fileSegment as string);
    const file = byId && safeSegment(byId.id) === fileSegment ? byId : content.files.find((f) => safeSegment(f.id) === fileSegment);
    if (!file || file.segment !== name) throw new HttpProblem(404, 'no such file');
    const data = await this.options.fileBytes(file);
    if (!data) throw new HttpProblem(404, `the bytes of ${file.name} could not be read`);
    const type = file.contentType.toLowerCase().split(';')[0]?.trim() ?? '';
    const inline = INLINE_TYPES.has(type);
    send(
      res,
      200,
      inline ? type : 'application/octet-stream',
      data,
      {
        // A file opened on its own runs nothing (an SVG with a script): no script, sandboxed.
        'content-security-policy': "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox",
        'content-disposition': `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(file.name)}`,
        'cache-control': 'private, max-age=60',
      },
      head,
    );
  }

  /** Live reload: a server-sent event stream that says `reload` once the content is newer than `since`. */
  private events(req: IncomingMessage, res: ServerResponse, query: URLSearchParams): void {
    const { streams, preview } = this;
    if (query.get('since') !== preview.version) {
      res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'text/event-stream' });
      res.end(`event: reload\ndata: ${preview.version}\n\n`);
      return;
    }
    if (streams.size >= MAX_STREAMS) {
      send(res, 503, 'text/plain; charset=utf-8', 'too many live-reload streams\n', { 'retry-after': '10' });
      return;
    }
    res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'text/event-stream', connection: 'keep-alive' });
    res.write('retry: 2000\n\n');
    // A stream lives past the server's idle timeout, with heartbeats, and ends after a while (the browser reconnects).
    req.socket.setTimeout(0);
    streams.add(res);
    const heartbeat = setInterval(() => res.write(': ping\n\n'), HEARTBEAT_MS);
    const lifetime = setTimeout(() => res.end(), STREAM_LIFETIME_MS);
    heartbeat.unref();
    lifetime.unref();
    res.on('close', () => {
      streams.delete(res);
      clearInterval(heartbeat);
      clearTimeout(lifetime);
    });
  }

  /** Answers a request within the deadline; a failure becomes an error page (a 5xx is logged). */
  respond(req: IncomingMessage, res: ServerResponse): void {
    // Nothing is read from a request body: drain it.
    req.resume();
    const deadline = setTimeout(() => {
      if (!res.headersSent) send(res, 504, 'text/plain; charset=utf-8', 'the preview took too long to answer\n', { connection: 'close' });
    }, REQUEST_DEADLINE_MS);
    deadline.unref();
    this.handle(req, res)
      .catch((error: unknown) => {
        if (res.headersSent) {
          res.destroy();
          return;
        }
        const problem = error instanceof HttpProblem ? error : undefined;
        const status = problem?.status ?? ((error as { status?: number }).status === 404 ? 404 : 502);
        const message = error instanceof Error ? error.message : String(error);
        if (!problem) this.options.log(`preview: ${req.method} ${req.url}: ${message}`);
        send(res, status, 'text/html; charset=utf-8', `<!doctype html><meta charset="utf-8"><title>Preview error</title><p>${escapeHtml(message)}</p>\n`, {
          'content-security-policy': "default-src 'none'",
        });
      })
      .finally(() => clearTimeout(deadline));
  }

  /** Checks whether the content changed; if so, later requests see it and every open page is told to reload. */
  async check(): Promise<boolean> {
    try {
      const version = await this.preview.source.fingerprint();
      if (version === this.preview.version) return false;
      this.preview.reset(version);
      for (const stream of this.streams) stream.end(`event: reload\ndata: ${version}\n\n`);
      this.streams.clear();
      return true;
    } catch (error) {
      this.options.log(`preview: could not check for changes: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    }
  }
}

const ASSETS: Record<string, { type: string; body: string }> = {
  'style.css': { type: 'text/css; charset=utf-8', body: STYLE },
  'app.js': { type: 'text/javascript; charset=utf-8', body: SCRIPT },
  'favicon.svg': { type: 'image/svg+xml', body: FAVICON },
};

/** Calls `tick` every `ms` (after the previous one ended) until the returned stop is called. */
function every(ms: number, tick: () => Promise<void>): () => void {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const schedule = () => {
    if (!stopped) timer = setTimeout(() => void tick().finally(schedule), ms);
  };
  schedule();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}

export async function startPreviewServer(preview: Preview, options: PreviewServerOptions): Promise<PreviewServer> {
  const http = new PreviewHttp(preview, options);
  const server = createServer((req, res) => http.respond(req, res));
  server.headersTimeout = 10_000;
  server.requestTimeout = REQUEST_DEADLINE_MS + 5_000;
  server.keepAliveTimeout = 5_000;
  server.maxConnections = 128;
  server.setTimeout(60_000);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  http.port = (server.address() as AddressInfo).port;

  // One check at a time; locally when the store's generation moves, remotely while a browser watches.
  let checking: Promise<boolean> | undefined;
  const check = (): Promise<boolean> => {
    checking ??= http.check().finally(() => {
      checking = undefined;
    });
    return checking;
  };
  let stop: () => void;
  if (options.generation) {
    const generation = options.generation;
    let seen = generation();
    stop = every(250, async () => {
      const now = generation();
      if (now === seen) return;
      seen = now;
      await check();
    });
  } else {
    const site = await preview.model().catch(() => undefined);
    const spaces = new Set(site?.variants.map((v) => v.spaceId) ?? []).size;
    stop = every(Math.min(30_000, 2_000 + 500 * spaces), async () => {
      if (http.streams.size > 0) await check();
    });
  }

  return {
    url: `http://127.0.0.1:${http.port}/`,
    check,
    async close() {
      stop();
      for (const stream of http.streams) stream.end();
      http.streams.clear();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
