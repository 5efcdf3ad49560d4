/**
 * A site to preview, built through the binary from a clean HOME: two sections
 * (Handbook, API Reference), GitBook blocks, a real PNG image, a PDF, links between
 * pages and between spaces, and a page of hostile content (script, `javascript:`,
 * `data:` and `vbscript:` URLs, event attributes, SVG with script, a title and a
 * section title that try to break out of the navigation).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { type ResultPromise, execa } from 'execa';
import { bin } from './binary.js';
import { tempDir } from './stores.js';

/** A valid PNG of `width`×`height` pixels of one colour (so a browser decodes it: naturalWidth > 0). */
export function png(width: number, height: number, rgb: [number, number, number]): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (data: Buffer) => {
    let c = 0xffffffff;
    for (const byte of data) c = (crcTable[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(pixels)), chunk('IEND', Buffer.alloc(0))]);
}

/** Everything a hostile page tries; each payload would call alert() or request /_pwned/… if it ran. */
export const HOSTILE_MARKDOWN = `Nothing below may run.

<script>fetch('/_pwned/script');alert('script')</script>

<img src="logo.png" onerror="fetch('/_pwned/onerror');alert('onerror')">

[markdown javascript link](javascript:fetch('/_pwned/js-link'))

<a href="javascript:fetch('/_pwned/html-js-link')">html javascript link</a>

<a href="JaVaScRiPt&colon;fetch('/_pwned/entity-link')">entity javascript link</a>

<a href="java&#x09;script:fetch('/_pwned/tab-link')">tab javascript link</a>

<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgnZGF0YScpPC9zY3JpcHQ+">data link</a>

<a href="vbscript:msgbox('vb')">vbscript link</a>

<iframe src="javascript:alert('iframe')"></iframe>

<svg onload="fetch('/_pwned/svg-onload')"><script>fetch('/_pwned/svg-script')</script></svg>

<div class="hover-me" onmouseover="fetch('/_pwned/mouseover')" style="background:red">hover here</div>

<details open ontoggle="fetch('/_pwned/ontoggle')"><summary>details</summary>body</details>

<object data="javascript:alert('object')"></object><embed src="javascript:alert('embed')">

<form action="javascript:fetch('/_pwned/form')"><button formaction="javascript:fetch('/_pwned/formaction')">submit me</button></form>

<math><mtext><table><mglyph><style><img src=x onerror="fetch('/_pwned/mxss')"></style></mglyph></table></mtext></math>

<img src="data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' onload='alert(1)'/>">

<base href="javascript:alert('base')//">

<meta http-equiv="refresh" content="0;url=javascript:alert('refresh')">

<a href="  javascript:fetch('/_pwned/spaces')">spaced javascript link</a>

<p title="&quot; onmouseover=&quot;fetch('/_pwned/attr')">attribute breakout</p>

![an svg with a script](.gitbook/assets/evil.svg)

[the svg file](.gitbook/assets/evil.svg)

{% embed url="javascript:fetch('/_pwned/embed')" %}

{% file src="javascript:fetch('/_pwned/file')" %}

{% content-ref url="javascript:fetch('/_pwned/content-ref')" %}
[x](javascript:fetch('/_pwned/content-ref-inner'))
{% endcontent-ref %}

{% tabs %}
{% tab title="<img src=x onerror=fetch('/_pwned/tab-title')>" %}
tab body
{% endtab %}
{% endtabs %}

{% hint style="info\\" onmouseover=\\"fetch('/_pwned/hint')" %}
hint body
{% endhint %}
`;

export const EVIL_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40" onload="fetch('/_pwned/svg-file-onload')"><script>fetch('/_pwned/svg-file-script');alert('svg')</script><rect width="40" height="40" fill="purple"/></svg>\n`;

/** The title the hostile page has in the navigation (SUMMARY.md link text). */
export const EVIL_TITLE = "<img src=x onerror=fetch('/_pwned/title')> Evil";
export const EVIL_SECTION_TITLE = '</nav><script>fetch("/_pwned/section")</script>';

export interface PreviewSite {
  env: Record<string, string>;
  home: string;
  siteId: string;
  handbook: string;
  api: string;
  handbookDir: string;
  docsctl(args: string[], input?: string): Promise<{ stdout: string; stderr: string; exitCode: number }>;
}

function writeTree(root: string, files: Record<string, string | Buffer>): void {
  for (const [path, data] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), data);
  }
}

