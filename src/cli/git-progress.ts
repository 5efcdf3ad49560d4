/**
 * The progress line of `git import|export` on a terminal: stage, objects,
 * bytes, pages converted — one line on stderr, redrawn in place (`\r`), at most
 * every 100 ms, cleared when the command ends. Nothing at all when stderr is not a
 * terminal (piped, CI logs) or with --json/--quiet: the renderer is not created.
 * Events come from the local transport (a server does not stream them).
 */
import type { Writable } from 'node:stream';
import type { ProgressEvent } from '../domain/handler.js';

export interface ProgressStream {
  write: Writable['write'];
  isTTY?: boolean;
  columns?: number;
}

export interface ProgressRenderer {
  /** Receives the operation's events. */
  listener(event: ProgressEvent): void;
  /** Clears the line (call once the operation ended, before printing the result). */
  done(): void;
}

const INTERVAL_MS = 100;

/** `1.5 MiB` */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

const NOUNS: Record<string, string> = { converted: 'pages', reading: 'files' };

/** One progress line: `receiving  [########----------]  45%  450/1000 objects  1.2 MiB`. */
export function progressLine(event: ProgressEvent, width = 80): string {
  const parts = [event.stage.padEnd(11)];
  const { processed, total } = event;
  if (processed !== undefined && total !== undefined && total > 0) {
    const ratio = Math.min(1, processed / total);
    const barWidth = Math.max(10, Math.min(30, width - 60));
    const filled = Math.round(ratio * barWidth);
    parts.push(`[${'#'.repeat(filled)}${'-'.repeat(barWidth - filled)}]`, `${String(Math.round(ratio * 100)).padStart(3)}%`);
    parts.push(`${processed}/${total} ${NOUNS[event.stage] ?? 'objects'}`);
  }
  if (event.bytes !== undefined) parts.push(formatBytes(event.bytes));
  const line = parts.join('  ');
  return line.length > width - 1 ? line.slice(0, width - 1) : line;
}

/** A renderer drawing on `stream`, or undefined when nothing should be drawn. */
export function progressRenderer(stream: ProgressStream, options: { enabled: boolean; now?: () => number }): ProgressRenderer | undefined {
  if (!options.enabled || !stream.isTTY) return undefined;
  const now = options.now ?? Date.now;
  let last = 0;
  let shown = 0;
  let stage: string | undefined;
  const draw = (event: ProgressEvent) => {
    const line = progressLine(event, stream.columns ?? 80);
    stream.write(`\r${line.padEnd(shown)}`);
    shown = line.length;
    last = now();
    stage = event.stage;
  };
  return {
    listener(event) {
      // A new stage always shows; updates within a stage at most every 100 ms.
      if (event.stage !== stage || now() - last >= INTERVAL_MS || (event.total !== undefined && event.processed === event.total)) draw(event);
    },
    done() {
      if (shown > 0) stream.write(`\r${' '.repeat(shown)}\r`);
      shown = 0;
    },
  };
}
