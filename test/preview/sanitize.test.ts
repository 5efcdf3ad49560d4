/** The preview's sanitizer: what comes out is only what the allow-list lets through, whatever goes in. */
import { describe, expect, it } from 'vitest';
import { checkedUrl, sanitizeHtml } from '../../src/preview/sanitize.js';

const keep = { resolveUrl: (url: string) => ({ url }) };
const clean = (html: string) => sanitizeHtml(html, keep);

/** Nothing in `html` that a browser could run or load as a document. */
function expectInert(html: string): void {
  expect(html).not.toMatch(/<\s*(script|style|iframe|object|embed|svg|math|form|base|meta|link|template|textarea|noscript)\b/i);
  // Attribute names, values aside (a title may say "onmouseover=" as text: it is escaped).
  expect(html.replace(/"[^"]*"/g, '""')).not.toMatch(/\son[a-z]+\s*=/i);
  expect(html).not.toMatch(/'/);
  expect(html).not.toMatch(/\s(href|src|action|formaction|data|srcset|style)\s*=\s*"\s*(javascript|vbscript|data|file):/i);
  expect(html).not.toMatch(/\sstyle=/i);
}

const VECTORS = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=//evil/x.js></SCRIPT>',
  '<img src=x onerror=alert(1)>',
  '<img src="x" OnErRoR="alert(1)">',
  '<img src=javascript:alert(1)>',
  '<img src="data:image/svg+xml,<svg onload=alert(1)>">',
  '<img srcset="javascript:alert(1) 1x">',
  '<a href="javascript:alert(1)">x</a>',
  '<a href="JAVASCRIPT:alert(1)">x</a>',
  '<a href="java\tscript:alert(1)">x</a>',
  '<a href="java&#x09;script:alert(1)">x</a>',
  '<a href="&#106;avascript:alert(1)">x</a>',
  '<a href="javascript&colon;alert(1)">x</a>',
  '<a href=" \u0001javascript:alert(1)">x</a>',
  '<a href="vbscript:msgbox(1)">x</a>',
  '<a href="data:text/html,<script>alert(1)</script>">x</a>',
  '<a href="file:///etc/passwd">x</a>',
  '<a href="jar:http://x!/">x</a>',
  '<a href="x" onclick="alert(1)">x</a>',
  '<svg><script>alert(1)</script></svg>',
  '<svg onload=alert(1)>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<form action="javascript:alert(1)"><input type=submit></form>',
  '<button formaction="javascript:alert(1)">x</button>',
  '<details open ontoggle=alert(1)>',
  '<div style="background:url(javascript:alert(1))">x</div>',
  '<base href="javascript:alert(1)//">',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<link rel=stylesheet href="javascript:alert(1)">',
  '<style>@import "javascript:alert(1)";</style>',
  '<template><script>alert(1)</script></template>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<textarea><script>alert(1)</script></textarea>',
  '<xmp><img src=x onerror=alert(1)></xmp>',
  '<p title="&quot; onmouseover=&quot;alert(1)">x</p>',
  '<p title=\'x\' onmouseover=\'alert(1)\'>x</p>',
  '<!--<img src=x onerror=alert(1)>-->',
  '<![CDATA[<img src=x onerror=alert(1)>]]>',
  '<input type="image" src="x" onerror="alert(1)">',
  '<input type="text" autofocus onfocus="alert(1)">',
  '<video><source onerror="alert(1)"></video>',
  '<a href="//evil.example/x">protocol-relative</a>',
  '<a href="\\\\evil.example/x">backslashes</a>',
  '<a href="javascript:alert(1)" title="x">t</a><img/src="x"/onerror="alert(1)">',
  '<div><p><a href="https://ok.example">ok</a></div></p></a>',
];

describe('sanitizeHtml', () => {
  it.each(VECTORS)('leaves nothing that runs in %s', (vector) => {
    expectInert(clean(vector));
  });

  it('keeps the markup pages use, with their allowed attributes only', () => {
    expect(
      clean(
        '<figure><img src="a.png" alt="A" width="300" style="x" class="zoom"><figcaption><p>Cap</p></figcaption></figure><details open><summary>Q</summary><p>A</p></details><mark style="color:red;">m</mark><table><tr><td align="center" colspan="2">c</td></tr></table><h2 id="set up!">Set up</h2>',
      ),
    ).toBe(
      '<figure><img src="a.png" alt="A" width="300" loading="lazy" decoding="async"><figcaption><p>Cap</p></figcaption></figure><details open><summary>Q</summary><p>A</p></details><mark>m</mark><table><tr><td align="center" colspan="2">c</td></tr></table><h2 id="set-up-">Set up</h2>',
    );
  });

  it('keeps only the classes of blocks and highlighting', () => {
    expect(clean('<div class="gb-hint gb-hint-info evil pv-top"><span class="hljs-keyword x">k</span></div>')).toBe(
      '<div class="gb-hint gb-hint-info"><span class="hljs-keyword">k</span></div>',
    );
  });

  it('escapes text and attribute values again, so nothing breaks out', () => {
    expect(clean('<p title="a&quot;b">x &lt;script&gt; &amp; y</p>')).toBe('<p title="a&quot;b">x &lt;script&gt; &amp; y</p>');
  });

  it('drops the target of a link it cannot check, keeping its text, marked broken', () => {
    expect(clean('<a href="javascript:alert(1)">click</a>')).toBe('<a class="gb-broken">click</a>');
  });

  it('drops an image without a source it accepts', () => {
    expect(clean('<p>a<img src="javascript:x">b</p>')).toBe('<p>ab</p>');
  });

  it('makes task boxes inert and buttons plain', () => {
    expect(clean('<input type="checkbox" checked name="x"><input type="text"><button type="submit" formaction="/x">b</button>')).toBe(
      '<input type="checkbox" disabled checked><button type="button">b</button>',
    );
  });

  it('writes a resolved page title into an empty link, and marks external links', () => {
    const resolved = sanitizeHtml('<a href="a.md"></a> <a href="https://x.example">x</a>', {
      resolveUrl: (url) => (url === 'a.md' ? { url: '/s/v/a', title: 'Page <A>' } : { url }),
    });
    expect(resolved).toBe('<a href="/s/v/a">Page &lt;A&gt;</a> <a href="https://x.example" rel="noopener noreferrer nofollow">x</a>');
  });

  it('closes what the input left open', () => {
    expect(clean('<div><p><strong>x')).toBe('<div><p><strong>x</strong></p></div>');
  });
});

describe('checkedUrl', () => {
  it.each([
    ['https://example.com/a?b#c', 'link', 'https://example.com/a?b#c'],
    ['mailto:a@example.com', 'link', 'mailto:a@example.com'],
    ['mailto:a@example.com', 'image', undefined],
    ['#anchor', 'link', '#anchor'],
    ['guide/install.md#setup', 'link', 'guide/install.md#setup'],
    ['../a.png', 'image', '../a.png'],
    ['//cdn.example/x.png', 'image', 'https://cdn.example/x.png'],
    ['  https://a.example  ', 'link', 'https://a.example'],
    ['javascript:alert(1)', 'link', undefined],
    [' JaVaScRiPt:alert(1)', 'link', undefined],
    ['java\nscript:alert(1)', 'link', undefined],
    ['vbscript:x', 'link', undefined],
    ['data:image/png;base64,AAAA', 'image', undefined],
    ['file:///etc/passwd', 'link', undefined],
    ['a:b/c', 'link', undefined],
    ['x\u0000y', 'link', undefined],
    ['', 'link', undefined],
  ] as const)('%j as %s → %j', (url, context, expected) => {
    expect(checkedUrl(url, context)).toBe(expected);
  });
});
