/**
 * The preview's page shell: the site's sections (and a section's variants) as
 * navigation, the space's page tree as a sidebar, the search box, the page, and
 * previous/next links. Every title, description and path from the content is
 * escaped here; the page body comes from markdown.ts, already sanitized. Scripts run
 * only with the response's nonce, under the Content-Security-Policy below (a header
 * when served, a `<meta>` in the static copy): the second wall after the sanitizer.
 */
import { checkedUrl } from './sanitize.js';
import { attr, escapeHtml } from './html.js';
import type { ChangeRequestTarget, PageNode, SiteModel, SpaceContent, Variant } from './model.js';
import type { PreviewUrls } from './urls.js';

/**
 * No script but ours (by nonce), styles and images from the preview (images also from
 * the web), nothing framed, no plugins. `frame-ancestors` only works as a header:
 * the static copy's `<meta>` leaves it out (browsers warn about it there).
 */
export function contentSecurityPolicy(nonce: string, as: 'header' | 'meta' = 'header'): string {
  const policy = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    "style-src 'self'",
    "img-src 'self' https: http:",
    "font-src 'self'",
    "connect-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ];
  return (as === 'meta' ? policy.filter((directive) => !directive.startsWith('frame-ancestors')) : policy).join('; ');
}

export interface ShellInput {
  site: SiteModel;
  variant: Variant | undefined;
  content: SpaceContent | undefined;
  /** The page shown (its sidebar entry is marked), if any. */
  page: PageNode | undefined;
  /** `<title>` and the heading. */
  title: string;
  description?: string | undefined;
  /** Safe HTML of the main column. */
  body: string;
  urls: PreviewUrls;
  nonce: string;
  mode: 'served' | 'static';
  firstPage(variant: Variant): PageNode | undefined;
  changeRequest: ChangeRequestTarget | undefined;
  /** The content version the page was rendered from (live reload compares it). */
  version: string;
  query?: string;
}

const sectionLabel = (section: { title: string; groups: string[] }) => [...section.groups, section.title].join(' / ');

function sectionsNav(input: ShellInput): string {
  const { site, variant, urls, firstPage } = input;
  if (site.sections.length === 0) {
    if (site.variants.length < 2) return '';
    const links = site.variants.map(
      (v) => `<a class="pv-tab${v === variant ? ' pv-current' : ''}"${attr('href', urls.page(v, firstPage(v)))}${v === variant ? ' aria-current="true"' : ''}>${escapeHtml(v.title)}</a>`,
    );
    return `<nav class="pv-sections" aria-label="Variants">${links.join('')}</nav>`;
  }
  const links = site.sections.map((section) => {
    const target = section.variants.find((v) => v.default) ?? section.variants[0];
    const current = variant?.section === section;
    const href = target ? urls.page(target, firstPage(target)) : urls.home();
    return `<a class="pv-tab${current ? ' pv-current' : ''}"${attr('href', href)}${current ? ' aria-current="true"' : ''}>${escapeHtml(sectionLabel(section))}</a>`;
  });
  return `<nav class="pv-sections" aria-label="Sections">${links.join('')}</nav>`;
}

function variantsNav(input: ShellInput): string {
  const { variant, urls, firstPage } = input;
  const section = variant?.section;
  if (!section || section.variants.length < 2) return '';
  const links = section.variants.map(
    (v) =>
      `<a class="pv-variant${v === variant ? ' pv-current' : ''}"${attr('href', urls.page(v, firstPage(v)))}${v === variant ? ' aria-current="true"' : ''}>${escapeHtml(v.title)}</a>`,
  );
  return `<nav class="pv-variants" aria-label="Variants of ${escapeHtml(section.title)}">${links.join('')}</nav>`;
}

