/**
 * Runs a list of CLI steps against a fresh store, in local mode or against a
 * `serve` of that store, with deterministic ids and clock — so two runs can be
 * compared line by line. `{name}` in an argument is replaced by the stdout of an
 * earlier step marked `capture: name` (and `{org}` by the organization id).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { InputPolicy } from '../../src/domain/policy.js';
import { manualClock } from '../../src/util/clock.js';
import { sequentialIds } from '../../src/util/ids.js';
import { type RunResult, runCli } from './cli.js';
import { cleanupTempDirs, serveStore, tempDir } from './stores.js';

export interface Step {
  argv: string[];
  capture?: string;
  /** What to capture of the step's stdout (default: all of it, trimmed). */
  pick?: (stdout: string) => string;
  /** Milliseconds to move the clock before the step. */
  advance?: number;
  /** False when the two modes legitimately differ (e.g. a file:// URL against an http:// one). */
  compare?: boolean;
}

export type Transcript = Array<RunResult & { argv: string[] }>;

export interface TranscriptOptions {
  /** What the `serve` of remote mode lets requests reach (its --allow-* flags); default none. */
  policy?: InputPolicy;
}

export async function runTranscript(steps: readonly Step[], mode: 'local' | 'remote', options: TranscriptOptions = {}): Promise<Transcript> {
  const dir = tempDir();
  const store = join(dir, 'store');
  const ids = sequentialIds('x');
  const clock = manualClock('2026-03-01T10:00:00.000Z');
  const init = await runCli(['init', '--org', 'Acme', '--json'], { env: { DOCSCTL_STORE: store }, ids, clock });
  expect(init.exitCode, init.stderr).toBe(0);
  const { token, organization } = JSON.parse(init.stdout) as { token: string; organization: { id: string } };
  const captured: Record<string, string> = { org: organization.id };
  const server = mode === 'remote' ? await serveStore(store, { clock, ids, policy: options.policy }) : undefined;
  const env = server ? { DOCSCTL_ENDPOINT: server.url, DOCSCTL_TOKEN: token } : { DOCSCTL_STORE: store };
  const transcript: Transcript = [];
  try {
    for (const step of steps) {
      if (step.advance) clock.advance(step.advance);
      const argv = step.argv.map((arg) => arg.replace(/\{(\w+)\}/g, (_, name: string) => captured[name] ?? `{${name}}`));
      const result = await runCli(argv, { env, ids, clock });
      if (step.capture) captured[step.capture] = step.pick ? step.pick(result.stdout) : result.stdout.trim();
      transcript.push({ argv, ...result });
    }
  } finally {
    await server?.close();
  }
  if (process.env.SHOW_TRANSCRIPT) for (const r of transcript) process.stderr.write(`$ ${r.argv.join(' ')}  → ${r.exitCode}\n${r.stdout}${r.stderr}`);
  return transcript;
}

/**
 * Registers, in the enclosing `describe`, the run of `steps` in both modes (beforeAll)
 * and one test per step that both printed the same stdout and exited the same; `at(i)`
 * is the local run's result of step `i`, for the assertions of what it printed;
 * `transcripts()` both runs, for assertions over every step of each.
 */
export function inBothModes(
  steps: readonly Step[],
  options: TranscriptOptions = {},
): { at: (index: number) => RunResult; transcripts: () => { local: Transcript; remote: Transcript } } {
  let local: Transcript = [];
  let remote: Transcript = [];
  beforeAll(async () => {
    local = await runTranscript(steps, 'local', options);
    remote = await runTranscript(steps, 'remote', options);
  });
  afterAll(cleanupTempDirs);
  it.each(steps.map((step, index) => [step.argv.join(' '), index] as const))('same answer: %s', (_name, index) => {
    const a = local[index] as RunResult;
    const b = remote[index] as RunResult;
    expect({ stdout: b.stdout, exitCode: b.exitCode }).toEqual({ stdout: a.stdout, exitCode: a.exitCode });
  });
  return { at: (index) => local[index] as RunResult, transcripts: () => ({ local, remote }) };
}
