/** GitBook Markdown as the preview renders it: blocks, code, task lists, anchors, limits. */
import { describe, expect, it } from 'vitest';
import { MAX_MARKDOWN, blocksToHtml, renderMarkdown, tagArguments } from '../../src/preview/markdown.js';

const render = (markdown: string) => renderMarkdown(markdown, { resolveUrl: (url) => ({ url: `<${url}>`.replace(/[<>]/g, '~') }) });

describe('renderMarkdown', () => {
  it('renders hints with their style (an unknown style is info)', () => {
    expect(render('{% hint style="danger" %}\nDo **not**.\n{% endhint %}\n')).toBe('<div class="gb-hint gb-hint-danger">\n<p>Do <strong>not</strong>.</p>\n</div>\n');
    expect(render('{% hint style="x\\" onclick=\\"y" %}\nz\n{% endhint %}')).toContain('<div class="gb-hint gb-hint-info">');
  });

  it('renders tabs with a button per tab and the panels, code highlighted', () => {
    const html = render('{% tabs %}\n{% tab title="Node <18>" %}\n```js\nlet a = 1;\n```\n{% endtab %}\n{% tab title="Shell" %}\n```sh\necho hi\n```\n{% endtab %}\n{% endtabs %}\n');
    expect(html).toContain('<div class="gb-tab-list"><button class="gb-tab-button" type="button">Node &lt;18&gt;</button><button class="gb-tab-button" type="button">Shell</button></div>');
    expect(html).toContain('<pre><code class="language-js"><span class="hljs-keyword">let</span> a = <span class="hljs-number">1</span>;\n</code></pre>');
    expect(html).toContain('<span class="hljs-built_in">echo</span>');
    expect(html.match(/class="gb-tab-panel"/g)).toHaveLength(2);
  });

  it('renders code blocks with a title, and unknown languages as plain escaped text', () => {
    expect(render('{% code title="app.ts" %}\n```typescript\nconst x: number = 1;\n```\n{% endcode %}\n')).toMatch(
      /^<div class="gb-code"><div class="gb-code-title">app\.ts<\/div>\n<pre><code class="language-typescript"><span class="hljs-keyword">const<\/span>/,
    );
    expect(render('```klingon\n<b>&\n```\n')).toBe('<pre><code class="language-klingon">&lt;b&gt;&amp;\n</code></pre>\n');
  });

  it('leaves block tags inside code fences alone', () => {
    expect(render('```\n{% hint style="info" %}\n```\n')).toBe('<pre><code>{% hint style=&quot;info&quot; %}\n</code></pre>\n');
  });

  it('renders files, embeds and page links (the link text comes from the target page)', () => {
    expect(render('{% file src=".gitbook/assets/My%20Report.pdf" %}\nThe report\n{% endfile %}')).toBe(
      '<div class="gb-file"><a class="gb-file-link" href="~.gitbook/assets/My%20Report.pdf~">My Report.pdf</a>\n<p>The report</p>\n</div>\n',
    );
    expect(render('{% embed url="https://www.youtube.com/watch?v=x" %}')).toBe(
      '<div class="gb-embed"><a class="gb-embed-link" href="~https://www.youtube.com/watch?v=x~">https://www.youtube.com/watch?v=x</a></div>\n',
    );
    const ref = renderMarkdown('{% content-ref url="guide/install.md" %}\n[install.md](guide/install.md)\n{% endcontent-ref %}', {
      resolveUrl: (url) => ({ url: `/p/${url}`, title: 'Install' }),
    });
    expect(ref).toBe('<div class="gb-content-ref"><a class="gb-content-ref-link" href="/p/guide/install.md">Install</a><span class="gb-content-ref-url">guide/install.md</span>\n</div>\n');
  });

  it('renders task lists with inert boxes and headings with anchors', () => {
    expect(render('- [ ] todo\n- [x] done\n')).toBe(
      '<ul>\n<li class="gb-task"><input type="checkbox" disabled> todo</li>\n<li class="gb-task"><input type="checkbox" disabled checked> done</li>\n</ul>\n',
    );
    expect(render('## Set up & run\n\n## Set up & run\n')).toBe('<h2 id="set-up-run">Set up &amp; run</h2>\n<h2 id="set-up-run-1">Set up &amp; run</h2>\n');
  });

  it('closes a block left open, and leaves a stray closing tag as text', () => {
    expect(render('{% hint style="info" %}\nopen\n')).toBe('<div class="gb-hint gb-hint-info">\n<p>open</p>\n</div>');
    expect(render('text\n{% endhint %}\n')).toBe('<p>text\n{% endhint %}</p>\n');
  });

  it('renders only the first MiB… of a huge page, and says so', () => {
    const html = render(`${'word '.repeat(MAX_MARKDOWN / 5 + 1000)}`);
    expect(html).toContain('The preview shows the first 2 MiB of this page');
  });
});

describe('blocks', () => {
  it('reads tag arguments with either quote and a bare value', () => {
    expect(tagArguments(' style="info" title=\'A "b"\' lineNumbers=true')).toEqual({ style: 'info', title: 'A "b"', linenumbers: 'true' });
    expect(tagArguments(' "../../.gitbook/includes/x.md" ')).toEqual({ '': '../../.gitbook/includes/x.md' });
  });

  it('keeps the indentation of blocks inside list items', () => {
    expect(blocksToHtml('1. Step\n\n   {% hint style="info" %}\n   Inside\n   {% endhint %}\n')).toBe(
      '1. Step\n\n\n   <div class="gb-hint gb-hint-info">\n\n   Inside\n\n   </div>\n\n',
    );
  });
});
