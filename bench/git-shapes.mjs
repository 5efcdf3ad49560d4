// Real-shaped Git Sync repositories for the benchmarks, generated offline and deterministically
// (same shape, same bytes, same commit ids on every machine). The shapes copy what real
// GitBook-synced repositories hold (measured on GitbookIO/public-docs, saleae/gitbook-docs,
// fluent/fluentd-docs-gitbook, wandb/gitbook and mariadb-corporation/mariadb-docs, see
// SHAPES): how many pages and how big, how deep SUMMARY.md goes, how often pages carry front
// matter, how large a vocabulary their text uses (the search index follows it), how many
// images of what sizes sit in `.gitbook/assets` under GitBook's names, and whether the space
// is a project directory inside a larger monorepo. Images are pseudo-random bytes (git cannot
// compress them, like PNG/JPEG); SVGs are text. The repository is written with
// `git fast-import` (no work tree), over a short history of commits, then packed as a server
// would hold it.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Each shape is named after what it copies. Sizes are [p10, p50, p90, p99] in bytes, as measured
 * on the real repository's HEAD (`assetBytes`: images other than SVG; `svg`: the share of SVGs,
 * sized as SVG_BYTES; `copies`: the share of assets whose bytes repeat an earlier one's, as
 * GitBook's `image (1).png` re-uploads do; `vocabulary`: distinct words in its pages).
 */
const SVG_BYTES = [1000, 2500, 9000, 40000];

export const SHAPES = {
  // fluent/fluentd-docs-gitbook: a reference guide; whole repository; no front matter; many code blocks and tables.
  reference: {
    title: 'Fluent reference',
    pages: 193, pageBytes: [1167, 3806, 10115, 21575], frontMatter: 0, depth: 4, groups: 0, vocabulary: 4900,
    assets: 207, assetBytes: [6311, 48595, 267693, 1649085], svg: 0, copies: 0.43, assetRefs: 80,
    extraFiles: { count: 28, bytes: [20000, 150000, 600000, 1500000] },
  },
  // saleae/gitbook-docs: a product manual; whole repository; many screenshots, PDFs and a few zips.
  manual: {
    title: 'Logic analyzer manual',
    pages: 422, pageBytes: [493, 1634, 6587, 22015], frontMatter: 0.02, depth: 5, groups: 4, vocabulary: 7700,
    assets: 698, assetBytes: [11044, 61870, 413031, 2579128], svg: 0, copies: 0.13, assetRefs: 459,
  },
  // GitbookIO/public-docs documentation/: an image-heavy project directory of a docs monorepo (docs.yaml at the root, sibling spaces).
  images: {
    title: 'Product documentation',
    dir: 'documentation',
    pages: 183, pageBytes: [1440, 3557, 10323, 28229], frontMatter: 0.91, depth: 3, groups: 12, vocabulary: 5100,
    assets: 593, assetBytes: [12354, 167850, 747076, 2108925], svg: 0.23, copies: 0.36, assetRefs: 443,
    siblings: [
      { dir: 'changelog', pages: 9, assets: 240, assetBytes: [30000, 250000, 1500000, 6000000] },
      { dir: 'guides', pages: 43, assets: 136, assetBytes: [20000, 150000, 700000, 2500000] },
      { dir: 'developers', pages: 36, assets: 0 },
      { dir: 'policies', pages: 17, assets: 6, assetBytes: [50000, 150000, 400000, 500000] },
    ],
  },
  // mariadb-corporation/mariadb-docs server/: a 4,000-page server manual, SUMMARY nine levels deep, a large vocabulary,
  // a project directory of a monorepo holding a dozen other spaces.
  server: {
    title: 'Server manual',
    dir: 'server',
    pages: 4376, pageBytes: [491, 1311, 10316, 58135], frontMatter: 0.58, depth: 9, groups: 0, vocabulary: 26900, topic: 0.7,
    assets: 438, assetBytes: [11061, 51192, 136196, 809514], svg: 0.29, copies: 0.17, assetRefs: 337,
    siblings: [
      { dir: 'release-notes', pages: 2876, assets: 39, assetBytes: [3000, 20000, 100000, 400000] },
      { dir: 'platform', pages: 837, assets: 4 },
      { dir: 'maxscale', pages: 535, assets: 72, assetBytes: [5000, 40000, 200000, 600000] },
      { dir: 'connectors', pages: 292, assets: 30 },
      { dir: 'tools', pages: 138, assets: 127, assetBytes: [20000, 150000, 800000, 2000000] },
      { dir: 'analytics', pages: 176, assets: 24 },
      { dir: 'mariadb-cloud', pages: 126, assets: 162, assetBytes: [30000, 200000, 900000, 4500000] },
      { dir: 'general-resources', pages: 128, assets: 108 },
      { dir: 'galera-cluster', pages: 105, assets: 46 },
    ],
  },
};

