/**
 * The binary's entry: wires the real process (streams, environment, signals,
 * clock, ids) into a CliContext and runs `main`. The only module besides
 * `bin/docsctl.js` that touches `process`.
 */
import { clockFromEnv } from '../util/clock.js';
import { timeOrderedIds } from '../util/ids.js';
import { VERSION } from '../version.js';
import type { CliContext } from './context.js';
import { processIO } from './io.js';
import { main } from './main.js';
import { inquirerPrompter } from './prompter.js';

export async function run(argv: readonly string[]): Promise<number> {
  const env = process.env;
  const io = processIO(env);
  // A closed pipe (`docsctl space list | head -1`) is not an error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
  const ctx: CliContext = {
    io,
    env,
    clock: clockFromEnv(env),
    ids: timeOrderedIds(),
    prompter: inquirerPrompter(io),
    version: VERSION,
    onStopSignal(handler) {
      const listener = (signal: NodeJS.Signals) => handler(signal);
      process.on('SIGINT', listener);
      process.on('SIGTERM', listener);
      return () => {
        process.off('SIGINT', listener);
        process.off('SIGTERM', listener);
      };
    },
  };
  return main(argv, ctx);
}
