/**
 * The Git driver of `git import|export`: a cache of bare mirrors (one per
 * repository, reused across runs), reading a commit's tree into a RepoSnapshot,
 * and writing a commit without a checkout, then pushing it.
 *
 * Everything runs the `git` CLI (≥ 2.31) as plain child processes with binary
 * pipes: `ls-tree -r -z` + one `cat-file --batch` to read a tree, a temporary
 * index (`GIT_INDEX_FILE`) + `hash-object --stdin-paths` + `update-index -z
 * --index-info` + `write-tree` + `commit-tree` to write one.
 *
 * Credentials never reach a command line, the disk or a message: see
 * credentials.ts. Failures are one-line `ApiError`s naming the redacted URL
 * (404 repository/ref not found, 400 authentication or bad input, 409 push
 * rejected because the branch moved, 502 anything else from the remote).
 *
 * Mirrors live in the settings' cache directory (settings.ts: `DOCSCTL_GIT_CACHE`,
 * else `~/.cache/docsctl/git`), under the sha256 of the credential-free URL. The
 * cache is private (0700) and refused when another user owns it or can write to
 * it: a planted repository's config could otherwise run code as us. Temporary
 * index files live there too. Nothing here reads the process environment: the
 * cache, the timeout, the environment git starts from and the committer all come
 * in a GitSettings.
 *
 * Every git process runs with the options of access.ts (one allowed transport,
 * no hooks), `GIT_PROTOCOL_FROM_USER=0`, `--end-of-options` before a URL or a
 * refspec, and a timeout (the settings' `timeoutMs`); its command line goes to
 * the settings' `trace` first (`--debug`).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFile, mkdir, mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ApiError } from '../api/errors.js';
import { TextRepoFile, exactText } from '../gitsync/text-file.js';
import type { RepoFile, RepoSnapshot, StoredBytes } from '../gitsync/types.js';
import { normalizePath } from '../util/posix-path.js';
import { ensurePrivateDir } from '../util/private-dir.js';
import { type AuthorizedRepo, SAFE_CONFIG } from './access.js';
import { type RepoUrl, authEnv, scrubber } from './credentials.js';
import { type GitProgress, type GitResult, TIMED_OUT, runNetworkGit } from './network.js';
import type { GitIdentity, GitSettings } from './settings.js';

export type { GitResult } from './network.js';
import { mirrorRefFor } from './refs.js';

const ZERO_OID = '0000000000000000000000000000000000000000';
/** Trees a mirror keeps listed (see Mirror.trees). */
const KEPT_TREES = 2;

export interface RunOptions {
  cwd?: string;
  /** `key=value` pairs given as `-c` before the subcommand (SAFE_CONFIG always is). */
  config?: readonly string[];
  env?: Record<string, string>;
  input?: Buffer | string;
  timeoutMs?: number;
  /**
   * Receives stdout as it arrives (then `GitResult.stdout` is empty): large binary output is
   * parsed, not gathered. A promise returned pauses the output until it settles (backpressure).
   */
  onStdout?: (chunk: Buffer) => Promise<void> | undefined | void;
}


/** Runs git; resolves with its exit code and output (never rejects on a non-zero exit). */
export function runGit(settings: GitSettings, args: string[], options: RunOptions = {}): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const config = [...SAFE_CONFIG, ...(options.config ?? [])].flatMap((pair) => ['-c', pair]);
    const timeout = options.timeoutMs ?? settings.timeoutMs;
    settings.trace?.([...config, ...args]);
    const child = spawn('git', [...config, ...args], {
      cwd: options.cwd,
      env: { ...baseEnv(settings.env), ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      timeout,
      killSignal: 'SIGKILL',
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const onStdout = options.onStdout;
    const resume = () => child.stdout.resume();
    child.stdout.on(
      'data',
      onStdout
        ? (chunk: Buffer) => {
            const wait = onStdout(chunk);
            if (wait === undefined) return;
            child.stdout.pause();
            wait.then(resume, resume);
          }
        : (chunk: Buffer) => out.push(chunk),
    );
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error: NodeJS.ErrnoException) => {
      reject(error.code === 'ENOENT' ? new ApiError(500, 'git is not installed (the git CLI is needed for Git Sync)') : error);
    });
    child.stdin.on('error', () => undefined);
    let done = false;
    const finish = (code: number | null, signal: NodeJS.Signals | null) => {
      if (done) return;
      done = true;
      resolve({
        code: code ?? (signal ? 128 : 1),
        stdout: Buffer.concat(out),
        stderr: Buffer.concat(err).toString('utf8') + (signal ? `\nfatal: ${TIMED_OUT} after ${Math.round(timeout / 1000)}s` : ''),
      });
    };
    child.on('close', finish);
    // Killed (timeout): do not wait for a grandchild (ssh, a helper) that still holds the pipes open.
    child.on('exit', (code, signal) => {
      if (signal === null) return;
      child.stdout.destroy();
      child.stderr.destroy();
      finish(code, signal);
    });
    if (options.input !== undefined) child.stdin.end(options.input);
    else child.stdin.end();
  });
}