// ─── Deterministic randomness ─────────────────────────────────────────────────

/** mulberry32: a small, fast PRNG; the same seed gives the same repository everywhere. */
function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n) => Math.floor(next() * n);
  const normal = () => Math.sqrt(-2 * Math.log(next() + 1e-12)) * Math.cos(2 * Math.PI * next());
  return { next, int, pick: (list) => list[int(list.length)], chance: (p) => next() < p, normal };
}

function seedOf(text) {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** A size drawn from the measured quantiles: log-linear between (0, p10/4), p10, p50, p90, p99 and (1, 2×p99). */
function sizeOf(r, [p10, p50, p90, p99]) {
  const points = [[0, p10 / 4], [0.1, p10], [0.5, p50], [0.9, p90], [0.99, p99], [1, 2 * p99]];
  const u = r.next();
  let i = 1;
  while (u > points[i][0]) i++;
  const [u0, s0] = points[i - 1];
  const [u1, s1] = points[i];
  return Math.round(Math.exp(Math.log(s0) + ((u - u0) / (u1 - u0)) * (Math.log(s1) - Math.log(s0))));
}

/** `size` incompressible bytes (xorshift32 words): an image's worth of entropy, fast to make. */
function noise(r, size) {
  const words = new Uint32Array(Math.ceil(size / 4));
  let x = (r.int(0xffffffff) | 1) >>> 0;
  for (let i = 0; i < words.length; i++) {
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    words[i] = x;
  }
  return Buffer.from(words.buffer, 0, size);
}

// ─── Text ─────────────────────────────────────────────────────────────────────

const SYLLABLES = 'ka lo mi ne sa to ri va de po lu ze an ex in or um ta be co di fu ga he ja ku ly mo nu pe qu ro si tu vi wo xe yo zu'.split(' ');
const COMMON = 'the a to of and in is for you your this that with can be on it are as from by or an if use when which not new'.split(' ');

/**
 * Words outside the most common ones appear only through page topics: in real docs most words
 * are in a few pages (a feature's names, a variable's), which is what sets the number of
 * search-index rows an import writes (mariadb server: 496,000 postings in 173,000 rows; the
 * generated server shape: 487,000 in 195,000).
 */
const COMMON_WORDS = 2000;

/** A vocabulary of `size` distinct made-up words, most frequent first, and a Zipf sampler over its COMMON_WORDS first. */
function vocabulary(r, size) {
  const words = [...COMMON];
  const seen = new Set(words);
  while (words.length < size) {
    const n = 1 + r.int(4);
    let word = '';
    for (let i = 0; i < n; i++) word += r.pick(SYLLABLES);
    if (r.chance(0.08)) word += String(r.int(100));
    if (!seen.has(word)) { seen.add(word); words.push(word); }
  }
  // Zipf (s = 1.15) over the COMMON_WORDS most frequent: cumulative weights, sampled by binary search.
  const cumulative = new Float64Array(size);
  let total = 0;
  for (let i = 0; i < size; i++) cumulative[i] = total += i < COMMON_WORDS ? 1 / Math.pow(i + 1, 1.15) : 0;
  const word = () => {
    const x = r.next() * total;
    let lo = 0, hi = size - 1;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (cumulative[mid] < x) lo = mid + 1; else hi = mid; }
    return words[lo];
  };
  return { words, word };
}

