/**
 * The preview's first wall against hostile content: HTML (what markdown-it made of a
 * page, raw HTML of the page included) parsed with htmlparser2 and written again from
 * an allow-list. Only listed elements and attributes come out; every text and
 * attribute value is escaped again by us; URLs pass a scheme check (http, https,
 * mailto, or relative, which the caller resolves to a preview URL); script, style,
 * SVG, MathML, frames, objects and forms' controls are dropped with everything in
 * them; `on*` handlers, `style`, `srcset` and every other attribute are dropped.
 * Since the output is written by this module alone, what the browser parses is what
 * was allowed, whatever the parser made of malformed input. The second wall is the
 * Content-Security-Policy of the pages (layout.ts).
 */
import { Parser } from 'htmlparser2';
import { escapeHtml } from './html.js';

/** Where a URL attribute is: the caller resolves relative targets (pages, files) differently for links and images. */
export type UrlContext = 'link' | 'image';

/** A resolved URL: the href/src to write, and for a link to a page, the page's title (written when the link has no text). */
export interface ResolvedUrl {
  url: string;
  title?: string;
  /** Classes to add (e.g. `gb-broken` for a link to a page that does not exist). */
  className?: string;
}

export interface SanitizeOptions {
  /**
   * Resolves a URL that passed the scheme check (http/https/mailto absolute, `#anchor`,
   * or relative). Undefined drops the attribute (a link without a target stays as text).
   */
  resolveUrl(url: string, context: UrlContext): ResolvedUrl | undefined;
}

/** Elements kept, with the attributes each may keep (besides `class` and `title`, allowed on all). */
const ELEMENTS: Record<string, readonly string[]> = {
  a: ['href'],
  abbr: [],
  b: [],
  blockquote: [],
  br: [],
  button: [],
  caption: [],
  code: [],
  col: ['span'],
  colgroup: ['span'],
  dd: [],
  del: [],
  details: ['open'],
  div: ['align'],
  dl: [],
  dt: [],
  em: [],
  figcaption: [],
  figure: [],
  h1: ['id'],
  h2: ['id'],
  h3: ['id'],
  h4: ['id'],
  h5: ['id'],
  h6: ['id'],
  hr: [],
  i: [],
  img: ['src', 'alt', 'width', 'height'],
  input: ['type', 'checked'],
  ins: [],
  kbd: [],
  li: [],
  mark: [],
  ol: ['start'],
  p: ['align'],
  pre: [],
  q: [],
  s: [],
  samp: [],
  section: [],
  small: [],
  span: [],
  strong: [],
  sub: [],
  summary: [],
  sup: [],
  table: [],
  tbody: [],
  td: ['align', 'colspan', 'rowspan'],
  tfoot: [],
  th: ['align', 'colspan', 'rowspan'],
  thead: [],
  tr: [],
  u: [],
  ul: [],
  var: [],
};

/** Elements dropped with everything inside them (their content is code, styling or another document). */
const DROP_WITH_CONTENT = new Set([
  'script',
  'style',
  'template',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'noscript',
  'noembed',
  'noframes',
  'svg',
  'math',
  'textarea',
  'select',
  'option',
  'title',
  'head',
  'xmp',
  'plaintext',
  'video',
  'audio',
  'canvas',
  'portal',
  'link',
  'meta',
  'base',
]);

const VOID = new Set(['br', 'col', 'hr', 'img', 'input', 'wbr']);