/** The environment of every git process: `from` with ambient git settings and prompts removed. */
export function baseEnv(from: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(from)) {
    // Our own credentials go through GIT_CONFIG_*; never inherit someone else's.
    if (value === undefined || /^GIT_CONFIG_(COUNT|KEY_\d+|VALUE_\d+|PARAMETERS)$/.test(key)) continue;
    if (key === 'GIT_DIR' || key === 'GIT_INDEX_FILE' || key === 'GIT_WORK_TREE') continue;
    env[key] = value;
  }
  // Never wait for a password or a host-key answer on a terminal.
  if (env.GIT_SSH_COMMAND === undefined && env.GIT_SSH === undefined) env.GIT_SSH_COMMAND = 'ssh -o BatchMode=yes';
  env.GIT_TERMINAL_PROMPT = '0';
  // Protocols allowed only "when the user asked" are never allowed: nothing here is a user at a terminal.
  env.GIT_PROTOCOL_FROM_USER = '0';
  env.GCM_INTERACTIVE = 'never';
  env.LC_ALL = 'C';
  env.LANGUAGE = 'C';
  return env;
}

/** The first meaningful line of git's stderr, scrubbed. */
function firstLine(stderr: string, scrub: (text: string) => string): string {
  const lines = scrub(stderr)
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !/^hint:/i.test(line) && !/^(To|From) /.test(line));
  const fatal = lines.find((line) => /^ssh:/i.test(line)) ?? lines.find((line) => /^(fatal|error):/i.test(line)) ?? lines[0] ?? 'git failed';
  return fatal.replace(/^(fatal|error):\s*/i, '');
}