/**
 * A page's words: `share` of them from its topic (6 to 21 words of the vocabulary's long tail, used
 * again and again, as a page about one feature does), the rest from the whole vocabulary.
 */
function topical(r, vocab, share) {
  const topic = Array.from({ length: 6 + r.int(16) }, () => vocab.words[50 + r.int(vocab.words.length - 50)]);
  return { words: vocab.words, word: () => (r.chance(share) ? r.pick(topic) : vocab.word()) };
}

/** Numbers as docs hold them: mostly small, some ports, sizes and versions. */
const number = (r) => String(r.chance(0.6) ? r.int(16) : r.chance(0.5) ? r.int(1000) : r.pick([1024, 3306, 8080, 65536, 4096, 255, 100, 1000, 3600]));

const capital = (s) => s.charAt(0).toUpperCase() + s.slice(1);

function sentence(r, vocab, min = 6, max = 18) {
  const n = min + r.int(max - min + 1);
  const out = [];
  for (let i = 0; i < n; i++) {
    const w = vocab.word();
    out.push(r.chance(0.04) ? `\`${w}_${vocab.word()}\`` : r.chance(0.02) ? `**${w}**` : w);
  }
  return `${capital(out.join(' '))}.`;
}

function titleWords(r, vocab) {
  return Array.from({ length: 1 + r.int(4) }, () => capital(vocab.words[30 + r.int(Math.min(vocab.words.length - 30, 3000))])).join(' ');
}

// ─── The tree of pages ────────────────────────────────────────────────────────

const slugify = (title) => title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'page';

/**
 * `count` pages in a tree at most `depth` deep, under `groups` SUMMARY groups (0: none).
 * A page with children is written `<dir>/README.md`, a leaf `<name>.md`, as GitBook exports.
 */
function pageTree(r, vocab, count, depth, groups) {
  const sections = groups > 0
    ? Array.from({ length: groups }, () => {
      const title = titleWords(r, vocab);
      return { group: title, pathDir: slugify(title), children: [], slugs: new Set(), depth: 0 };
    })
    : [{ pathDir: '', children: [], slugs: new Set(), depth: 0 }];
  const all = [];
  const add = (parent) => {
    const title = titleWords(r, vocab);
    let slug = slugify(title);
    for (let n = 1; parent.slugs.has(slug); n++) slug = `${slugify(title)}-${n}`;
    parent.slugs.add(slug);
    const page = { title, slug, parent, children: [], slugs: new Set(), depth: parent.depth + 1 };
    parent.children.push(page);
    all.push(page);
    return page;
  };
  // Top-level pages first, then each page under a random earlier page of bounded depth:
  // deep trees grow where pages already have children, as manuals do.
  const tops = Math.max(1, Math.round(Math.sqrt(count) / 2));
  for (let i = 0; all.length < Math.min(count - 1, tops); i++) add(sections[i % sections.length]);
  while (all.length < count - 1) {
    let parent = r.pick(all);
    for (let tries = 0; parent.depth >= depth && tries < 8; tries++) parent = r.pick(all);
    add(parent.depth >= depth ? r.pick(sections) : parent);
  }
  const place = (page) => {
    page.pathDir = page.parent.pathDir ? `${page.parent.pathDir}/${page.slug}` : page.slug;
    page.path = page.children.length > 0 ? `${page.pathDir}/README.md` : `${page.pathDir}.md`;
    page.children.forEach(place);
  };
  for (const section of sections) section.children.forEach(place);
  const home = { title: 'Home', path: 'README.md', children: [] };
  return { home, sections, pages: [home, ...all] };
}

