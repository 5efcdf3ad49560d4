/**
 * IOStreams: where a command reads and writes, and what the terminal can do.
 * Commands never touch process.stdout/stderr directly; tests pass string buffers.
 */
import type { Readable, Writable } from 'node:stream';

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
    in: process.stdin,
    out: process.stdout,
    err: process.stderr,
    isStdoutTTY,
    isStdinTTY: Boolean(process.stdin.isTTY),
    colorEnabled: colorEnabledFor(env, isStdoutTTY),
    columns: process.stdout.columns,
  };
}

/** Writes all of `text` and resolves once flushed (so piped output is complete before exit). */
export function write(stream: Writable, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.write(text, (error) => (error ? reject(error) : resolve()));
  });
}
