/** `docsctl font …`: custom fonts of an organization (a family, one file per weight); declared with the routes (src/api/routes/fonts.ts), the face flags here. */
import { UsageError } from '../../api/errors.js';
import type { RawInput } from '../../api/validate.js';
import type { Hooks } from '../derive.js';

/**
 * `WEIGHT=FILE` → a face of the API's body. FILE is the font file's https URL for
 * docsctl (it has no file storage), a storage key for GitBook: sent as given.
 */
export function parseFace(text: string): { weight: number; storageKey: string } {
  const at = text.indexOf('=');
  const weight = Number(text.slice(0, at));
  if (at < 1 || !Number.isInteger(weight) || weight < 1 || weight > 1000 || at === text.length - 1) {
    throw new UsageError(`--face expects WEIGHT=URL with a weight from 1 to 1000, got "${text}"`);
  }
  return { weight, storageKey: text.slice(at + 1) };
}

function parseWeight(text: string): number {
  const weight = Number(text);
  if (!Number.isInteger(weight) || weight < 1 || weight > 1000) throw new UsageError(`--remove expects a weight from 1 to 1000, got "${text}"`);
  return weight;
}

const list = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : typeof value === 'string' ? [value] : []);

function faces(options: Record<string, unknown>, input: RawInput): void {
  const given: Array<{ weight: number; storageKey: string | null }> = [
    ...list(options.face).map(parseFace),
    ...list(options.remove).map((text) => ({ weight: parseWeight(text), storageKey: null })),
  ];
  if (given.length === 0) return;
  input.body ??= {};
  (input.body as Record<string, unknown>).fontFaces = given;
}

const faceFlag = {
  flags: '--face <weight=url...>',
  description: 'a face: WEIGHT=URL of a .woff2/.woff file (https; a storage key against GitBook); repeatable',
};

export const hooks = {
  'font create': {
    flags: [faceFlag],
    build: (options, input) => {
      faces(options, input);
      if ((input.body as { fontFaces?: unknown } | undefined)?.fontFaces === undefined) {
        throw new UsageError('Missing --face: give at least the regular face, --face 400=https://…/font.woff2');
      }
    },
  },
  'font edit': { flags: [faceFlag, { flags: '--remove <weight...>', description: 'weights to remove; repeatable' }], build: faces },
} satisfies Hooks;
