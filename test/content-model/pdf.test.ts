import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { renderPdf } from '../../src/content-model/pdf.js';
import { extractPdfPages, extractPdfText, PdfError } from '../helpers/pdf-extract.js';

const latin1 = (b: Uint8Array): string => Buffer.from(b).toString('latin1');

function hasPdftotext(): boolean {
  try {
    execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const tmpDirs: string[] = [];
afterAll(() => {
  for (const dir of tmpDirs) rmSync(dir, { recursive: true, force: true });
});

/** Every content stream, inflated. */
function contentStreams(pdf: Uint8Array): string[] {
  const text = latin1(pdf);
  const out: string[] = [];
  const re = /<< \/Length (\d+) \/Filter \/FlateDecode >>\nstream\n/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    const start = m.index + m[0].length;
    out.push(latin1(inflateSync(pdf.subarray(start, start + Number(m[1])))));
  }
  return out;
}

const FOOTER = /^.* ?Page \d+ of \d+$/;

function bodyLines(text: string): string[] {
  return text.split('\n').filter((l) => !FOOTER.test(l));
}

const GUIDE = `Welcome to **docsctl**, the _command line_ for \`GitBook\` spaces. Read [the manual](https://example.com/manual) first.

## Installation

1. Download the binary
2. Put it on your PATH
   - nested bullet
   - another nested bullet
3. Run \`docsctl login\`

* apples
* pears

\`\`\`bash
npm install -g docsctl
docsctl login --token abc
\`\`\`

> Quoted wisdom here.

---

### Options

{% hint style="warning" %}
Keep your **token** secret.
{% endhint %}

{% tabs %}
{% tab title="macOS" %}
brew install docsctl
{% endtab %}

{% tab title="Linux" %}
apt install docsctl
{% endtab %}
{% endtabs %}

{% content-ref url="other.md" %}
[Other page](other.md)
{% endcontent-ref %}

{% embed url="https://www.youtube.com/watch?v=xyz" %}

<figure><img src="a.png" alt=""><figcaption><p>Figure caption &amp; more</p></figcaption></figure>

| Name | Value |
| ---- | ----- |
| alpha | 1 |
| beta | 2 |

#### Fourth level
##### Fifth level
###### Sixth level
`;

describe('renderPdf: file structure', () => {
  const pdf = renderPdf({ title: 'Guide — “docs”', pages: [{ title: 'Getting started', markdown: GUIDE }, { title: 'Second page', markdown: 'Hello.' }] });
  const text = latin1(pdf);

  it('starts with %PDF- and ends with %%EOF', () => {
    expect(text.startsWith('%PDF-1.4\n')).toBe(true);
    expect(text.endsWith('%%EOF')).toBe(true);
  });

  it('has an xref table whose every offset points at its object', () => {
    const startxref = /startxref\n(\d+)\n%%EOF$/.exec(text);
    expect(startxref).not.toBeNull();
    const xrefAt = Number(startxref![1]);
    expect(text.slice(xrefAt, xrefAt + 5)).toBe('xref\n');
    const header = /^xref\n0 (\d+)\n/.exec(text.slice(xrefAt))!;
    const count = Number(header[1]);
    const entriesAt = xrefAt + header[0].length;
    const size = Number(/\/Size (\d+)/.exec(text.slice(xrefAt))![1]);
    expect(size).toBe(count);
    expect(text.slice(entriesAt, entriesAt + 20)).toBe('0000000000 65535 f \n');
    for (let n = 1; n < count; n++) {
      const entry = text.slice(entriesAt + 20 * n, entriesAt + 20 * (n + 1));
      expect(entry).toMatch(/^\d{10} 00000 n \n$/);
      const offset = Number(entry.slice(0, 10));
      expect(text.slice(offset, offset + `${n} 0 obj`.length + 1)).toBe(`${n} 0 obj\n`);
    }
    // Every object is in the table.
    expect(text.match(/^\d+ 0 obj$/gm)).toHaveLength(count - 1);
    expect(text.slice(entriesAt + 20 * count)).toMatch(/^trailer\n<< \/Size \d+ \/Root 1 0 R \/Info 3 0 R \/ID \[<[0-9A-F]{32}> <[0-9A-F]{32}>\] >>\n/);
  });

  it('declares stream lengths that match the data', () => {
    const re = /<< \/Length (\d+) \/Filter \/FlateDecode >>\nstream\n/g;
    let m: RegExpExecArray | null;
    let streams = 0;
    while ((m = re.exec(text))) {
      const end = m.index + m[0].length + Number(m[1]);
      expect(text.slice(end, end + 10)).toBe('\nendstream');
      streams++;
    }
    expect(streams).toBe(Number(/\/Type \/Pages \/Count (\d+)/.exec(text)![1]));
  });

  it('has document info, standard fonts in WinAnsiEncoding, A4 pages and bookmarks', () => {
    expect(text).toContain('/Producer (docsctl)');
    // The title has non-ASCII characters: a UTF-16BE text string.
    const title = /\/Title <FEFF([0-9A-F]+)>/.exec(text)![1]!;
    expect(Buffer.from(title, 'hex').swap16().toString('utf16le')).toBe('Guide — “docs”');
    for (const font of ['Helvetica', 'Helvetica-Bold', 'Helvetica-Oblique', 'Courier']) {
      expect(text).toContain(`/Type /Font /Subtype /Type1 /BaseFont /${font} /Encoding /WinAnsiEncoding`);
    }
    expect(text).not.toContain('/FontFile');
    expect(text).toContain('/MediaBox [0 0 595.28 841.89]');
    expect(text).toContain('/Title (Getting started) /Parent 10 0 R');
    expect(text).toContain('/Title (Second page) /Parent 10 0 R');
  });

  it('is deterministic', () => {
    const again = renderPdf({ title: 'Guide — “docs”', pages: [{ title: 'Getting started', markdown: GUIDE }, { title: 'Second page', markdown: 'Hello.' }] });
    expect(Buffer.from(again).equals(Buffer.from(pdf))).toBe(true);
  });

  it('writes inline styles with the matching fonts', () => {
    const content = contentStreams(pdf).join('\n');
    expect(content).toMatch(/\/F2 10\.5 Tf \(docsctl\) Tj/); // bold
    expect(content).toMatch(/\/F3 10\.5 Tf \(command line\) Tj/); // italic
    expect(content).toMatch(/\/F5 9\.66 Tf \(GitBook\) Tj/); // inline code
    expect(content).toMatch(/\/F5 8\.8 Tf \(npm install -g docsctl\) Tj/); // code block
    expect(content).toMatch(/re f Q/); // code / hint backgrounds
  });
});

describe('renderPdf → extractPdfText', () => {
  const pdf = renderPdf({ title: 'Guide', pages: [{ title: 'Getting started', markdown: GUIDE }, { title: 'Second page', markdown: 'Hello from page two.' }] });
  const text = extractPdfText(pdf);
  const lines = bodyLines(text);

  it('gives back titles, headings, paragraphs, lists and code', () => {
    for (const expected of [
      'Getting started',
      'Welcome to docsctl, the command line for GitBook spaces. Read the manual first.',
      'Installation',
      '1. Download the binary',
      '2. Put it on your PATH',
      '3. Run docsctl login',
      'npm install -g docsctl',
      'docsctl login --token abc',
      'Quoted wisdom here.',
      'Options',
      'Fourth level',
      'Fifth level',
      'Sixth level',
      'Second page',
      'Hello from page two.',
    ]) {
      expect(lines).toContain(expected);
    }
    expect(lines.some((l) => /^\S+ nested bullet$/.test(l))).toBe(true);
    expect(lines.some((l) => /^\S+ apples$/.test(l))).toBe(true);
    // Document order.
    const order = ['Getting started', 'Installation', 'npm install -g docsctl', 'Options', 'Sixth level', 'Second page'].map((l) => lines.indexOf(l));
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('renders GitBook blocks: hints with their style, tabs one after another, other tags dropped', () => {
    const warning = lines.indexOf('Warning');
    expect(warning).toBeGreaterThan(0);
    expect(lines[warning + 1]).toBe('Keep your token secret.');
    const mac = lines.indexOf('macOS');
    const linux = lines.indexOf('Linux');
    expect(mac).toBeGreaterThan(warning);
    expect(lines[mac + 1]).toBe('brew install docsctl');
    expect(linux).toBeGreaterThan(mac);
    expect(lines[linux + 1]).toBe('apt install docsctl');
    expect(lines).toContain('Other page');
    expect(text).not.toContain('{%');
    expect(text).not.toContain('youtube');
  });

  it('strips HTML to its text, decodes entities, and renders tables row by row', () => {
    expect(lines).toContain('Figure caption & more');
    expect(text).not.toMatch(/<\/?\w+/);
    expect(lines).toContain('Name Value');
    expect(lines).toContain('alpha 1');
    expect(lines).toContain('beta 2');
  });

  it('puts each documentation page on a new PDF page', () => {
    const pages = extractPdfPages(pdf);
    expect(pages).toHaveLength(2);
    expect(pages[0]!.startsWith('Getting started\n')).toBe(true);
    expect(pages[1]!.startsWith('Second page\n')).toBe(true);
    expect(pages[1]).toMatch(/Page 2 of 2$/);
  });

  it('drops a first heading that repeats the page title', () => {
    const out = extractPdfText(renderPdf({ title: 'T', pages: [{ title: 'Intro', markdown: '# Intro\n\nBody text.' }] }));
    expect(bodyLines(out)).toEqual(['Intro', 'Body text.']);
  });
});

describe('renderPdf: layout', () => {
  it('word-wraps with the real glyph widths', () => {
    const count = (word: string): number => {
      const md = Array.from({ length: 300 }, () => word).join(' ');
      return bodyLines(extractPdfText(renderPdf({ title: 't', pages: [{ title: 'x', markdown: md }] }))).length - 1;
    };
    // W is 944/1000 em wide, i 222/1000: the same number of characters takes far more lines.
    const wide = count('WWWW');
    const narrow = count('iiii');
    expect(wide).toBeGreaterThan(narrow * 3);
    // The text width is 481.9 pt at 10.5 pt: "WWWW " is 42.57 pt, 11 fit on a line ("WWWW" × 11 + 10 spaces = 465 pt).
    expect(wide).toBe(Math.ceil(300 / 11));
  });

  it('breaks a long page into several PDF pages, each with a footer, keeping the words in order', () => {
    const words = Array.from({ length: 6000 }, (_, i) => `w${i}`);
    const paragraphs: string[] = [];
    for (let i = 0; i < words.length; i += 100) paragraphs.push(words.slice(i, i + 100).join(' '));
    const pdf = renderPdf({ title: 'Long', pages: [{ title: 'A long page', markdown: paragraphs.join('\n\n') }] });
    const pages = extractPdfPages(pdf);
    expect(pages.length).toBeGreaterThan(5);
    for (const [i, page] of pages.entries()) expect(page.split('\n').at(-1)).toBe(`Long Page ${i + 1} of ${pages.length}`);
    const got = bodyLines(pages.join('\n')).slice(1).join(' ').split(' ');
    expect(got).toEqual(words);
  });

  it('cuts long code lines instead of wrapping them, and keeps indentation', () => {
    const long = `const x = "${'abcdefghij'.repeat(20)}";`;
    const pdf = renderPdf({ title: 't', pages: [{ title: 'Code', markdown: `\`\`\`js\n${long}\nif (x) {\n    return 1;\n}\n\`\`\`` }] });
    const lines = bodyLines(extractPdfText(pdf)).slice(1);
    expect(lines.length).toBeGreaterThan(4);
    const cut = lines.slice(0, lines.length - 3);
    expect(cut.join('')).toBe(long);
    expect(new Set(cut.slice(0, -1).map((l) => l.length)).size).toBe(1); // all pieces full width
    expect(lines.slice(-3)).toEqual(['if (x) {', '    return 1;', '}']);
  });

  it('splits a code block across pages', () => {
    const code = Array.from({ length: 150 }, (_, i) => `line ${i}`);
    const pdf = renderPdf({ title: 't', pages: [{ title: 'Code', markdown: `\`\`\`\n${code.join('\n')}\n\`\`\`` }] });
    const pages = extractPdfPages(pdf);
    expect(pages.length).toBe(3);
    expect(bodyLines(pages.join('\n')).slice(1)).toEqual(code);
    // One grey box per page.
    expect(contentStreams(pdf).map((c) => (c.match(/0\.95 g [\d. ]+ re f/g) ?? []).length)).toEqual([1, 1, 1]);
  });

  it('writes Latin-1 and cp1252 characters, replaces the rest with ?', () => {
    const md = 'Café déjà vu — “smart” ‘quotes’… €5 ™ • naïve Ünïcödé ß; 日本 → ok; e\u0301 composed; emoji 🎉 ; zero\u200bwidth';
    const out = bodyLines(extractPdfText(renderPdf({ title: 't', pages: [{ title: 'Chars', markdown: md }] })));
    expect(out[1]).toBe('Café déjà vu — “smart” ‘quotes’… €5 ™ • naïve Ünïcödé ß; ?? -> ok; é composed; emoji ? ; zerowidth');
  });

  it('escapes parentheses and backslashes', () => {
    const out = bodyLines(extractPdfText(renderPdf({ title: 't', pages: [{ title: 'f(x) \\ y', markdown: 'Call `f(a)\\n` and (nested (parens)) C:\\\\dir' }] })));
    expect(out).toEqual(['f(x) \\ y', 'Call f(a)\\n and (nested (parens)) C:\\dir']);
  });

  it('parses inline Markdown like GitBook does', () => {
    const md = [
      'A **bold _and italic_** word, ***both***, __strong__, *em*, snake_case_name, 2 * 3 * 4.',
      '',
      'Escaped \\*stars\\* and \\_under\\_, ~~struck~~, <mark>marked</mark>, <https://auto.link/x>, ![img](a.png)image dropped.',
      '',
      'Hard  ',
      'break and soft',
      'break, &lt;tag&gt; &copy; &#8364; &#x41;.',
    ].join('\n');
    const out = bodyLines(extractPdfText(renderPdf({ title: 't', pages: [{ title: 'Inline', markdown: md }] })));
    expect(out.slice(1)).toEqual([
      'A bold and italic word, both, strong, em, snake_case_name, 2 * 3 * 4.',
      'Escaped *stars* and _under_, struck, marked, https://auto.link/x, image dropped.',
      'Hard',
      'break and soft break, <tag> © € A.',
    ]);
  });

  it('renders nested and numbered lists with their markers', () => {
    const md = '3. three\n4. four\n   - sub one\n     1. deep\n   - sub two\n5. five\n\n- [ ] task\n- [x] done';
    const out = bodyLines(extractPdfText(renderPdf({ title: 't', pages: [{ title: 'Lists', markdown: md }] }))).slice(1);
    expect(out).toEqual(['3. three', '4. four', '• sub one', '1. deep', '• sub two', '5. five', '• [ ] task', '• [x] done'].map((l) => l.replace('• sub', '– sub')));
  });

  it('never throws nor hangs on arbitrary input', () => {
    let seed = 7;
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const pieces = ['#', '##', ' ', '  ', '\n', '\n\n', '*', '**', '_', '`', '```', '~~~', '>', '- ', '1. ', '|', '---', '[', ']', '(', ')', '!', '<', '>', '</b>', '<b>', '<!--', '-->', '{%', '%}', '{% hint style="info" %}', '{% endhint %}', '{% tab title="x" %}', '&amp;', '&', '\\', '\t', 'word', 'é', '日', '🎉', '    '];
    for (let round = 0; round < 300; round++) {
      let md = '';
      const n = rand(200);
      for (let k = 0; k < n; k++) md += pieces[rand(pieces.length)];
      const pdf = renderPdf({ title: md.slice(0, 20), pages: [{ title: md.slice(0, 30), markdown: md }] });
      expect(extractPdfText(pdf)).toContain('Page 1 of');
    }
  });

  it('stays fast on pathological input', () => {
    const start = performance.now();
    const inputs = [
      '<a '.repeat(20_000),
      '{%'.repeat(20_000) + '%}',
      `# ${' '.repeat(50_000)}x`,
      '*_'.repeat(20_000) + 'x',
      '*a '.repeat(10_000) + '_b '.repeat(10_000) + 'c* '.repeat(10_000),
      '['.repeat(5_000) + ']'.repeat(5_000),
      '- a\n'.repeat(3_000),
      '> '.repeat(2_000) + 'deep quote',
      `${'  '.repeat(500)}- nested`,
      'x'.repeat(100_000),
      'a\n'.repeat(50_000),
      `a${' '.repeat(100_000)}b`,
      `${'\\'.repeat(50_001)}\nx`,
      'text {% x %}\n'.repeat(10_000),
    ];
    for (const md of inputs) renderPdf({ title: 't', pages: [{ title: 'p', markdown: md }] });
    expect(performance.now() - start).toBeLessThan(60_000);
  });

  it('renders an empty document as one page', () => {
    const pdf = renderPdf({ title: 'Empty', pages: [] });
    expect(extractPdfPages(pdf)).toEqual(['Empty\nEmpty Page 1 of 1']);
  });

  it('renders a 200-page document in reasonable time', () => {
    const pages = Array.from({ length: 200 }, (_, i) => ({ title: `Page ${i}`, markdown: GUIDE.repeat(2) }));
    const start = performance.now();
    const pdf = renderPdf({ title: 'Big', pages });
    const elapsed = performance.now() - start;
    expect(elapsed).toBeLessThan(60_000);
    const titles = bodyLines(extractPdfText(pdf)).filter((l) => /^Page \d+$/.test(l));
    expect(titles).toEqual(pages.map((p) => p.title));
  });
});

describe('extractPdfText on other PDFs', () => {
  it('reads an uncompressed PDF with TJ, quote operators and a text matrix', () => {
    const content = [
      'BT /F1 12 Tf 14 TL 72 720 Td (Hello) Tj ( world) Tj',
      "(second line) '",
      'T* [(Ke) 120 (rned) -400 (words)] TJ ET',
      'BT 1 0 0 1 72 600 Tm (\\050escaped\\051 \\\\ \\351t\\351) Tj ET',
      'q 1 0 0 1 0 -100 cm BT 72 600 Td (moved by cm) Tj ET Q',
    ].join('\n');
    const objects = [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 /Resources << /Font << /F1 5 0 R >> >> >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>',
      `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    ];
    const pdf = `%PDF-1.4\n${objects.map((o, i) => `${i + 1} 0 obj\n${o}\nendobj\n`).join('')}trailer\n<< /Root 1 0 R >>\n%%EOF`;
    expect(extractPdfText(Buffer.from(pdf, 'latin1'))).toBe('Hello world\nsecond line\nKerned words\n(escaped) \\ été\nmoved by cm');
  });

  it('only ever throws PdfError on corrupt input', () => {
    const pdf = renderPdf({ title: 'Guide', pages: [{ title: 'Getting started', markdown: GUIDE }] });
    let seed = 11;
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    for (let round = 0; round < 300; round++) {
      const bad = pdf.slice(0, round % 3 === 0 ? rand(pdf.length) : pdf.length);
      for (let k = 0; k < 1 + rand(5); k++) bad[rand(bad.length)] = rand(256);
      try {
        extractPdfText(bad);
      } catch (err) {
        if (!(err instanceof PdfError)) throw err;
      }
    }
    expect(() => extractPdfText(Buffer.from(`%PDF-1.4\n1 0 obj\n${'['.repeat(100_000)}\nendobj\n`))).toThrow(PdfError);
    expect(() => extractPdfText(Buffer.from(`%PDF-1.4\n1 0 obj\n${')'.repeat(100_000)}\nendobj\n`))).toThrow('no document catalog found');
  });

  it('refuses something that is not a PDF', () => {
    expect(() => extractPdfText(Buffer.from('hello world'))).toThrow(PdfError);
    expect(() => extractPdfText(Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Page >>\nendobj\n'))).toThrow('no document catalog found');
  });
});

describe.skipIf(!hasPdftotext())('pdftotext (poppler) reads the output', () => {
  it('extracts the same text without complaint', () => {
    const dir = mkdtempSync(join(tmpdir(), 'docsctl-pdf-'));
    tmpDirs.push(dir);
    const words = Array.from({ length: 3000 }, (_, i) => `w${i}`).join(' ');
    const pdf = renderPdf({
      title: 'Guide',
      pages: [
        { title: 'Getting started', markdown: GUIDE },
        { title: 'Long', markdown: words },
      ],
    });
    const file = join(dir, 'out.pdf');
    writeFileSync(file, pdf);
    const stdout = execFileSync('pdftotext', [file, '-'], { stdio: ['ignore', 'pipe', 'pipe'] }).toString('utf8');
    for (const expected of ['Getting started', 'Installation', 'Download the binary', 'npm install -g docsctl', 'Keep your token secret.', 'Warning', 'macOS', 'Page 1 of']) {
      expect(stdout).toContain(expected);
    }
    expect(stdout).toContain('Welcome to docsctl, the command line for GitBook spaces.');
    expect(stdout.match(/w\d+/g)).toEqual(words.split(' '));
    // No syntax errors reported.
    const stderr = execFileSync('sh', ['-c', 'pdftotext "$1" /dev/null 2>&1', 'sh', file]).toString();
    expect(stderr).toBe('');
    const info = execFileSync('pdfinfo', [file]).toString();
    expect(info).toMatch(/Producer:\s+docsctl/);
    expect(info).toMatch(/Page size:\s+595\.28 x 841\.89 pts \(A4\)/);
  });
});
