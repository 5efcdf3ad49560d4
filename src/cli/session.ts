/**
 * One invocation of the CLI: the context, the parsed global options, and what is
 * derived from them lazily — settings, the transport (store or HTTP client),
 * the output format. A command that never calls `transport()` never opens the
 * store nor loads undici.
 */
import { join } from 'node:path';
import { CancelledError, UsageError } from '../api/errors.js';
import type { PlannedRequest } from '../transport/observe.js';
import type { Transport } from '../transport/types.js';
import { cacheDir } from '../util/paths.js';
import type { Column } from '../output/columns.js';
import { OUTPUT_FORMATS, type OutputFormat, type RenderOptions, renderList, renderObject, toYaml } from '../output/render.js';
import { forStderr, sanitizeText } from '../output/sanitize.js';
import { selectColumns } from '../output/select-columns.js';
import type { Styled } from '../output/styled.js';
import { type OutputShape, applyShape, parseShape, shapedLines } from '../output/shape.js';
import { type GlobalOptions, type Settings, readConfig, resolveSettings } from './config.js';
import type { CliContext } from './context.js';
import { write } from './io.js';

export interface GlobalFlags extends GlobalOptions {
  /** `--json` (true) or `--json id,title` (the fields to keep). */
  json?: boolean | string;
  /** `--query EXPR`: a JMESPath expression applied to the answer. */
  query?: string;
  /** `--format`/`-o`: an output format, or `wide` (a table with every column). */
  format?: string;
  /** `--columns a,b,c`: the table/TSV columns to print, in that order. */
  columns?: string;
  /** --dry-run: print the first request that would change something, send nothing. */
  dryRun?: boolean;
  /** False with --no-input. */
  input?: boolean;
  yes?: boolean;
  debug?: boolean;
}

/** Where `serve` and the local mode build API URLs (`urls.location`); DOCSCTL_PUBLIC_URL overrides. */
export const DEFAULT_ORIGIN = 'http://127.0.0.1:4000';

/** How many characters printSanitizedChunks gathers before a write (~64 KiB of ASCII). */
const CHUNK_CHARS = 64 * 1024;

export class Session {
  private cachedSettings: Settings | undefined;
  private cachedTransport: Promise<Transport> | undefined;

  constructor(
    readonly ctx: CliContext,
    readonly flags: GlobalFlags,
  ) {}

  get settings(): Settings {
    this.cachedSettings ??= resolveSettings(this.flags, this.ctx.env, readConfig(this.ctx.env));
    return this.cachedSettings;
  }

  get origin(): string {
    return (this.ctx.env.DOCSCTL_PUBLIC_URL ?? DEFAULT_ORIGIN).replace(/\/+$/, '');
  }

  /** A request of this invocation changed something (it was sent, or --dry-run printed it). */
  private changed = false;

  /**
   * The transport for this invocation (opened once); --dry-run stops at the first change.
   * `manyRequests` (--paginate, --all): remotely, use undici, whose import cost is paid
   * back over many requests; one-shot commands use node:http, which costs nothing to load.
   */
  transport(options: { manyRequests?: boolean; quick?: boolean } = {}): Promise<Transport> {
    this.cachedTransport ??= this.openTransport(options.manyRequests === true, options.quick === true).then(async (inner) => {
      const { observeWrites, DryRunStop } = await import('../transport/observe.js');
      return observeWrites(inner, async (request) => {
        this.changed = true;
        if (!this.flags.dryRun) return;
        await this.printDryRun(request);
        throw new DryRunStop();
      });
    });
    return this.cachedTransport;
  }

  private async printDryRun(planned: PlannedRequest): Promise<void> {
    // Printed, not sent: what reaches a terminal or a CI log keeps no secret (redact.ts).
    const { redactBody, redactSecrets } = await import('../util/redact.js');
    const request = { ...planned, path: redactSecrets(planned.path), ...(planned.body !== undefined ? { body: redactBody(planned.body) } : {}) };
    if (this.format === 'json' || this.format === 'yaml') {
      await this.printObject({ dryRun: true, ...request }, []);
      return;
    }
    const body = request.body !== undefined ? `${JSON.stringify(request.body, null, 2)}\n` : '';
    await write(this.ctx.io.out, `${request.method} ${request.path}\n${body}`);
    await this.info('dry run: nothing was sent or changed');
  }

