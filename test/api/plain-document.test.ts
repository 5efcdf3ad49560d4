/**
 * Plain text as a JSON document and back (the CLI's --instructions, the organization file's
 * instructions): paragraphs survive the round trip, and a document holding anything more than
 * unmarked paragraphs has no plain text (it is kept as a document, never flattened).
 */
import { describe, expect, it } from 'vitest';
import { paragraphsOf, plainParagraphs, textDocument } from '../../src/api/plain-document.js';

const paragraph = (text: string, marks: unknown[] = []) => ({ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks }] }] });

describe('plain text as a document', () => {
  it('makes one paragraph per run of lines between blank lines, trimmed, CRLF or not', () => {
    expect(paragraphsOf('  One\r\nstill one\r\n\r\n \n\nTwo  \n')).toEqual(['One\nstill one', 'Two']);
    expect(textDocument('')).toEqual({ object: 'document', data: {}, nodes: [] });
    expect(plainParagraphs(textDocument('A\n\nB'))).toEqual(['A', 'B']);
  });

  it('reads the paragraphs of a server document that splits a paragraph into several leaves', () => {
    const split = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Hel' }, { object: 'leaf', text: 'lo', marks: [] }] }] }] };
    expect(plainParagraphs(split)).toEqual(['Hello']);
  });

  it('finds no plain text in a document with marks, headings, data, empty or multi-paragraph blocks', () => {
    const doc = (...nodes: unknown[]) => ({ object: 'document', data: {}, nodes });
    expect(plainParagraphs(doc(paragraph('bold', [{ object: 'mark', type: 'bold' }])))).toBeUndefined();
    expect(plainParagraphs(doc({ ...paragraph('Title'), type: 'heading-1' }))).toBeUndefined();
    expect(plainParagraphs({ ...doc(paragraph('x')), data: { schemaVersion: 1 } })).toBeUndefined();
    expect(plainParagraphs(doc(paragraph('')))).toBeUndefined();
    expect(plainParagraphs(doc(paragraph('a\n\nb')))).toBeUndefined();
    expect(plainParagraphs(doc(paragraph(' padded')))).toBeUndefined();
    expect(plainParagraphs('text')).toBeUndefined();
  });
});
