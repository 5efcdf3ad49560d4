/** Shared helpers for the store tests: temp dirs, the bundled worker, child processes. */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));

const made: string[] = [];

export function tempDir(label = 'store'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `docsctl-${label}-`));
  made.push(dir);
  return dir;
}

/** Removes every directory tempDir made (call in afterAll). */
export function cleanupTempDirs(): void {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

/** A fresh path (not yet created) for a store. */
export function storePath(label = 'store'): string {
  return path.join(tempDir(label), 'store');
}

/** Bundles fixtures/worker.ts into a temp dir and returns the .mjs path. */
export async function buildWorker(): Promise<string> {
  const outfile = path.join(tempDir('worker'), 'worker.mjs');
  await build({
    entryPoints: [path.join(here, 'fixtures', 'worker.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    logLevel: 'error',
  });
  return outfile;
}

export interface Run {
  child: ChildProcess;
  lines: string[];
  stderr: () => string;
  /** Resolves when the process has exited and been reaped (its pid is gone). */
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves when a stdout line matches. */
  waitFor: (pattern: RegExp, timeoutMs?: number) => Promise<string>;
}

export function runWorker(worker: string, args: string[], env: Record<string, string> = {}): Run {
  const child = spawn(process.execPath, [worker, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let buffered = '';
  let err = '';
  const listeners = new Set<() => void>();
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    buffered += chunk;
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    lines.push(...parts);
    for (const listener of listeners) listener();
  });
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    err += chunk;
  });
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal }));
  });
  const waitFor = (pattern: RegExp, timeoutMs = 10_000) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const line = lines.find((l) => pattern.test(l));
        if (line !== undefined) {
          listeners.delete(check);
          clearTimeout(timer);
          resolve(line);
        }
      };
      const timer = setTimeout(() => {
        listeners.delete(check);
        reject(new Error(`timed out waiting for ${pattern} (stdout: ${lines.join('|')}; stderr: ${err})`));
      }, timeoutMs);
      listeners.add(check);
      void done.then(() => setTimeout(check, 0));
      check();
    });
  return { child, lines, stderr: () => err, done, waitFor };
}

/** Every file and directory under `dir` (relative paths), recursively. */
export function walk(dir: string): Array<{ path: string; stat: fs.Stats }> {
  const out: Array<{ path: string; stat: fs.Stats }> = [];
  const visit = (current: string) => {
    for (const name of fs.readdirSync(current)) {
      const full = path.join(current, name);
      const stat = fs.lstatSync(full);
      out.push({ path: path.relative(dir, full), stat });
      if (stat.isDirectory()) visit(full);
    }
  };
  visit(dir);
  return out;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A pid that is certainly not running (a child that has exited and been reaped). */
export async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await new Promise((resolve) => child.on('close', resolve));
  return child.pid as number;
}

/**
 * "At once", for taking over a dead process's lock: far below the 15 s a silent live
 * holder keeps it, with room for a heavily loaded machine.
 */
export const AT_ONCE_MS = 5_000;