function summary(tree) {
  const lines = ['# Table of contents', '', `* [${tree.home.title}](README.md)`];
  const walk = (page, indent) => {
    lines.push(`${'  '.repeat(indent)}* [${page.title}](${page.path})`);
    for (const child of page.children) walk(child, indent + 1);
  };
  for (const section of tree.sections) {
    if (section.group !== undefined) lines.push('', `## ${section.group}`, '');
    for (const page of section.children) walk(page, 0);
  }
  return `${lines.join('\n')}\n`;
}

const relative = (fromFile, toPath) => `${'../'.repeat(fromFile.split('/').length - 1)}${toPath}`;

/** A page's Markdown of about `size` bytes: front matter, title, paragraphs, code, tables, hints, images, links. */
function pageText(r, spaceVocab, page, size, { frontMatter, images, links, topic }) {
  const vocab = topical(r, spaceVocab, topic);
  const parts = [];
  if (r.chance(frontMatter)) {
    const fm = [`description: ${sentence(r, vocab, 6, 14)}`];
    if (r.chance(0.3)) fm.push(`icon: ${r.pick(['book', 'gear', 'rocket', 'server', 'code', 'shield'])}`);
    if (r.chance(0.1)) fm.push('layout:', '  title:', '    visible: true', '  description:', '    visible: false');
    parts.push(`---\n${fm.join('\n')}\n---\n`);
  }
  parts.push(`# ${page.title}`);
  let bytes = parts.join('\n').length;
  let image = 0;
  while (bytes < size) {
    const kind = r.next();
    let block;
    if (image < images.length && r.chance(0.3)) {
      const asset = relative(page.path, `.gitbook/assets/${images[image++]}`);
      block = r.chance(0.5)
        ? `<figure><img src="${asset}" alt=""><figcaption><p>${sentence(r, vocab, 3, 8)}</p></figcaption></figure>`
        : `![${vocab.word()}](<${asset}>)`;
    } else if (kind < 0.5) {
      block = Array.from({ length: 2 + r.int(4) }, () => sentence(r, vocab)).join(' ');
      if (links.length > 0 && r.chance(0.3)) block += ` See [${titleWords(r, vocab)}](${relative(page.path, r.pick(links))}).`;
    } else if (kind < 0.64) {
      block = `${'#'.repeat(2 + r.int(2))} ${titleWords(r, vocab)}`;
    } else if (kind < 0.8) {
      const lines = Array.from({ length: 2 + r.int(10) }, () => `${vocab.word().toUpperCase()} ${vocab.word()}_${vocab.word()} = ${number(r)};`);
      block = `\`\`\`${r.pick(['sql', 'bash', 'yaml', 'json', ''])}\n${lines.join('\n')}\n\`\`\``;
    } else if (kind < 0.86) {
      const rows = Array.from({ length: 2 + r.int(8) }, () => `| \`${vocab.word()}_${vocab.word()}\` | ${sentence(r, vocab, 3, 9)} | ${number(r)} |`);
      block = `| Name | Description | Default |\n| ---- | ----------- | ------- |\n${rows.join('\n')}`;
    } else if (kind < 0.92) {
      block = `{% hint style="${r.pick(['info', 'warning', 'success', 'danger'])}" %}\n${sentence(r, vocab)} ${sentence(r, vocab)}\n{% endhint %}`;
    } else {
      block = Array.from({ length: 2 + r.int(5) }, () => `* ${sentence(r, vocab, 3, 10)}`).join('\n');
    }
    if (bytes + block.length > size * 1.15 && parts.length > 2) break;
    parts.push(block);
    bytes += block.length + 2;
  }
  for (; image < images.length; image++) parts.push(`![](<${relative(page.path, `.gitbook/assets/${images[image]}`)}>)`);
  return `${parts.join('\n\n')}\n`;
}

