/**
 * A JSON file a command reads (`--file F`, `-` for stdin): its parsed value, or a usage error
 * naming the file and what it must hold.
 */
import { readFileSync } from 'node:fs';
import { UsageError } from '../api/errors.js';

export function readJsonFile(file: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (error) {
    throw new UsageError(`Cannot read --file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new UsageError(`--file ${file} is not JSON: it must hold ${what}`);
  }
}