/** The ApiError for a failed fetch/push: 404 not found, 400 authentication, 502 unreachable/other. */
function remoteError(action: string, stderr: string, scrub: (text: string) => string): ApiError {
  const text = stderr.toLowerCase();
  const detail = firstLine(stderr, scrub);
  if (/couldn't find remote ref|no such ref|remote ref does not exist/.test(text)) return new ApiError(404, `${action}: remote ref not found`);
  if (/authentication failed|could not read username|could not read password|permission denied|http (basic: )?access denied|returned error: 40[13]|requested url returned error: 40[13]/.test(text)) {
    return new ApiError(400, `${action}: authentication failed (${detail})`);
  }
  if (/repository not found|does not appear to be a git repository|not found|returned error: 404|no such file or directory/.test(text)) {
    return new ApiError(404, `${action}: repository not found`);
  }
  if (text.includes(TIMED_OUT)) return new ApiError(504, `${action}: ${detail}`);
  if (/could not resolve host|unable to access|connection (refused|timed out|reset)|timeout|network is unreachable|could not read from remote/.test(text)) {
    return new ApiError(502, `${action}: ${detail}`);
  }
  return new ApiError(502, `${action}: ${detail}`);
}

/**
 * Where `readSnapshot` may put the bytes of files nothing will parse as they stream from
 * git, instead of holding them (an import's images go into the store's pack: it then holds
 * the pages' text, not the repository).
 */
export interface BlobSink {
  /** Whether the file at `path` goes to the sink (its bytes not kept). */
  takes(path: string): boolean;
  /** Takes a blob's bytes (once per blob id): what is kept of it instead; undefined keeps the bytes. */
  put(oid: string, data: Uint8Array): StoredBytes | undefined;
  /** A promise while the sink wants the reading paused (bytes on their way to the disk). */
  ready(): Promise<void> | undefined;
  /**
   * When set, the blobs the sink takes are never read: each one's size comes from `git cat-file
   * --batch-check` and this answers what is kept of it (`put` is not called). An export compares
   * the branch's images by blob id and size only: piping every image's bytes from git to throw
   * them away cost the reference shape's export ~30 MB of reading.
   */
  measure?(oid: string, size: number): StoredBytes;
}

export interface TreeEntry {
  mode: string;
  oid: string;
  path: string;
}

export interface RemoteBranch {
  name: string;
  oid: string;
}

export interface RemoteBranches {
  head: string | null;
  branches: RemoteBranch[];
  truncated: boolean;
}

export interface CommitInput {
  /** Commit to build on (its tree is the starting point); undefined = a root commit. */
  parent?: string;
  writes: ReadonlyMap<string, Uint8Array>;
  deletes: readonly string[];
  message: string;
  /** The commit's author (default: the settings' author); the committer is always the settings'. */
  author?: GitIdentity | undefined;
}

export interface PushOptions {
  force?: boolean;
  onProgress?: ((event: GitProgress) => void) | undefined;
}

/** The identity environment of `git commit-tree`. */
function identityEnv(author: GitIdentity, committer: GitIdentity): Record<string, string> {
  return {
    GIT_AUTHOR_NAME: author.name,
    GIT_AUTHOR_EMAIL: author.email,
    GIT_COMMITTER_NAME: committer.name,
    GIT_COMMITTER_EMAIL: committer.email,
  };
}

/** A blob read as text larger than this gets a buffer of its own, not the reused one. */
const TEXT_SCRATCH_MAX = 4 * 1024 * 1024;

interface BlobsRead {
  blobs: Map<string, Uint8Array>;
  stored: Map<string, StoredBytes>;
  texts: Map<string, { text: string; size: number }>;
}

/**
 * The output of `git cat-file --batch` for `oids`, in order: for each, a header line
 * `<oid> blob <size>` (or `<oid> missing`), the bytes, and a newline.
 */
class CatFileBatchParser {
  private readonly blobs = new Map<string, Uint8Array>();
  /** Blobs read as text (see `asText`): their text and size in bytes. */
  readonly texts = new Map<string, { text: string; size: number }>();
  /** The buffer a blob read as text passes through (reused: its bytes are not kept). */
  private scratch = new Uint8Array(0);
  /** Blobs a sink took (their bytes not kept). */
  readonly stored = new Map<string, StoredBytes>();
  private index = 0;
  private header: Buffer[] = [];
  private body: Uint8Array | undefined;
  private filled = 0;
  /** The newline after a body is still to come. */
  private trailer = false;

  constructor(
    private readonly oids: readonly string[],
    private readonly url: string,
    /** Blob ids whose bytes go to `sink`. */
    private readonly toSink?: { oids: ReadonlySet<string>; sink: BlobSink },
    /** Blob ids read as text when they are valid UTF-8 (their bytes not kept). */
    private readonly asText?: ReadonlySet<string>,
  ) {}

  /** The first malformed output (reported by `finish`: a stream handler must not throw). */
  private error: ApiError | undefined;

  push(chunk: Buffer): void {
    if (this.error) return;
    try {
      this.parse(chunk);
    } catch (error) {
      this.error = error instanceof ApiError ? error : new ApiError(500, `unexpected git cat-file output in the mirror of ${this.url}`);
    }
  }

  private parse(chunk: Buffer): void {
    let pos = 0;
    while (pos < chunk.length) {
      if (this.trailer) {
        pos += 1;
        this.trailer = false;
        continue;
      }
      if (this.body) {
        const take = Math.min(chunk.length - pos, this.body.length - this.filled);
        this.body.set(chunk.subarray(pos, pos + take), this.filled);
        this.filled += take;
        pos += take;
        if (this.filled === this.body.length) this.endBlob();
        continue;
      }
      const eol = chunk.indexOf(10, pos);
      if (eol < 0) {
        this.header.push(chunk.subarray(pos));
        return;
      }
      this.header.push(chunk.subarray(pos, eol));
      pos = eol + 1;
      this.startBlob(Buffer.concat(this.header).toString('latin1'));
      this.header = [];
    }
  }

  private startBlob(line: string): void {
    const oid = this.oids[this.index];
    const [name, type, sizeText] = line.split(' ');
    if (type === 'missing') throw new ApiError(500, `blob ${oid ?? name} is missing from the mirror of ${this.url}`);
    const size = Number(sizeText);
    if (oid === undefined || name !== oid || !Number.isSafeInteger(size)) throw new ApiError(500, `unexpected git cat-file output in the mirror of ${this.url}`);
    if (this.asText?.has(oid) === true && size <= TEXT_SCRATCH_MAX) {
      if (this.scratch.length < size) this.scratch = new Uint8Array(Math.max(size, 64 * 1024));
      this.body = this.scratch.subarray(0, size);
    } else this.body = new Uint8Array(size);
    this.filled = 0;
    if (size === 0) this.endBlob();
  }

  private endBlob(): void {
    const oid = this.oids[this.index] as string;
    const body = this.body as Uint8Array;
    if (body.buffer === this.scratch.buffer) {
      const text = exactText(body);
      if (text !== undefined) this.texts.set(oid, { text, size: body.length });
      else this.blobs.set(oid, body.slice()); // not UTF-8: its bytes, out of the reused buffer
    } else {
      const stored = this.toSink?.oids.has(oid) ? this.toSink.sink.put(oid, body) : undefined;
      if (stored === undefined) this.blobs.set(oid, body);
      else this.stored.set(oid, stored);
    }
    this.index += 1;
    this.body = undefined;
    this.trailer = true;
  }

  finish(): BlobsRead {
    if (this.error) throw this.error;
    if (this.index !== this.oids.length || this.body) throw new ApiError(500, `git cat-file ended early in the mirror of ${this.url}`);
    return { blobs: this.blobs, stored: this.stored, texts: this.texts };
  }
}

const NO_BYTES = new Uint8Array(0);

/** The blobs of `files` whose every path `takes` (a blob also at another path, or a link, is not). */
function oidsWhere(files: readonly TreeEntry[], takes: (path: string) => boolean): Set<string> {
  const taken = new Set<string>();
  const kept = new Set<string>();
  for (const entry of files) {
    if (entry.mode !== '120000' && takes(entry.path)) taken.add(entry.oid);
    else kept.add(entry.oid);
  }
  for (const oid of kept) taken.delete(oid);
  return taken;
}

/** A bare mirror of one repository in the cache. Open with `openMirror`. */
export class Mirror {
  private readonly scrub: (text: string) => string;
  private readonly auth: Record<string, string>;
  /**
   * The last trees listed, by commit id (a commit's tree never changes): an export lists the
   * branch's commit to convert it and again to commit on it (`git ls-tree -r` of every file,
   * twice). A few only: a mirror may live as long as `serve`.
   */
  private readonly trees = new Map<string, Promise<TreeEntry[]>>();

  constructor(
    readonly dir: string,
    readonly repo: RepoUrl,
    /** Cache, timeout, environment, committer, trace (settings.ts). */
    readonly settings: GitSettings,
    /** `-c` options for this repository (access.ts). */
    private readonly config: readonly string[] = [],
    /** Private directory for temporary index files. */
    private readonly tmpRoot: string = path.dirname(dir),
  ) {
    this.scrub = scrubber(repo);
    this.auth = authEnv(repo);
  }

  /** The URL as it may be shown. */
  get url(): string {
    return this.repo.redacted;
  }

  private git(args: string[], options: RunOptions = {}): Promise<GitResult> {
    return runGit(this.settings, ['--git-dir', this.dir, ...args], { ...options, config: this.config });
  }

  /** Runs fetch or push (network.ts: simple-git with its timeout, abort and progress plugins). */
  private network(args: string[], onProgress?: (event: GitProgress) => void, onSpawn?: () => void): Promise<GitResult> {
    const config = [...SAFE_CONFIG, ...this.config];
    this.settings.trace?.([...config.flatMap((pair) => ['-c', pair]), '--git-dir', this.dir, ...args]);
    return runNetworkGit(args, {
      gitDir: this.dir,
      config,
      env: { ...baseEnv(this.settings.env), ...this.auth },
      timeoutMs: this.settings.timeoutMs,
      onProgress,
      onSpawn,
    });
  }

  /** Runs a local git command that must succeed (a failure is a 500: the cache is damaged or git misbehaves). */
  private async must(args: string[], options: RunOptions = {}): Promise<Buffer> {
    const result = await this.git(args, options);
    if (result.code !== 0) {
      throw new ApiError(500, `git ${args[0] ?? ''} failed in the mirror of ${this.url}: ${firstLine(result.stderr, this.scrub)}`);
    }
    return result.stdout;
  }

  /**
   * Fetches `ref` (a full ref, `HEAD` or a full commit id) from the remote into
   * the mirror. Answers the commit, or undefined when the remote has no such ref.
   * `onSpawn` is called as git's process starts (each attempt: network.ts onSpawn).
   */
  async fetch(ref: string, onProgress?: (event: GitProgress) => void, onSpawn?: () => void): Promise<string | undefined> {
    const local = mirrorRefFor(ref);
    let result: GitResult | undefined;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      // --update-shallow: a shallow source (a CI checkout made with --depth) otherwise has its
      // ref refused ("shallow roots are not allowed to be updated"), with exit 0 and no ref.
      result = await this.network(
        ['fetch', '--no-tags', '--no-write-fetch-head', '--update-shallow', '--end-of-options', this.repo.gitUrl, `+${ref}:${local}`],
        onProgress,
        onSpawn,
      );
      // Another process fetching into the same mirror holds a ref lock: try again.
      if (result.code === 0 || !/cannot lock ref|unable to create .*\.lock|\.lock': File exists/i.test(result.stderr)) break;
      await new Promise((resolve) => setTimeout(resolve, 200 * (attempt + 1)));
    }
    const done = result as GitResult;
    if (done.code !== 0) {
      if (/couldn't find remote ref|not our ref/i.test(done.stderr)) {
        await this.git(['update-ref', '-d', '--end-of-options', local]);
        return undefined;
      }
      throw remoteError(`Cannot fetch ${this.url} at ${ref}`, done.stderr, this.scrub);
    }
    return (await this.branchTip(local)) ?? this.resolve(local);
  }

  /**
   * The commit a branch of the mirror points at, read from its loose ref file without running
   * git (a `rev-parse` process on the path of every import and export); undefined when the ref
   * is not a branch or not a loose file of a full id (packed refs, a reftable repository): then
   * `resolve` asks git. A branch always names a commit (git refuses any other object there), so
   * no peeling is missed. `local` passed checkRefName: no `..` nor a component starting with `.`,
   * a path inside the mirror.
   */
  private async branchTip(local: string): Promise<string | undefined> {
    if (!local.startsWith('refs/heads/')) return undefined;
    try {
      const text = await readFile(path.join(this.dir, ...local.split('/')), 'latin1');
      return /^(?:[0-9a-f]{40}|[0-9a-f]{64})\n$/.test(text) ? text.slice(0, -1) : undefined;
    } catch {
      return undefined;
    }
  }

  /** The commit a local ref of the mirror points at (undefined when none). */
  async resolve(ref: string): Promise<string | undefined> {
    const result = await this.git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`]);
    const oid = result.stdout.toString('utf8').trim();
    return result.code === 0 && oid !== '' ? oid : undefined;
  }

  /** A commit's full message (trailing newlines dropped). */
  async commitMessage(commit: string): Promise<string> {
    const raw = (await this.must(['cat-file', 'commit', commit])).toString('utf8');
    const start = raw.indexOf('\n\n');
    return (start < 0 ? '' : raw.slice(start + 2)).replace(/\n+$/, '');
  }

  /** Files of a commit's tree (recursive, full tree). Submodules (160000) are left out. */
  listTree(commit: string): Promise<TreeEntry[]> {
    if (!/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(commit)) return this.readTree(commit);
    let listed = this.trees.get(commit);
    if (listed === undefined) {
      listed = this.readTree(commit);
      this.trees.set(commit, listed);
      for (const oldest of this.trees.keys()) if (this.trees.size > KEPT_TREES) this.trees.delete(oldest);
      listed.catch(() => this.trees.delete(commit));
    }
    return listed.then((entries) => [...entries]);
  }

  private async readTree(commit: string): Promise<TreeEntry[]> {
    const out = await this.must(['ls-tree', '-r', '-z', '--full-tree', commit]);
    const entries: TreeEntry[] = [];
    let start = 0;
    while (start < out.length) {
      let end = out.indexOf(0, start);
      if (end < 0) end = out.length;
      const record = out.subarray(start, end);
      start = end + 1;
      const tab = record.indexOf(9);
      if (tab < 0) continue;
      const [mode, type, oid] = record.subarray(0, tab).toString('latin1').split(' ');
      if (mode === undefined || oid === undefined || type !== 'blob') continue;
      // Paths are bytes; decoded as UTF-8 and never normalised.
      entries.push({ mode, oid, path: record.subarray(tab + 1).toString('utf8') });
    }
    return entries;
  }

  /**
   * Reads blobs through one `git cat-file --batch` process, parsed as it streams:
   * each blob is copied once, from the pipe into a buffer of its own size (gathering
   * the whole output first, then slicing it, cost two copies of every byte and a
   * peak of twice the repository's size).
   */
  async readBlobs(oids: readonly string[]): Promise<Map<string, Uint8Array>> {
    return (await this.streamBlobs(oids)).blobs;
  }

  /**
   * `readBlobs`, the blobs of `toSink.oids` given to its sink as they come (reading paused while
   * it asks), those of `asText` decoded as they come when they are valid UTF-8.
   */
  private async streamBlobs(oids: readonly string[], toSink?: { oids: ReadonlySet<string>; sink: BlobSink }, asText?: ReadonlySet<string>): Promise<BlobsRead> {
    const unique = [...new Set(oids)];
    if (unique.length === 0) return { blobs: new Map(), stored: new Map(), texts: new Map() };
    const parser = new CatFileBatchParser(unique, this.url, toSink, asText);
    const sink = toSink?.sink;
    const onStdout = sink
      ? (chunk: Buffer) => {
          parser.push(chunk);
          return sink.ready();
        }
      : (chunk: Buffer) => parser.push(chunk);
    const result = await this.git(['cat-file', '--batch'], { input: unique.join('\n') + '\n', onStdout });
    if (result.code !== 0) throw new ApiError(500, `git cat-file failed in the mirror of ${this.url}: ${firstLine(result.stderr, this.scrub)}`);
    return parser.finish();
  }

  /** The sizes of blobs, from one `git cat-file --batch-check` (their bytes not read). */
  private async blobSizes(oids: readonly string[]): Promise<Map<string, number>> {
    const sizes = new Map<string, number>();
    if (oids.length === 0) return sizes;
    const out = (await this.must(['cat-file', '--batch-check'], { input: oids.join('\n') + '\n' })).toString('latin1').split('\n');
    oids.forEach((oid, i) => {
      const [name, type, sizeText] = (out[i] ?? '').split(' ');
      if (type === 'missing') throw new ApiError(500, `blob ${oid} is missing from the mirror of ${this.url}`);
      const size = Number(sizeText);
      if (name !== oid || type !== 'blob' || !Number.isSafeInteger(size)) throw new ApiError(500, `unexpected git cat-file output in the mirror of ${this.url}`);
      sizes.set(oid, size);
    });
    return sizes;
  }

  /**
   * A commit's tree as a RepoSnapshot: regular files and symbolic links (data = link text).
   * With `under` (a project directory, normalized) only the files below it are read: an
   * import or export of one space of a monorepo converts nothing else, and reading every
   * blob held the whole repository in memory (GitbookIO/public-docs: 461 MB of files for
   * a 129 MB project). When a link could lead out of `under` (a link below it pointing
   * outside, or `under` itself behind a link), the whole tree is read, as without it.
   */
  async readSnapshot(commit: string, under = '', sink?: BlobSink, asText?: (path: string) => boolean): Promise<RepoSnapshot> {
    const entries = (await this.listTree(commit)).filter((entry) => entry.mode !== '160000');
    const below = (file: string): boolean => under === '' || file.startsWith(`${under}/`);
    let files = entries.filter((entry) => below(entry.path));
    const read = async (list: TreeEntry[]): Promise<BlobsRead> => {
      const sinkBound = sink && oidsWhere(list, (file) => sink.takes(file));
      const texts = asText && oidsWhere(list, (file) => asText(file) && !(sink?.takes(file) ?? false));
      if (sink?.measure === undefined || sinkBound === undefined || sinkBound.size === 0) {
        return this.streamBlobs(list.map((entry) => entry.oid), sink && { oids: sinkBound as Set<string>, sink }, texts);
      }
      // Sizes only for the sink's blobs (one --batch-check beside the --batch reading the others).
      const measure = sink.measure.bind(sink);
      const [read, sizes] = await Promise.all([
        this.streamBlobs(list.filter((entry) => !sinkBound.has(entry.oid)).map((entry) => entry.oid), undefined, texts),
        this.blobSizes([...sinkBound]),
      ]);
      for (const [oid, size] of sizes) read.stored.set(oid, measure(oid, size));
      return read;
    };
    let { blobs, stored, texts } = await read(files);
    const decoder = new TextDecoder('utf-8');
    if (under !== '') {
      const leaves = (entry: TreeEntry): boolean => {
        if (entry.mode !== '120000') return false;
        if (!below(entry.path)) return `${under}/`.startsWith(`${entry.path}/`); // under sits behind this link
        const target = decoder.decode(blobs.get(entry.oid));
        const resolved = target.startsWith('/') ? null : normalizePath(`${path.posix.dirname(entry.path)}/${target}`);
        return resolved === null || !below(resolved);
      };
      if (entries.some(leaves)) {
        files = entries;
        ({ blobs, stored, texts } = await read(files));
      }
    }
    const snapshot: RepoSnapshot = new Map();
    for (const entry of files) {
      const data = blobs.get(entry.oid);
      const text = data === undefined ? texts.get(entry.oid) : undefined;
      let file: RepoFile;
      if (text !== undefined) file = new TextRepoFile(entry.path, text.text, entry.oid, text.size);
      else if (data === undefined) file = { path: entry.path, data: NO_BYTES, mode: 'file', oid: entry.oid, stored: stored.get(entry.oid) as StoredBytes };
      else if (entry.mode === '120000') file = { path: entry.path, data, mode: 'symlink', linkTarget: decoder.decode(data), oid: entry.oid };
      else file = { path: entry.path, data, mode: 'file', oid: entry.oid };
      snapshot.set(entry.path, file);
    }
    return snapshot;
  }

  /**
   * Writes a commit on `parent` with `writes` and `deletes` applied, without a
   * checkout. A written path keeps its mode (executable stays executable; a
   * symbolic link is replaced only if the caller asks to write it). Answers
   * undefined when the resulting tree is the parent's (nothing to commit).
   */
  async commit(input: CommitInput): Promise<string | undefined> {
    const tmp = await mkdtemp(path.join(this.tmpRoot, 'index-'));
    try {
      const env = { GIT_INDEX_FILE: path.join(tmp, 'index') };
      const existing = new Map<string, TreeEntry>();
      if (input.parent !== undefined) {
        for (const entry of await this.listTree(input.parent)) existing.set(entry.path, entry);
      }
      const writes = [...input.writes];
      const blobDir = path.join(tmp, 'blobs');
      await mkdir(blobDir);
      const blobPaths: string[] = [];
      for (let i = 0; i < writes.length; i += 1) {
        const file = path.join(blobDir, String(i));
        await writeFile(file, (writes[i] as [string, Uint8Array])[1]);
        blobPaths.push(file);
      }
      const oids =
        blobPaths.length === 0
          ? []
          : (await this.must(['hash-object', '-w', '--no-filters', '--stdin-paths'], { input: blobPaths.join('\n') + '\n' }))
              .toString('utf8')
              .trim()
              .split('\n');
      if (oids.length !== writes.length) throw new ApiError(500, `git hash-object answered ${oids.length} ids for ${writes.length} files`);
      const lines: string[] = [];
      const written = new Set<string>();
      // The tree is the parent's exactly when every write leaves its file as it was and nothing is deleted.
      let changed = input.parent === undefined;
      writes.forEach(([file], i) => {
        const previous = existing.get(file);
        const mode = previous?.mode === '100755' || previous?.mode === '120000' ? previous.mode : '100644';
        written.add(file);
        if (previous?.oid !== oids[i] || previous?.mode !== mode) changed = true;
        lines.push(`${mode} ${oids[i] as string}\t${file}`);
      });
      for (const file of input.deletes) {
        if (!written.has(file) && existing.has(file)) {
          changed = true;
          lines.push(`0 ${ZERO_OID}\t${file}`);
        }
      }
      if (!changed) return undefined;
      await this.must(input.parent === undefined ? ['read-tree', '--empty'] : ['read-tree', input.parent], { env });
      if (lines.length > 0) {
        await this.must(['update-index', '--add', '--remove', '--replace', '-z', '--index-info'], {
          env,
          input: Buffer.from(lines.map((line) => `${line}\0`).join(''), 'utf8'),
        });
      }
      const tree = (await this.must(['write-tree'], { env })).toString('utf8').trim();
      const args = ['commit-tree', tree, ...(input.parent !== undefined ? ['-p', input.parent] : []), '-F', '-'];
      const message = input.message.endsWith('\n') ? input.message : `${input.message}\n`;
      const identity = identityEnv(input.author ?? this.settings.author, this.settings.committer);
      return (await this.must(args, { env: identity, input: message })).toString('utf8').trim();
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
  }

  /**
   * Pushes `commit` to `ref` on the remote: a fast-forward, unless `force`.
   * A rejected push (the branch moved) is a 409. The mirror's ref follows.
   */
  async push(commit: string, ref: string, options: PushOptions = {}): Promise<void> {
    await this.pushRef(commit, ref, options);
    await this.followRef(ref, commit);
  }

  /** The mirror's own ref of the remote's `ref` now points at `commit` (after a push, or an update of a work copy). */
  async followRef(ref: string, commit: string): Promise<void> {
    await this.must(['update-ref', '--end-of-options', ref, commit]);
  }

  /**
   * The remote's branches (`ls-remote`, nothing fetched): each with its commit, in name
   * order, at most `max`, and the branch the remote's HEAD names (null for none: an
   * empty repository, or a HEAD that is not a branch).
   */
  async remoteBranches(max: number): Promise<RemoteBranches> {
    const result = await this.network(['ls-remote', '--symref', '--end-of-options', this.repo.gitUrl, 'HEAD', 'refs/heads/*']);
    if (result.code !== 0) throw remoteError(`Cannot list the branches of ${this.url}`, result.stderr, this.scrub);
    let head: string | null = null;
    const branches: RemoteBranch[] = [];
    for (const line of result.stdout.toString('utf8').split('\n')) {
      const symref = /^ref: refs\/heads\/(.+)\tHEAD$/.exec(line);
      if (symref) {
        head = symref[1] as string;
        continue;
      }
      const match = /^([0-9a-f]{40,64})\trefs\/heads\/(.+)$/.exec(line);
      if (match) branches.push({ name: match[2] as string, oid: match[1] as string });
    }
    branches.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return { head, branches: branches.slice(0, max), truncated: branches.length > max };
  }

  /**
   * The entry at `file` (a normalized repository path) in a commit's tree: a blob's id
   * and size, `directory` for a tree, undefined when there is none. Read with
   * `cat-file --batch-check` (`commit:path` names the path literally: no pathspec magic).
   */
  async entryAt(commit: string, file: string): Promise<{ oid: string; size: number } | 'directory' | undefined> {
    if (!/^[0-9a-f]{40,64}$/.test(commit) || /[\0-\x1f\x7f]/.test(file)) throw new ApiError(400, `Invalid path "${file}"`);
    const out = (await this.must(['cat-file', '--batch-check'], { input: `${commit}:${file}\n` })).toString('utf8').trim();
    const match = /^([0-9a-f]{40,64}) (blob|tree|commit) (\d+)$/.exec(out);
    if (!match) return undefined;
    if (match[2] === 'tree') return 'directory';
    if (match[2] !== 'blob') return undefined;
    return { oid: match[1] as string, size: Number(match[3]) };
  }

  /** Pushes `commit` to `ref` on the remote (push's errors); the mirror's refs stay as they are. */
  async pushRef(commit: string, ref: string, options: PushOptions = {}): Promise<void> {
    const args = ['push', '--porcelain', ...(options.force ? ['--force'] : []), '--end-of-options', this.repo.gitUrl, `${commit}:${ref}`];
    const result = await this.network(args, options.onProgress);
    if (result.code !== 0) {
      const all = `${result.stdout.toString('utf8')}\n${result.stderr}`;
      if (/\[rejected\]|non-fast-forward|fetch first|\(stale info\)/i.test(all)) {
        throw new ApiError(409, `Cannot push to ${this.url} at ${ref}: the remote branch moved (not a fast-forward); import first, or export with --force (API: "force": true)`);
      }
      if (/\[remote rejected\]/i.test(all)) {
        const reason = /\[remote rejected\][^(]*\(([^)]*)\)/i.exec(all)?.[1] ?? 'rejected by the remote';
        throw new ApiError(409, `Cannot push to ${this.url} at ${ref}: ${this.scrub(reason)}`);
      }
      throw remoteError(`Cannot push to ${this.url} at ${ref}`, result.stderr, this.scrub);
    }
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}

/** The mirror of an authorized repository (access.ts), created on first use in the settings' cache. */
export async function mirrorOf({ repo, config }: AuthorizedRepo, settings: GitSettings): Promise<Mirror> {
  const root = ensurePrivateDir(settings.cacheDir);
  const tmpRoot = ensurePrivateDir(path.join(root, 'tmp'));
  // Local repositories by their real path: the same relative path from two directories is two repositories.
  const identity = repo.kind === 'file' || repo.kind === 'path' ? `file://${repo.gitUrl}` : repo.redacted;
  const key = createHash('sha256').update(identity).digest('hex');
  const dir = path.join(root, key.slice(0, 2), `${key}.git`);
  if (!(await exists(path.join(dir, 'HEAD')))) {
    await mkdir(path.dirname(dir), { recursive: true, mode: 0o700 });
    const tmp = await mkdtemp(path.join(path.dirname(dir), `${key.slice(0, 8)}-init-`));
    const init = await runGit(settings, ['init', '--bare', '--quiet', '--end-of-options', tmp]);
    if (init.code !== 0) {
      await rm(tmp, { recursive: true, force: true });
      throw new ApiError(500, `Cannot create a Git cache in ${root}: ${firstLine(init.stderr, (t) => t)}`);
    }
    // The mirror is private to docsctl: no auto-gc surprises mid-operation, objects kept for readers.
    // Written into the config `init` made (what `git config gc.auto 0` writes, without a process).
    await appendFile(path.join(tmp, 'config'), '[gc]\n\tauto = 0\n');
    try {
      await rename(tmp, dir);
    } catch {
      // Another process created it first: use theirs.
      await rm(tmp, { recursive: true, force: true });
      if (!(await exists(path.join(dir, 'HEAD')))) throw new ApiError(500, `Cannot create a Git cache in ${root}`);
    }
  }
  return new Mirror(dir, repo, settings, config, tmpRoot);
}