/** GitBook's asset names: `image (N).png` mostly, screenshots with spaces, a few other kinds. */
function assetName(r, i, svgShare, used) {
  let name;
  if (r.chance(svgShare)) name = `${slugify(`icon ${i}`)}.svg`;
  else {
    const kind = r.next();
    if (kind < 0.55) name = i === 0 ? 'image.png' : `image (${i}).png`;
    else if (kind < 0.75) name = `Screenshot 2023-0${1 + r.int(9)}-1${r.int(9)} at ${10 + r.int(12)}.${10 + r.int(49)}.${10 + r.int(49)}.png`;
    else if (kind < 0.85) name = `CleanShot 2024-0${1 + r.int(9)}-2${r.int(8)} at ${10 + r.int(12)}.${10 + r.int(49)}.${10 + r.int(49)}@2x.png`;
    else if (kind < 0.93) name = `${slugify(`diagram ${i}`)}.jpg`;
    else if (kind < 0.97) name = `${slugify(`datasheet ${i}`)}.pdf`;
    else name = `${slugify(`animation ${i}`)}.gif`;
  }
  for (let n = 1; used.has(name); n++) name = name.replace(/(\.[a-z]+)$/, ` (${n})$1`);
  used.add(name);
  return name;
}

function svgText(r, size) {
  const shapes = [];
  let bytes = 120;
  while (bytes < size) {
    const s = `<path d="M${r.int(500)} ${r.int(500)}L${r.int(500)} ${r.int(500)}C${r.int(500)} ${r.int(500)} ${r.int(500)} ${r.int(500)} ${r.int(500)} ${r.int(500)}Z" fill="#${r.int(0xffffff).toString(16).padStart(6, '0')}"/>`;
    shapes.push(s);
    bytes += s.length + 1;
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="500" height="500" viewBox="0 0 500 500">\n${shapes.join('\n')}\n</svg>\n`;
}

/**
 * One space's files (paths relative to its directory) of a shape: README.md, SUMMARY.md,
 * pages, `.gitbook/assets`, `.gitbook.yaml` in a project directory. `scale` shrinks page and
 * asset counts, `assetScale` asset sizes (tests: the same shape, a fraction of the bytes).
 */
function spaceFiles(seed, shape, scale, assetScale = 1) {
  const r = rng(seed);
  const vocab = vocabulary(r, shape.vocabulary ?? 3000);
  const pages = Math.max(3, Math.round(shape.pages * scale));
  const tree = pageTree(r, vocab, pages, shape.depth ?? 3, Math.min(shape.groups ?? 0, Math.ceil(pages / 8)));
  const used = new Set();
  const assets = Array.from({ length: Math.round((shape.assets ?? 0) * scale) }, (_, i) => assetName(r, i, shape.svg ?? 0, used));
  // Which page shows which image: refs spread unevenly (a few pages show many), some images unused.
  const refs = new Map();
  const refCount = Math.min(assets.length, Math.round((shape.assetRefs ?? assets.length * 0.7) * scale));
  for (let i = 0; i < refCount; i++) {
    const page = tree.pages[Math.floor(Math.pow(r.next(), 2) * tree.pages.length)];
    if (!refs.has(page)) refs.set(page, []);
    refs.get(page).push(assets[i]);
  }
  const linkTargets = tree.pages.map((p) => p.path);
  const files = [];
  files.push({ path: 'SUMMARY.md', data: summary(tree) });
  for (const page of tree.pages) {
    const size = sizeOf(r, shape.pageBytes ?? [500, 1500, 6000, 20000]);
    files.push({ path: page.path, data: pageText(r, vocab, page, size, { frontMatter: shape.frontMatter ?? 0.3, images: refs.get(page) ?? [], links: linkTargets, topic: shape.topic ?? 0.55 }), page: true });
  }
  const made = [];
  for (const name of assets) {
    const size = Math.max(16, Math.round(sizeOf(r, shape.assetBytes ?? [5000, 40000, 200000, 800000]) * assetScale));
    const data = made.length > 0 && r.chance(shape.copies ?? 0) ? r.pick(made) : name.endsWith('.svg') ? svgText(r, sizeOf(r, SVG_BYTES)) : noise(r, size);
    made.push(data);
    files.push({ path: `.gitbook/assets/${name}`, data });
  }
  for (let i = 0; i < Math.round((shape.extraFiles?.count ?? 0) * scale); i++) {
    files.push({ path: `images/figure-${i}.png`, data: noise(r, Math.max(16, Math.round(sizeOf(r, shape.extraFiles.bytes) * assetScale))) });
  }
  if (shape.dir !== undefined) files.push({ path: '.gitbook.yaml', data: 'root: ./\n\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\n' });
  return { files, r, vocab };
}

/**
 * The files of a whole repository of `shape` (its space, and its monorepo siblings) at each
 * of `commits` commits: pages and images arrive over the history, and later commits edit
 * pages, so the pack holds older versions as real ones do. Returns [{ message, files }] where
 * files lists what each commit adds or changes.
 */
function history(name, shape, { scale = 1, assetScale = 1, commits = 8 } = {}) {
  const spaces = [{ dir: shape.dir ?? '', shape }];
  for (const sibling of shape.siblings ?? []) {
    spaces.push({ dir: sibling.dir, shape: { ...sibling, title: sibling.dir, depth: 4, frontMatter: 0.5, vocabulary: Math.min(12000, 2000 + sibling.pages * 4), pageBytes: shape.pageBytes, dir: sibling.dir } });
  }
  const all = [];
  for (const { dir, shape: s } of spaces) {
    const { files } = spaceFiles(seedOf(`${name}/${dir}`), s, scale, assetScale);
    for (const file of files) all.push({ ...file, path: dir ? `${dir}/${file.path}` : file.path });
  }
  if (shape.siblings) all.push({ path: 'README.md', data: `# ${shape.title}\n\nThis repository holds the documentation of several products, one directory each.\n` });
  if (shape.dir !== undefined) all.push({ path: '.github/workflows/docs.yml', data: 'name: docs\non: push\njobs:\n  sync:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          fetch-depth: 1\n' });
  // Spread files over the commits (SUMMARY/README of each space in the first), then edits.
  const r = rng(seedOf(`${name}/history`));
  const steps = Array.from({ length: commits }, (_, i) => ({ message: i === 0 ? 'Initial import' : `GITBOOK-${100 + i}: update docs`, files: [] }));
  for (const file of all) {
    const first = /(^|\/)(SUMMARY|README)\.md$/.test(file.path) || file.path.endsWith('.gitbook.yaml') ? 0 : r.int(commits);
    if (file.page && first < commits - 1 && r.chance(0.15)) {
      // An earlier version of the page: its first half, then the whole page later.
      const text = file.data;
      steps[first].files.push({ path: file.path, data: text.slice(0, Math.max(1, text.indexOf('\n', text.length >> 1) + 1)) });
      steps[first + 1 + r.int(commits - first - 1)].files.push(file);
    } else steps[first].files.push(file);
  }
  // The final SUMMARY lists every page: earlier commits carry it too (pages not yet there are
  // the kind of broken link real histories have), so the last commit's tree is the shape.
  return steps;
}

/** git without the machine's configuration (an init.defaultBranch, a hook path…): same bytes everywhere. */
const GIT_ENV = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };

/** Feeds `steps` to `git fast-import` in a new bare repository at `dir` (branch main). */
async function fastImport(dir, steps) {
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', dir], { env: GIT_ENV });
  const child = spawn('git', ['fast-import', '--quiet', '--done'], { cwd: dir, env: GIT_ENV, stdio: ['pipe', 'ignore', 'inherit'] });
  const done = new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`git fast-import exited with ${code}`))));
  });
  const write = (chunk) => (child.stdin.write(chunk) ? undefined : new Promise((resolve) => child.stdin.once('drain', resolve)));
  let mark = 0;
  let time = Date.UTC(2025, 0, 6, 9) / 1000;
  for (const [i, step] of steps.entries()) {
    const marks = [];
    for (const file of step.files) {
      const data = typeof file.data === 'string' ? Buffer.from(file.data) : file.data;
      marks.push([++mark, file.path]);
      await write(`blob\nmark :${mark}\ndata ${data.length}\n`);
      await write(data);
      await write('\n');
    }
    const message = Buffer.from(`${step.message}\n`);
    const who = `GitBook <gitbook-bot@users.noreply.github.com> ${time} +0000`;
    time += 86400 * (1 + (i % 3));
    await write(`commit refs/heads/main\nmark :${++mark}\nauthor ${who}\ncommitter ${who}\ndata ${message.length}\n`);
    await write(message);
    for (const [m, path] of marks) await write(`M 100644 :${m} ${quotePath(path)}\n`);
    await write('\n');
  }
  await write('done\n');
  child.stdin.end();
  await done;
  // Packed as a server holds it (deltas between page versions), so a clone reuses the pack;
  // images (over 128 KiB) are not searched for deltas, which random bytes never have.
  execFileSync('git', ['-C', dir, '-c', 'core.bigFileThreshold=128k', 'repack', '-a', '-d', '-q'], { env: GIT_ENV, stdio: 'ignore' });
}