  /** `quick`: a shell completion is waiting: no retry, a short timeout. */
  private async openTransport(manyRequests: boolean, quick = false): Promise<Transport> {
    const settings = this.settings;
    if (settings.mode === 'remote') {
      const [{ HttpTransport }, { explainMissingOperations }] = await Promise.all([import('../transport/http.js'), import('./missing-operation.js')]);
      this.debug(`remote mode via ${manyRequests ? 'undici' : 'node:http'}`);
      // A server without an operation of the API doc that today's API lacks: say so, not "not found".
      return explainMissingOperations(new HttpTransport({
        endpoint: settings.endpoint as string,
        ...(settings.token !== undefined ? { token: settings.token } : {}),
        userAgent: `docsctl/${this.ctx.version}`,
        client: manyRequests ? 'undici' : 'node',
        ...(quick ? { retries: 0, timeoutMs: 1500 } : {}),
        ...(this.flags.debug ? { debug: (line: string) => this.debug(line) } : {}),
      }));
    }
    const { openLocalTransport } = await import('../transport/local-mode.js');
    return openLocalTransport(settings.storeDir, join(cacheDir(this.ctx.env), 'artifacts'), {
      clock: this.ctx.clock,
      ids: this.ctx.ids,
      origin: this.origin,
      token: settings.token,
      // --debug shows the git commands Git Sync runs here.
      ...(this.flags.debug ? { git: await this.gitSettingsWithTrace() } : {}),
    });
  }

  /** This process's git settings, each git command line logged as a --debug line. */
  private async gitSettingsWithTrace() {
    const { processGitSettings, shellWords } = await import('../git/settings.js');
    return { ...processGitSettings(), trace: (argv: readonly string[]) => this.debug(`git ${shellWords(argv)}`) };
  }

  async close(): Promise<void> {
    if (this.cachedTransport) {
      const transport = await this.cachedTransport.catch(() => undefined);
      await transport?.close();
    }
  }

  // ─── Interaction ───────────────────────────────────────────────────────────

  /** Prompts are allowed: stdin and stdout are terminals and --no-input is absent. */
  get canPrompt(): boolean {
    return this.flags.input !== false && this.ctx.io.isStdinTTY && this.ctx.io.isStdoutTTY;
  }

  /** Asks for confirmation of a destructive action; --yes skips it; without a terminal --yes is required. */
  async confirm(question: string, flagHint = '--yes'): Promise<void> {
    if (this.flags.yes) return;
    if (!this.canPrompt) {
      throw new UsageError(`${question.replace(/\?$/, '')}: confirmation needed`, {
        hint: `pass ${flagHint} to confirm when not running in a terminal`,
      });
    }
    const ok = await this.ctx.prompter.confirm(question, { default: false });
    if (!ok) throw new CancelledError('Cancelled');
  }

  // ─── Output ────────────────────────────────────────────────────────────────

  /** The format asked for (--json, --query, --format/-o, DOCSCTL_OUTPUT), checked; undefined when none is. */
  private get requestedFormat(): string | undefined {
    if (this.flags.json) return 'json';
    if (this.flags.query !== undefined && this.flags.format === undefined) return 'json';
    const requested = this.flags.format ?? this.ctx.env.DOCSCTL_OUTPUT;
    if (requested !== undefined && requested !== 'wide' && !OUTPUT_FORMATS.includes(requested as OutputFormat)) {
      throw new UsageError(`Unknown output format "${requested}"`, { hint: `use one of ${OUTPUT_FORMATS.join(', ')}, wide` });
    }
    return requested;
  }

  get format(): OutputFormat {
    const requested = this.requestedFormat;
    if (requested === 'wide') return 'table';
    return (requested as OutputFormat | undefined) ?? (this.ctx.io.isStdoutTTY ? 'table' : 'tsv');
  }

  /**
   * The columns to print of `columns`: those `--columns` names (an error for an unknown
   * one, or with a format that has no columns), else all of them. Commands call it before
   * they change anything, so a typo never follows a write.
   */
  chosenColumns(columns: Column[]): Column[] {
    if (this.flags.columns === undefined) return columns;
    const format = this.format;
    if (format !== 'table' && format !== 'tsv') {
      throw new UsageError(`--columns chooses the columns of tables and TSV, not of --format ${format}`, {
        hint: format === 'json' || format === 'yaml' ? 'with JSON, --json a,b,c keeps those fields' : 'drop --columns',
      });
    }
    return selectColumns(columns, this.flags.columns);
  }

  private renderOptions(columns: Column[]): RenderOptions {
    const chosen = this.chosenColumns(columns);
    // -o wide and --columns show their columns whatever the terminal's width.
    const everyColumn = this.requestedFormat === 'wide' || this.flags.columns !== undefined;
    return { format: this.format, columns: chosen, color: this.ctx.io.colorEnabled, width: everyColumn ? undefined : this.ctx.io.columns };
  }

  private shapeParsed: Promise<OutputShape | undefined> | undefined;

  /** The fields of the type of what is printed (its route's response schema), for `--json FIELDS`. */
  private answerType: Promise<readonly string[] | undefined> | undefined;