export function handbookFiles(installText = 'Run the installer.'): Record<string, string | Buffer> {
  return {
    'README.md': `# Welcome

Start **here**. Read [the guide](guide/README.md), then [install](guide/install.md#setup).

![The logo](.gitbook/assets/logo.png)

{% hint style="warning" %}
Back up your data first.
{% endhint %}

{% tabs %}
{% tab title="JavaScript" %}
\`\`\`javascript
const answer = 42;
console.log(answer);
\`\`\`
{% endtab %}

{% tab title="Python" %}
\`\`\`python
def answer():
    return 42
\`\`\`
{% endtab %}
{% endtabs %}

{% file src=".gitbook/assets/report.pdf" %}
The yearly report
{% endfile %}

{% content-ref url="guide/install.md" %}
[install.md](guide/install.md)
{% endcontent-ref %}
`,
    'SUMMARY.md': `# Table of contents

* [Welcome](README.md)
* [Guide](guide/README.md)
  * [Install](guide/install.md)
* [${EVIL_TITLE}](evil.md)

## Reference

* [Glossary](reference/glossary.md)
`,
    'guide/README.md': '# Guide\n\nThe guide. Go [back home](../README.md).\n',
    'guide/install.md': `# Install\n\n## Setup\n\n${installText}\n\n![A screenshot](../.gitbook/assets/logo.png)\n\nSee the [glossary](../reference/glossary.md).\n`,
    'reference/glossary.md': '# Glossary\n\n| Term | Meaning |\n|---|---|\n| Space | A set of pages |\n',
    'evil.md': `# Evil\n\n${HOSTILE_MARKDOWN}`,
    '.gitbook/assets/logo.png': png(120, 40, [9, 105, 218]),
    '.gitbook/assets/report.pdf': '%PDF-1.4\n% docsctl test\n',
    '.gitbook/assets/evil.svg': EVIL_SVG,
  };
}

/** Builds the site in a fresh store (local mode). */
export async function buildPreviewSite(): Promise<PreviewSite> {
  const home = tempDir('docsctl-preview-');
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    XDG_DATA_HOME: join(home, 'data'),
    XDG_CONFIG_HOME: join(home, 'config'),
    DOCSCTL_STORE: join(home, 'store'),
    NO_COLOR: '1',
  };
  const docsctl = async (args: string[], input?: string) => {
    const result = await execa('node', [bin, ...args], { env, extendEnv: false, reject: false, timeout: 120_000, input: input ?? '' });
    return { stdout: result.stdout, stderr: result.stderr, exitCode: result.exitCode ?? -1 };
  };
  const ok = async (args: string[]) => {
    const result = await docsctl(args);
    if (result.exitCode !== 0) throw new Error(`docsctl ${args.join(' ')} exited ${result.exitCode}: ${result.stderr}`);
    return result.stdout.trim();
  };
  await ok(['init', '--org', 'Acme']);
  const handbookDir = join(home, 'handbook');
  writeTree(handbookDir, handbookFiles());
  const apiDir = join(home, 'api');
  const handbook = await ok(['space', 'create', '--title', 'Handbook', '--format', 'ids']);
  writeTree(apiDir, {
    'README.md': `# API\n\nThe API reference. Installing first? See [Install](https://app.gitbook.com/s/${handbook}/guide/install).\n\n\`\`\`bash\ncurl -H "Authorization: Bearer $TOKEN" https://api.example.com/v1/orgs\n\`\`\`\n`,
    'SUMMARY.md': '# Table of contents\n\n* [API](README.md)\n* [Errors](errors.md)\n',
    'errors.md': '# Errors\n\nErrors are JSON.\n',
  });
  const api = await ok(['space', 'create', '--title', 'API Reference', '--format', 'ids']);
  await ok(['git', 'import', handbook, handbookDir, '--quiet']);
  await ok(['git', 'import', api, apiDir, '--quiet']);
  const siteId = await ok(['site', 'create', '--title', 'Acme Docs', '--type', 'premium', '--format', 'ids']);
  await ok(['site', 'section', 'add', siteId, handbook]);
  const apiSection = await ok(['site', 'section', 'add', siteId, api, '--format', 'ids']);
  await ok(['site', 'section', 'edit', siteId, apiSection, '--title', `API Reference ${EVIL_SECTION_TITLE}`]);
  return { env, home, siteId, handbook, api, handbookDir, docsctl };
}

/** Rewrites the handbook's install page and imports it again (a change the preview must reload on). */
export async function editInstallPage(site: PreviewSite, text: string): Promise<void> {
  writeTree(site.handbookDir, handbookFiles(text));
  const result = await site.docsctl(['git', 'import', site.handbook, site.handbookDir, '--quiet']);
  if (result.exitCode !== 0) throw new Error(`re-import failed: ${result.stderr}`);
}

/** Starts `site preview` through the binary and resolves with the URL it prints; `log()` is its stderr so far. */
export async function startPreview(env: Record<string, string>, args: string[]): Promise<{ url: string; process: ResultPromise; log: () => string }> {
  const child = execa('node', [bin, 'site', 'preview', ...args, '--port', '0'], { env, extendEnv: false, reject: false });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = / at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(seen);
      if (match) resolve(match[1] as string);
    });
    void child.on('exit', () => reject(new Error(`site preview exited early: ${seen} ${stderr}`)));
  });
  return { url, process: child, log: () => stderr };
}
