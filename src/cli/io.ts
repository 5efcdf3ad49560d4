/**
 * IOStreams: where a command reads and writes, and what the terminal can do.
 * Commands never touch process.stdout/stderr directly; tests pass string buffers.
 */
import type { Readable, Writable } from 'node:stream';
import { DocsctlError, ExitCode, UsageError } from '../api/errors.js';

/**
 * The reader of stdout went away (`docsctl page list S | head -1`): the command
 * stops where it is and exits 0 without a message, like other Unix tools.
 */
export class OutputClosedError extends DocsctlError {
  constructor() {
    super('output closed by its reader');
  }
  override get exitCode(): ExitCode {
    return ExitCode.ok;
  }
}

/**
 * The command has said what it had to and ends with `code` without an error line:
 * `docsctl diff` exits 1 when something would change (CI gates on it).
 */
export class SilentExit extends DocsctlError {
  constructor(readonly code: ExitCode) {
    super(`exit ${code}`);
  }
  override get exitCode(): ExitCode {
    return this.code;
  }
}

function isClosedPipe(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED' || code === 'ERR_STREAM_WRITE_AFTER_END';
}

export interface IOStreams {
  in: Readable;
  out: Writable;
  err: Writable;
  /** stdout is a terminal: tables, colour, hints. */
  isStdoutTTY: boolean;
  /** stdin is a terminal (prompts possible). */
  isStdinTTY: boolean;
  /** Colour on stdout/stderr (NO_COLOR / FORCE_COLOR / TTY). */
  colorEnabled: boolean;
  /** Terminal width for tables (undefined when not a terminal). */
  columns: number | undefined;
}

export function colorEnabledFor(env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  return isTTY && env.TERM !== 'dumb';
}

export function processIO(env: NodeJS.ProcessEnv): IOStreams {
  const isStdoutTTY = Boolean(process.stdout.isTTY);
  return {
    // process.stdin is made on first use: most commands never read it, and making it for
    // a pipe costs a socket and its stream machinery (~2 ms of every command's start-up).
    get in() {
      return process.stdin;
    },
    out: process.stdout,
    err: process.stderr,
    isStdoutTTY,
    get isStdinTTY() {
      return Boolean(process.stdin.isTTY);
    },
    colorEnabled: colorEnabledFor(env, isStdoutTTY),
    columns: process.stdout.columns,
  };
}

/**
 * Writes all of `text` and resolves once flushed (so piped output is complete before exit).
 * A closed pipe rejects with OutputClosedError.
 */
export function write(stream: Writable, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (stream.destroyed || stream.writableEnded) {
      reject(new OutputClosedError());
      return;
    }
    stream.write(text, (error) => (error ? reject(isClosedPipe(error) ? new OutputClosedError() : error) : resolve()));
  });
}

/**
 * The text of a file a flag names, or of stdin for "-" (`--body-file -`, `--file -`,
 * `--input -`). An unreadable file is a usage error naming the flag and the reason.
 */
export async function readTextInput(input: Readable, file: string, flag: string): Promise<string> {
  try {
    if (file === '-') {
      const chunks: Buffer[] = [];
      for await (const chunk of input) chunks.push(Buffer.from(chunk as Buffer));
      return Buffer.concat(chunks).toString('utf8');
    }
    const { readFile } = await import('node:fs/promises');
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`Cannot read ${flag} ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}