  /**
   * What is printed next is the answer of `routeId` (or its items): `--json FIELDS` then
   * accepts any field of its type, printing null where the answer has none. The
   * generated field lists load only when `--json FIELDS` is used.
   */
  printsAnswerOf(routeId: string): void {
    if (typeof this.flags.json !== 'string') return;
    this.answerType = import('../api/response-fields.js').then((m) => m.responseFieldsOf(routeId));
  }

  /** `--json FIELDS` / `--query EXPR`, or undefined when the whole answer is printed. */
  private outputShape(): Promise<OutputShape | undefined> {
    this.shapeParsed ??= parseShape(this.flags.json, this.flags.query);
    return this.shapeParsed;
  }

  /** The answer shaped by --json FIELDS / --query, rendered; undefined without them. */
  private async renderShaped(value: unknown): Promise<string | undefined> {
    const shape = await this.outputShape();
    if (!shape) return undefined;
    const warnings: string[] = [];
    const typeFields = await this.answerType;
    const shaped = await applyShape(
      value,
      shape,
      this.changed ? (error) => warnings.push(`warning: ${error.message} (${error.hint})`) : undefined,
      typeFields,
    );
    for (const warning of warnings) await this.info(warning);
    if (this.format === 'json') return `${JSON.stringify(shaped ?? null, null, 2)}\n`;
    if (this.format === 'yaml') return toYaml(shaped);
    return shapedLines(shaped);
  }

  async printObject(item: unknown, columns: Column[]): Promise<void> {
    const text = (await this.renderShaped(item)) ?? (await renderObject(item, this.renderOptions(columns)));
    await write(this.ctx.io.out, text);
  }

  async printList(items: unknown[], columns: Column[]): Promise<void> {
    const text = (await this.renderShaped(items)) ?? (await renderList(items, this.renderOptions(columns)));
    await write(this.ctx.io.out, text);
  }

  /** Raw JSON on stdout (used by `api`); --json FIELDS / --query apply. */
  async printJson(value: unknown): Promise<void> {
    await write(this.ctx.io.out, (await this.renderShaped(value)) ?? `${JSON.stringify(value, null, 2)}\n`);
  }

  /** Text for people on stdout (control characters made visible: it may hold titles from the store or the API). */
  async printText(text: string): Promise<void> {
    const safe = sanitizeText(text);
    await write(this.ctx.io.out, safe.endsWith('\n') ? safe : `${safe}\n`);
  }

  /** Styled text for people on stdout: its data was sanitized as it was built, its escapes are docsctl's styling. */
  async printStyled(text: Styled): Promise<void> {
    await write(this.ctx.io.out, text.text.endsWith('\n') ? text.text : `${text.text}\n`);
  }

  /**
   * Text whose every part from the store or the API already went through sanitizeText
   * (`site tree` cleans each distinct part of its text once instead of scanning
   * megabytes of repeated lines): written as it is.
   */
  async printSanitizedText(text: string): Promise<void> {
    await write(this.ctx.io.out, text.endsWith('\n') ? text : `${text}\n`);
  }

  /**
   * Text in chunks, each as printSanitizedText takes it, written as they come, ~64 KiB at
   * a time (`site tree` draws megabytes: joining them first copied them twice more). A
   * newline ends the text when its last chunk has none. Returns how many characters were
   * written (0: none, and no newline either).
   */
  async printSanitizedChunks(chunks: Iterable<string>): Promise<number> {
    let batch: string[] = [];
    let batched = 0;
    let written = 0;
    let last = '';
    const flush = async () => {
      if (batched === 0) return;
      const text = batch.length === 1 ? (batch[0] as string) : batch.join('');
      batch = [];
      batched = 0;
      await write(this.ctx.io.out, text);
    };
    for (const chunk of chunks) {
      if (chunk === '') continue;
      written += chunk.length;
      last = chunk;
      batch.push(chunk);
      batched += chunk.length;
      if (batched >= CHUNK_CHARS) await flush();
    }
    if (written > 0 && !last.endsWith('\n')) {
      batch.push('\n');
      batched += 1;
    }
    await flush();
    return written;
  }

  /** A message for people, on stderr (URL credentials redacted, control characters made visible). */
  async info(message: string): Promise<void> {
    await write(this.ctx.io.err, `${forStderr(message)}\n`);
  }

  /** A hint shown only on a terminal (e.g. "no spaces yet"). */
  async hint(message: string): Promise<void> {
    if (this.ctx.io.isStdoutTTY) await write(this.ctx.io.err, `${forStderr(message)}\n`);
  }

  /** A --debug line on stderr; tokens and URL credentials never reach it. */
  debug(line: string): void {
    if (this.flags.debug) this.ctx.io.err.write(`[debug] ${forStderr(line)}\n`);
  }
}

