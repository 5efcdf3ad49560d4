/**
 * Runs the CLI in process, as the binary would, with string buffers for the
 * streams: `runCli(['space', 'list'], { env })` → { stdout, stderr, exitCode }.
 */
import { PassThrough, Readable } from 'node:stream';
import type { CliContext } from '../../src/cli/context.js';
import type { IOStreams } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';
import { type Prompter, scriptedPrompter } from '../../src/cli/prompter.js';
import type { Clock } from '../../src/util/clock.js';
import { type IdGenerator, timeOrderedIds } from '../../src/util/ids.js';

export interface RunOptions {
  env?: Record<string, string | undefined>;
  /** Pretend stdout and stdin are terminals. */
  tty?: boolean;
  stdin?: string;
  answers?: Array<string | boolean>;
  prompter?: Prompter;
  clock?: Clock;
  ids?: IdGenerator;
  columns?: number;
  /** Pretend stderr is a terminal (progress lines are drawn there). */
  stderrTTY?: boolean;
}

export interface RunResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

function sink(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

export async function runCli(argv: string[], options: RunOptions = {}): Promise<RunResult> {
  const out = sink();
  const err = sink();
  if (options.stderrTTY) Object.assign(err.stream, { isTTY: true, columns: 100 });
  const tty = options.tty ?? false;
  const io: IOStreams = {
    in: Readable.from(options.stdin !== undefined ? [Buffer.from(options.stdin)] : []),
    out: out.stream,
    err: err.stream,
    isStdoutTTY: tty,
    isStdinTTY: tty,
    colorEnabled: false,
    columns: tty ? (options.columns ?? 160) : undefined,
  };
  const ctx: CliContext = {
    io,
    env: { NO_COLOR: '1', ...options.env } as NodeJS.ProcessEnv,
    clock: options.clock ?? (() => new Date()),
    ids: options.ids ?? timeOrderedIds(),
    prompter: options.prompter ?? scriptedPrompter(options.answers ?? []),
    version: '0.0.0-test',
    onStopSignal: () => () => undefined,
  };
  const exitCode = await main(argv, ctx);
  await new Promise((resolve) => setImmediate(resolve));
  return { stdout: out.text(), stderr: err.text(), exitCode };
}
