/**
 * The context injected into every command: streams, environment, clock, ids,
 * prompter. Nothing in a command reads process.* directly; `main(argv, ctx)`
 * runs the same in the binary and in tests.
 */
import type { Clock } from '../util/clock.js';
import type { IdGenerator } from '../util/ids.js';
import type { IOStreams } from './io.js';
import type { Prompter } from './prompter.js';

export interface CliContext {
  io: IOStreams;
  env: NodeJS.ProcessEnv;
  clock: Clock;
  ids: IdGenerator;
  prompter: Prompter;
  version: string;
  /** Registers a handler for SIGINT/SIGTERM (long-running commands such as serve); returns an unsubscribe. */
  onStopSignal(handler: (signal: string) => void): () => void;
}
