/**
 * Instructions for GitBook's AI agents from the command line: plain text (paragraphs separated
 * by blank lines) or a file holding either that text or a JSON document as the API takes it.
 * Shared by `site agent set` and `org agent-instructions set`.
 */
import { UsageError } from '../api/errors.js';
import { type JsonDocument, textDocument } from '../api/plain-document.js';
import type { Session } from './session.js';
import { readTextInput } from './io.js';

/** A file's instructions: a JSON document when the text is a JSON object, plain text otherwise. */
function documentOfFile(text: string, flag: string, file: string): JsonDocument {
  if (!text.trimStart().startsWith('{')) return textDocument(text);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError(`${flag} ${file} starts like JSON but is not valid JSON`, { hint: 'give a JSON document ({"object":"document","data":{},"nodes":[…]}) or plain text' });
  }
  const document = parsed as Partial<JsonDocument>;
  if (document.object !== 'document' || !Array.isArray(document.nodes)) {
    throw new UsageError(`${flag} ${file} is JSON but not a document: it needs "object": "document" and "nodes"`, { hint: 'docsctl org agent-instructions get --json prints one' });
  }
  return { ...document, data: document.data ?? {} } as JsonDocument;
}

/**
 * The document of `--TEXT` or `--TEXT-file` (at most one), or undefined when neither was given.
 * `names` are the option names as commander keeps them (camelCase) and as typed.
 */
export async function instructionsOption(
  session: Session,
  options: Record<string, unknown>,
  text: { key: string; flag: string },
  file: { key: string; flag: string },
): Promise<JsonDocument | undefined> {
  const given = options[text.key];
  const path = options[file.key];
  if (given !== undefined && path !== undefined) throw new UsageError(`Pass ${text.flag} or ${file.flag}, not both`);
  if (typeof given === 'string') return textDocument(given);
  if (typeof path === 'string') return documentOfFile(await readTextInput(session.ctx.io.in, path, file.flag), file.flag, path);
  return undefined;
}