/** Classes content may carry: GitBook blocks (rendered by markdown.ts), highlighting, code languages, GitBook's buttons. */
const CLASS = /^(?:gb-[a-z0-9-]+|hljs(?:-[a-z0-9_-]+)*|language-[a-z0-9+#_.-]+|button|primary|secondary|expression)$/;

const SAFE_SCHEMES = new Set(['http:', 'https:', 'mailto:']);

/**
 * The URL as a browser would read it (tabs, newlines and leading control characters
 * ignored), if its scheme is allowed for `context`: http/https (and mailto for links),
 * a fragment, or a relative reference. `javascript:`, `vbscript:`, `data:`, `file:`
 * and every other scheme: undefined.
 */
export function checkedUrl(raw: string, context: UrlContext): string | undefined {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: browsers strip these before reading the scheme
  const url = raw.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '');
  if (url === '') return undefined;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: no control character is a legitimate part of a URL
  if (/[\u0000-\u001f\u007f]/.test(url)) return undefined;
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(url);
  if (scheme) {
    const name = `${(scheme[1] as string).toLowerCase()}:`;
    if (!SAFE_SCHEMES.has(name) || (context === 'image' && name === 'mailto:')) return undefined;
    return url;
  }
  // `\\host` and `/\host` are network paths to browsers, like `//host`: external, https only.
  if (/^[\\/]{2}/.test(url)) return `https://${url.replace(/^[\\/]+/, '')}`;
  // A colon before any slash would read as a scheme once resolved against another base: refuse.
  const firstSlash = url.search(/[/?#]/);
  const colon = url.indexOf(':');
  if (colon !== -1 && (firstSlash === -1 || colon < firstSlash)) return undefined;
  return url;
}

const HEADING_ID = /[^A-Za-z0-9_-]+/g;

interface Open {
  name: string;
  /** Written to the output (an element not allowed is skipped, its content kept). */
  written: boolean;
  /** A link with a page title to write if the link has no text of its own. */
  fallbackText?: string;
  textLength?: number;
}

/**
 * The attributes an allowed element keeps, written (values escaped, URLs checked and
 * resolved); undefined when the element must go (an image without an acceptable source,
 * an input that is not a checkbox).
 */
function attributesOf(name: string, attribs: Record<string, string>, open: Open, options: SanitizeOptions): string | undefined {
  const allowed = ELEMENTS[name] as readonly string[];
  let text = '';
  const classes: string[] = [];
  for (const item of (attribs.class ?? '').split(/\s+/)) if (CLASS.test(item)) classes.push(item);
  if (attribs.title !== undefined) text += ` title="${escapeHtml(attribs.title)}"`;
  for (const key of allowed) {
    const value = attribs[key];
    if (value === undefined) continue;
    if (key === 'href' || key === 'src') {
      const checked = checkedUrl(value, key === 'src' ? 'image' : 'link');
      const resolved = checked === undefined ? undefined : options.resolveUrl(checked, key === 'src' ? 'image' : 'link');
      if (resolved === undefined) {
        if (name === 'img') return undefined; // an image without a source shows nothing
        classes.push('gb-broken');
        continue;
      }
      text += ` ${key}="${escapeHtml(resolved.url)}"`;
      if (resolved.className) classes.push(resolved.className);
      if (name === 'a' && resolved.title !== undefined) open.fallbackText = resolved.title;
      if (name === 'a' && /^[a-z][a-z0-9+.-]*:/i.test(resolved.url)) text += ' rel="noopener noreferrer nofollow"';
    } else if (key === 'id') {
      const id = value.replace(HEADING_ID, '-').slice(0, 100);
      if (id) text += ` id="${escapeHtml(id)}"`;
    } else if (key === 'width' || key === 'height' || key === 'span' || key === 'colspan' || key === 'rowspan' || key === 'start') {
      if (/^\d{1,5}%?$/.test(value.trim())) text += ` ${key}="${value.trim()}"`;
    } else if (key === 'align') {
      const align = value.trim().toLowerCase();
      if (align === 'left' || align === 'right' || align === 'center' || align === 'justify') text += ` align="${align}"`;
    } else if (key === 'open') {
      text += ' open';
    } else if (key === 'alt') {
      text += ` alt="${escapeHtml(value)}"`;
    }
  }
  if (name === 'input') {
    // Task-list boxes only: never a control that takes input or submits.
    if ((attribs.type ?? '').toLowerCase() !== 'checkbox') return undefined;
    text = ` type="checkbox" disabled${attribs.checked !== undefined ? ' checked' : ''}`;
  }
  if (name === 'button') text += ' type="button"';
  if (name === 'img') text += ' loading="lazy" decoding="async"';
  if (classes.length > 0) text = ` class="${escapeHtml([...new Set(classes)].join(' '))}"${text}`;
  return text;
}

/** Writes `html` again from the allow-list (see the module comment). */
export function sanitizeHtml(html: string, options: SanitizeOptions): string {
  const out: string[] = [];
  const stack: Open[] = [];
  /** Depth in the stack of the element whose content is being dropped (-1: none). */
  let dropping = -1;
  let written = 0;

  const parser = new Parser(
    {
      onopentag(name, attribs) {
        const open: Open = { name, written: false };
        stack.push(open);
        if (dropping !== -1) return;
        if (DROP_WITH_CONTENT.has(name)) {
          dropping = stack.length - 1;
          return;
        }
        if (!(name in ELEMENTS)) return;
        const attributes = attributesOf(name, attribs, open, options);
        if (attributes === undefined) return;
        out.push(`<${name}${attributes}>`);
        open.written = !VOID.has(name);
        open.textLength = written;
        if (name === 'img') written += 1; // an image is a link's content: no title written beside it
      },
      ontext(text) {
        if (dropping !== -1 || text === '') return;
        out.push(escapeHtml(text));
        written += text.length;
      },
      onclosetag() {
        const open = stack.pop();
        if (!open) return;
        if (dropping !== -1) {
          if (stack.length === dropping) dropping = -1;
          return;
        }
        if (!open.written) return;
        if (open.fallbackText !== undefined && written === open.textLength) {
          out.push(escapeHtml(open.fallbackText));
          written += open.fallbackText.length;
        }
        out.push(`</${open.name}>`);
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: true },
  );
  parser.write(html);
  parser.end();
  return out.join('');
}
