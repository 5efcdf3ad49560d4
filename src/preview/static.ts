/**
 * `site preview --out DIR`: the preview written as static files (a CI artifact),
 * with no server: every page of every variant as `<section>/<variant>/<page>/index.html`
 * with relative links (it opens from `file://` or any web host), the files the pages
 * show, the stylesheet and script, and a search index for the search box.
 *
 * Written whole or not at all: into a new directory beside DIR, which then replaces
 * DIR. DIR must be absent, empty, or an earlier copy (it holds `_docsctl/preview.json`);
 * anything else is refused rather than deleted. Every path written is built from safe
 * segments (model.ts) and checked to stay inside the new directory.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { randomBytes } from 'node:crypto';
import { UsageError } from '../api/errors.js';
import { FAVICON, SCRIPT, STYLE } from './assets.js';
import { attr, escapeHtml } from './html.js';
import { contentSecurityPolicy } from './layout.js';
import { type FileEntry, type PageNode, type SiteModel, type Variant, safeSegment } from './model.js';
import { type Preview, newNonce } from './preview.js';
import { PREFIX, staticUrls } from './urls.js';

const MARKER = 'preview.json';

export interface StaticCopy {
  dir: string;
  pages: number;
  files: number;
  missingFiles: string[];
}

/** Refuses a DIR that holds something other than an earlier copy. */
function checkTarget(dir: string): void {
  if (!existsSync(dir)) return;
  if (!statSync(dir).isDirectory()) throw new UsageError(`--out ${dir} is a file`, { hint: 'name a new or empty directory' });
  if (readdirSync(dir).length === 0) return;
  if (!existsSync(join(dir, PREFIX, MARKER))) {
    throw new UsageError(`--out ${dir} is not empty and is not an earlier preview`, { hint: 'name a new or empty directory (an earlier copy is replaced)' });
  }
}

/** Runs `work` over `items`, at most `limit` at a time. */
async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}

interface Writer {
  put(segments: readonly string[], name: string, data: string | Uint8Array): Promise<void>;
}

/** A writer into `work`: every path is checked to stay inside it. */
function writerInto(work: string): Writer {
  return {
    async put(segments, name, data) {
      const path = resolve(work, ...segments, name);
      if (!path.startsWith(work + sep)) throw new Error(`preview: refusing to write outside the copy: ${path}`);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, data);
    },
  };
}

type SearchIndex = Record<string, Array<{ t: string; u: string; x: string }>>;

/** Writes every page of every variant; answers the files they show and the search index. */
async function writePages(preview: Preview, out: Writer, nonce: string, concurrency: number) {
  const site = await preview.model();
  // Every variant's pages are read first, so the navigation links each variant's first page.
  await eachLimited(site.variants, concurrency, async (variant) => {
    await preview.content(variant.spaceId);
  });
  const jobs: Array<{ variant: Variant; page: PageNode | undefined }> = [];
  const index: SearchIndex = {};
  for (const variant of site.variants) {
    const content = await preview.content(variant.spaceId);
    if (content.documents.length === 0) jobs.push({ variant, page: undefined });
    for (const page of content.documents) jobs.push({ variant, page });
    index[variant.key] = [];
  }
  const files = new Map<string, { spaceId: string; file: FileEntry }>();
  let pages = 0;
  await eachLimited(jobs, concurrency, async ({ variant, page }) => {
    const fromRoot = staticUrls(preview.firstPage, []);
    const where = fromRoot.pageDir(variant, page);
    const rendered = await preview.renderPage(variant, page, staticUrls(preview.firstPage, where), 'static', nonce);
    await out.put(where, 'index.html', rendered.html);
    pages++;
    for (const entry of rendered.files) files.set(`${entry.spaceId}/${entry.file.id}`, entry);
    if (page && !page.hidden) index[variant.key]?.push({ t: page.title, u: fromRoot.page(variant, page), x: rendered.text });
  });
  return { site, pages, files: [...files.values()], index };
}

/** The copy's entry: a redirect to the default variant (a link too). */
function rootPage(preview: Preview, site: SiteModel, nonce: string): string {
  const home = site.defaultVariant ? staticUrls(preview.firstPage, []).page(site.defaultVariant, undefined) : undefined;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy"${attr('content', contentSecurityPolicy(nonce, 'meta'))}>
${home ? `<meta http-equiv="refresh"${attr('content', `0; url=${home}`)}>` : ''}
<title>${escapeHtml(site.title)}</title>
</head>
<body>
<p>${home ? `<a${attr('href', home)}>${escapeHtml(site.title)}</a>` : `${escapeHtml(site.title)} shows no space yet.`}</p>
</body>
</html>
`;
}

export async function writeStaticCopy(
  preview: Preview,
  outDir: string,
  options: { fileBytes(file: FileEntry): Promise<Uint8Array | undefined>; concurrency: number },
): Promise<StaticCopy> {
  const dir = resolve(outDir);
  checkTarget(dir);
  const work = join(dirname(dir), `.${basename(dir)}.tmp-${randomBytes(6).toString('hex')}`);
  await mkdir(work, { recursive: true });
  try {
    const out = writerInto(work);
    const nonce = newNonce();
    const { site, pages, files, index } = await writePages(preview, out, nonce, options.concurrency);
    const missingFiles: string[] = [];
    await eachLimited(files, options.concurrency, async ({ spaceId, file }) => {
      const data = await options.fileBytes(file);
      if (data) await out.put([PREFIX, 'files', safeSegment(spaceId), safeSegment(file.id)], file.segment, data);
      else missingFiles.push(file.name);
    });
    await out.put([PREFIX, 'assets'], 'style.css', STYLE);
    await out.put([PREFIX, 'assets'], 'app.js', SCRIPT);
    await out.put([PREFIX, 'assets'], 'favicon.svg', FAVICON);
    await out.put([PREFIX, 'assets'], 'search-index.js', `window.__docsctlSearch = ${JSON.stringify(index).replace(/</g, '\\u003c')};\n`);
    await out.put([], 'index.html', rootPage(preview, site, nonce));
    await out.put([PREFIX], MARKER, `${JSON.stringify({ generator: 'docsctl site preview --out', site: site.id, version: preview.version, pages }, null, 2)}\n`);
    // Swap: the earlier copy (if any) is moved aside, the new one takes its name, the old one goes.
    const old = existsSync(dir) ? join(dirname(dir), `.${basename(dir)}.old-${randomBytes(6).toString('hex')}`) : undefined;
    if (old) await rename(dir, old);
    await rename(work, dir);
    if (old) await rm(old, { recursive: true, force: true });
    return { dir, pages, files: files.length - missingFiles.length, missingFiles };
  } catch (error) {
    await rm(work, { recursive: true, force: true });
    throw error;
  }
}
