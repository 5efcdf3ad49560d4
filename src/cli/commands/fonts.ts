/** `docsctl font …`: custom fonts of an organization (a family, one file per weight). */
import { UsageError } from '../../api/errors.js';
import type { RawInput } from '../../api/validate.js';
import type { OperationCommandSpec } from '../operation.js';

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

const font = { name: 'fontId', description: 'font id' };
const faceFlag = {
  flags: '--face <weight=url...>',
  description: 'a face: WEIGHT=URL of a .woff2/.woff file (https; a storage key against GitBook); repeatable',
};

export const fontCommands: OperationCommandSpec[] = [
  {
    command: 'font list',
    route: 'listCustomFonts',
    summary: 'List the custom fonts of an organization',
    aliases: ['ls'],
    org: true,
    output: 'list',
    columns: 'font',
    noun: 'font',
    examples: ['docsctl font list', 'docsctl font list --json'],
  },
  {
    command: 'font create',
    route: 'createCustomFont',
    summary: 'Add a custom font (a face of weight 400 is required)',
    org: true,
    flags: [{ flags: '--family <name>', description: 'CSS font-family name (1–50 characters)', to: 'body.fontFamily', required: true }, faceFlag],
    build: (options, input) => {
      faces(options, input);
      if ((input.body as { fontFaces?: unknown } | undefined)?.fontFaces === undefined) {
        throw new UsageError('Missing --face: give at least the regular face, --face 400=https://…/font.woff2');
      }
    },
    output: 'object',
    columns: 'font',
    examples: ['docsctl font create --family Inter --face 400=https://cdn.example.com/inter-400.woff2 700=https://cdn.example.com/inter-700.woff2'],
  },
  {
    command: 'font get',
    route: 'getCustomFont',
    summary: 'Show a custom font',
    args: [font],
    org: true,
    output: 'object',
    columns: 'font',
    examples: ['docsctl font get 0AbC --json'],
  },
  {
    command: 'font edit',
    route: 'updateCustomFont',
    summary: 'Rename a font, set faces (--face) or remove them (--remove WEIGHT); the regular face stays',
    args: [font],
    org: true,
    flags: [
      { flags: '--family <name>', description: 'new CSS font-family name', to: 'body.fontFamily' },
      faceFlag,
      { flags: '--remove <weight...>', description: 'weights to remove; repeatable' },
    ],
    build: faces,
    nonEmptyBody: 'Nothing to change: pass --family, --face or --remove',
    output: 'object',
    columns: 'font',
    examples: ['docsctl font edit 0AbC --face 700=https://cdn.example.com/inter-700.woff2', 'docsctl font edit 0AbC --remove 700'],
  },
  {
    command: 'font delete',
    route: 'deleteCustomFont',
    summary: 'Delete a custom font',
    aliases: ['rm'],
    args: [font],
    org: true,
    confirm: (input) => `Delete font ${input.params?.fontId}?`,
    output: 'delete',
    columns: 'font',
    noun: 'font',
    examples: ['docsctl font delete 0AbC --yes'],
  },
];