/** fast-import's path syntax: quoted C-style when it holds a space, quote or backslash. */
function quotePath(path) {
  return /[\s"\\]/.test(path) || path.startsWith('"') ? `"${path.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"` : path;
}

/**
 * The pages (Markdown files other than SUMMARY.md) of shape `name`'s own space, as its last commit
 * holds them, without writing a repository: what the generator's tests check against the real
 * repositories' statistics.
 */
export function shapePages(name, { scale = 1 } = {}) {
  const shape = SHAPES[name];
  if (!shape) throw new Error(`unknown repository shape ${name} (one of ${Object.keys(SHAPES).join(', ')})`);
  return spaceFiles(seedOf(`${name}/${shape.dir ?? ''}`), shape, scale).files
    .filter((file) => file.page)
    .map((file) => ({ path: file.path, text: file.data }));
}

/**
 * Writes the repository of shape `name` as a bare repository `<root>/<name>.git` and returns
 * { url, gitDir, dir (project directory or undefined), bytes (of the last tree), files }.
 */
export async function makeShapedRepository(root, name, { scale = 1, assetScale = 1, commits = 8 } = {}) {
  const shape = SHAPES[name];
  if (!shape) throw new Error(`unknown repository shape ${name} (one of ${Object.keys(SHAPES).join(', ')})`);
  mkdirSync(root, { recursive: true });
  const gitDir = join(root, `${name}.git`);
  const steps = history(name, shape, { scale, assetScale, commits });
  await fastImport(gitDir, steps);
  const tree = execFileSync('git', ['--git-dir', gitDir, 'ls-tree', '-r', '-l', 'main'], { env: GIT_ENV, encoding: 'utf8', maxBuffer: 1 << 28 });
  let bytes = 0, projectBytes = 0, files = 0;
  const prefix = shape.dir ? `${shape.dir}/` : '';
  for (const line of tree.split('\n')) {
    const m = /^\S+ blob \S+\s+(\d+)\t(.*)$/.exec(line);
    if (!m) continue;
    files++;
    bytes += Number(m[1]);
    if (m[2].startsWith(prefix)) projectBytes += Number(m[1]);
  }
  return { name, gitDir, url: `file://${gitDir}`, dir: shape.dir, bytes, projectBytes, files };
}