function sidebar(input: ShellInput): string {
  const { variant, content, page, urls, firstPage } = input;
  if (!variant || !content) return '';
  const first = firstPage(variant);
  const item = (node: PageNode): string => {
    if (node.hidden) return '';
    const children = node.children.map(item).join('');
    const list = children ? `<ul>${children}</ul>` : '';
    const label = `${node.emoji ? `${escapeHtml(node.emoji)} ` : ''}${escapeHtml(node.title)}`;
    if (node.type === 'group') return `<li class="pv-group"><span class="pv-group-title">${label}</span>${list}</li>`;
    if (node.type === 'link') {
      const href = node.href === undefined ? undefined : checkedUrl(node.href, 'link');
      return `<li class="pv-link">${href ? `<a${attr('href', href)} rel="noopener noreferrer nofollow">${label} ↗</a>` : `<span>${label}</span>`}${list}</li>`;
    }
    if (node.type === 'computed') return `<li class="pv-computed"><span>${label}</span>${list}</li>`;
    const current = page?.id === node.id;
    const href = urls.page(variant, node.id === first?.id ? undefined : node);
    return `<li><a${attr('href', href)}${current ? ' class="pv-current" aria-current="page"' : ''}>${label}</a>${list}</li>`;
  };
  return `<nav class="pv-sidebar" aria-label="Pages"><ul>${content.roots.map(item).join('')}</ul></nav>`;
}

function pagination(input: ShellInput): string {
  const { variant, content, page, urls, firstPage } = input;
  if (!variant || !content || !page) return '';
  const documents = content.documents.filter((p) => !p.hidden);
  const index = documents.findIndex((p) => p.id === page.id);
  if (index === -1) return '';
  const first = firstPage(variant);
  const link = (target: PageNode | undefined, rel: 'prev' | 'next') =>
    target
      ? `<a class="pv-${rel}" rel="${rel}"${attr('href', urls.page(variant, target.id === first?.id ? undefined : target))}><span class="pv-dim">${rel === 'prev' ? 'Previous' : 'Next'}</span>${escapeHtml(target.title)}</a>`
      : '<span></span>';
  return `<nav class="pv-pagination" aria-label="Previous and next">${link(documents[index - 1], 'prev')}${link(documents[index + 1], 'next')}</nav>`;
}

function banner(input: ShellInput): string {
  const cr = input.changeRequest;
  if (!cr) return '';
  return `<div class="pv-banner">Change request #${escapeHtml(String(cr.number))}: ${escapeHtml(cr.subject || '(no subject)')} <span class="pv-dim">(${escapeHtml(cr.status)}, not merged: this is its content)</span></div>`;
}

/** A whole HTML document. */
export function renderShell(input: ShellInput): string {
  const { site, urls, nonce, mode, variant } = input;
  const csp = mode === 'static' ? `<meta http-equiv="Content-Security-Policy"${attr('content', contentSecurityPolicy(nonce, 'meta'))}>` : '';
  const searchAction = mode === 'served' ? '/_docsctl/search' : '#';
  const search = variant
    ? `<form class="pv-search" role="search"${attr('action', searchAction)} method="get"><input type="hidden" name="v"${attr('value', variant.key)}><input class="pv-search-input" type="search" name="q" placeholder="Search ${escapeHtml(variant.title)}…" aria-label="Search"${attr('value', input.query ?? '')} autocomplete="off"><div class="pv-search-results" hidden></div></form>`
    : '';
  const description = input.description ? `<p class="pv-description">${escapeHtml(input.description)}</p>` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${csp}<meta name="referrer" content="no-referrer">
<title>${escapeHtml(input.title)} · ${escapeHtml(site.title)}</title>
<link rel="icon" type="image/svg+xml"${attr('href', urls.asset('favicon.svg'))}>
<link rel="stylesheet"${attr('href', urls.asset('style.css'))}>
</head>
<body class="pv"${attr('data-pv-mode', mode)}${attr('data-pv-version', input.version)}${attr('data-pv-home', urls.home())}${variant ? attr('data-pv-variant', variant.key) : ''}>
${banner(input)}<header class="pv-top">
<a class="pv-site"${attr('href', urls.home())}>${escapeHtml(site.title)}</a>
${sectionsNav(input)}
${search}
</header>
${variantsNav(input)}
<div class="pv-layout">
${sidebar(input)}
<main class="pv-main">
<article class="pv-content">
<h1 class="pv-title">${escapeHtml(input.title)}</h1>
${description}${input.body}
</article>
${pagination(input)}
</main>
</div>
<footer class="pv-footer">Preview by docsctl${input.content?.revision ? ` · revision ${escapeHtml(input.content.revision)}` : ''}${mode === 'static' ? ' · static copy' : ''}</footer>
${mode === 'static' && variant ? `<script${attr('src', urls.asset('search-index.js'))}${attr('nonce', nonce)}></script>\n` : ''}<script${attr('src', urls.asset('app.js'))}${attr('nonce', nonce)}></script>
</body>
</html>
`;
}
