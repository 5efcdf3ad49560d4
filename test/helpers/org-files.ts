/**
 * What the `apply -f` tests share: organization files written per mode (local and remote
 * runs of one block never share a file), and the binary's JSON answers.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ModeContext } from './binary.js';

export interface Named {
  id: string;
  title: string;
}

export function orgFileHelpers(context: ModeContext, dir: string) {
  /** Writes `text` as this mode's `name` in `dir`; returns its path. */
  const file = (name: string, text: string) => {
    const path = join(dir, `${context.mode}-${name}`);
    writeFileSync(path, text);
    return path;
  };
  /** The command's `--json` answer. */
  const json = async <T>(args: string[]): Promise<T> => JSON.parse(await context.cli.ok([...args, '--json'])) as T;
  /** The id of the item titled `title` in a list command's answer. */
  const byTitle = async (args: string[], title: string) => ((await json<Named[]>(args)).find((item) => item.title === title) as Named).id;
  return { file, json, byTitle };
}
