/**
 * A `git` on PATH that records every command line it is given, then runs the
 * real git: the tests read what docsctl (and any library it uses) really spawned.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const MARK = '\u0001ARGV';

export interface GitLog {
  /** Directory to put first on PATH. */
  bin: string;
  /** Every command line recorded so far (the arguments, without `git`). */
  calls(): string[][];
  clear(): void;
  cleanup(): void;
}

export function gitLog(): GitLog {
  const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  const bin = mkdtempSync(path.join(os.tmpdir(), 'docsctl-git-log-'));
  const log = path.join(bin, 'calls');
  writeFileSync(
    path.join(bin, 'git'),
    `#!/bin/sh\nprintf '%s\\0' '${MARK}' "$@" >> '${log}'\nexec '${real}' "$@"\n`,
  );
  chmodSync(path.join(bin, 'git'), 0o755);
  return {
    bin,
    calls() {
      if (!existsSync(log)) return [];
      const parts = readFileSync(log, 'utf8').split('\0');
      const calls: string[][] = [];
      for (const part of parts.slice(0, -1)) {
        if (part === MARK) calls.push([]);
        else calls[calls.length - 1]?.push(part);
      }
      return calls;
    },
    clear() {
      rmSync(log, { force: true });
    },
    cleanup() {
      rmSync(bin, { recursive: true, force: true });
    },
  };
}

/**
 * The arguments of `calls` that hold `marker` (a string only user input contains)
 * and that git could read as an option: they start with `-`, or they come before
 * the `--end-of-options` of their command line.
 */
export function optionLikeUserArgs(calls: string[][], marker: string): string[] {
  const found: string[] = [];
  for (const argv of calls) {
    const end = argv.indexOf('--end-of-options');
    argv.forEach((arg, i) => {
      if (!arg.includes(marker)) return;
      if (arg.startsWith('-') || end < 0 || i < end) found.push(`${arg}  (in: git ${argv.join(' ')})`);
    });
  }
  return found;
}
