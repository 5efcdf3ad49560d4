/**
 * An AI agent's instructions in the organization file: plain text (paragraphs between blank
 * lines) or a JSON document. Compared as text when both sides are plain (a server's document may
 * carry keys of its own), as documents otherwise; exported as text when the document is plain,
 * so the file reads as what a person wrote and a round trip changes nothing.
 */
import { type JsonDocument, paragraphsOf, plainParagraphs, textDocument } from '../api/plain-document.js';
import type { FileAgentInstructions } from './schema.js';

/** The document the API takes for the file's instructions. */
export function instructionsDocument(wanted: FileAgentInstructions): JsonDocument {
  if (typeof wanted === 'string') return textDocument(wanted);
  return { object: 'document', data: wanted.data ?? {}, nodes: wanted.nodes };
}

/** JSON with every object's keys in order: two documents that differ only in key order are the same. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner) ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : inner,
  );
}

/** Whether the current document already says what the file does. */
export function sameInstructions(wanted: FileAgentInstructions, current: unknown): boolean {
  const plain = plainParagraphs(current);
  if (typeof wanted === 'string') return plain !== undefined && JSON.stringify(plain) === JSON.stringify(paragraphsOf(wanted));
  const document = instructionsDocument(wanted);
  const currentPlain = plainParagraphs(document);
  if (plain !== undefined && currentPlain !== undefined) return JSON.stringify(plain) === JSON.stringify(currentPlain);
  const { object, data, nodes } = (current ?? {}) as Partial<JsonDocument>;
  return canonical({ object, data: data ?? {}, nodes }) === canonical(document);
}

/** How a plan shows instructions: their text, or the size of a document that is more than text. */
export function describeInstructions(value: unknown): string {
  const plain = typeof value === 'string' ? paragraphsOf(value) : plainParagraphs(value);
  if (plain !== undefined) return plain.length ? plain.join('\n\n') : '(none)';
  const nodes = (value as { nodes?: unknown[] } | undefined)?.nodes;
  return `(a document of ${Array.isArray(nodes) ? nodes.length : 0} blocks)`;
}

/** The file's form of a current document: its text when plain, the document otherwise; undefined when empty. */
export function fileInstructions(current: unknown): FileAgentInstructions | undefined {
  const plain = plainParagraphs(current);
  if (plain !== undefined) return plain.length ? plain.join('\n\n') : undefined;
  if (typeof current !== 'object' || current === null) return undefined;
  const { object, data, nodes } = current as JsonDocument;
  return { object, ...(data && Object.keys(data).length ? { data } : {}), nodes } as FileAgentInstructions;
}
