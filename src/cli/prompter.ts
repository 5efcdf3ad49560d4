/**
 * Prompts sit behind this interface: the real one loads @inquirer/prompts on
 * first use (it is heavy) and talks on stdin/stderr, so stdout stays clean for
 * data; tests use `scriptedPrompter`.
 */
import { CancelledError } from '../api/errors.js';
import type { IOStreams } from './io.js';

export interface Prompter {
  input(message: string, options?: { default?: string; validate?: (value: string) => true | string }): Promise<string>;
  /** Hidden input (a token): nothing is echoed, not even a mask. */
  password(message: string, options?: { validate?: (value: string) => true | string }): Promise<string>;
  confirm(message: string, options?: { default?: boolean }): Promise<boolean>;
  select<T extends string>(message: string, choices: Array<{ value: T; name?: string }>): Promise<T>;
}

function isAbort(error: unknown): boolean {
  const name = (error as { name?: string } | null)?.name;
  return name === 'ExitPromptError' || name === 'AbortPromptError' || name === 'CancelPromptError';
}

export function inquirerPrompter(io: IOStreams): Prompter {
  // A getter: stdin is made on first use (io.ts), not when the prompter is.
  const context = {
    get input() {
      return io.in;
    },
    output: io.err,
    clearPromptOnDone: false,
  };
  const guard = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      if (isAbort(error)) throw new CancelledError('Cancelled');
      throw error;
    }
  };
  return {
    input: (message, options = {}) =>
      guard(async () => {
        const { input } = await import('@inquirer/prompts');
        return input(
          {
            message,
            ...(options.default !== undefined ? { default: options.default } : {}),
            ...(options.validate ? { validate: options.validate } : {}),
          },
          context,
        );
      }),
    password: (message, options = {}) =>
      guard(async () => {
        const { password } = await import('@inquirer/prompts');
        return password({ message, ...(options.validate ? { validate: options.validate } : {}) }, context);
      }),
    confirm: (message, options = {}) =>
      guard(async () => {
        const { confirm } = await import('@inquirer/prompts');
        return confirm({ message, default: options.default ?? false }, context);
      }),
    select: (message, choices) =>
      guard(async () => {
        const { select } = await import('@inquirer/prompts');
        return select({ message, choices: choices.map((c) => ({ value: c.value, name: c.name ?? c.value })) }, context);
      }),
  };
}

/** A prompter that answers from a script, for tests. Throws when it runs out of answers. */
export function scriptedPrompter(answers: Array<string | boolean>): Prompter & { asked: string[]; offered: string[][] } {
  const asked: string[] = [];
  /** The choices of each select, as `value` or `name`. */
  const offered: string[][] = [];
  const next = (message: string) => {
    asked.push(message);
    if (answers.length === 0) throw new Error(`unexpected prompt: ${message}`);
    return answers.shift() as string | boolean;
  };
  return {
    asked,
    offered,
    input: async (message) => String(next(message)),
    password: async (message) => String(next(message)),
    confirm: async (message) => Boolean(next(message)),
    select: async (message, choices) => {
      offered.push(choices.map((c) => c.name ?? c.value));
      return next(message) as never;
    },
  };
}
