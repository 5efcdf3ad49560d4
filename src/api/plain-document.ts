/**
 * Plain text as a JSON document (paragraphs separated by blank lines) and back: how the CLI's
 * `--instructions`/`--text` and the organization file's instructions give an AI agent's
 * instructions. A document that holds anything else (headings, marks, lists) has no plain
 * text: it is kept as a document.
 */
export interface JsonDocument {
  object: 'document';
  data: Record<string, unknown>;
  nodes: unknown[];
}

/** A document of paragraphs, one per run of lines between blank lines; empty text, no paragraph. */
export function textDocument(text: string): JsonDocument {
  return {
    object: 'document',
    data: {},
    nodes: paragraphsOf(text).map((paragraph) => ({
      object: 'block',
      type: 'paragraph',
      data: {},
      nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: paragraph, marks: [] }] }],
    })),
  };
}

/** The paragraphs of plain text: runs of lines between blank lines, trimmed. */
export function paragraphsOf(text: string): string[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== '');
}

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);
const noData = (node: Node) => node.data === undefined || (isNode(node.data) && Object.keys(node.data).length === 0);

/** A paragraph's text when it is only unmarked text (one text node or several, leaves without marks). */
function paragraphText(block: unknown): string | undefined {
  if (!isNode(block) || block.object !== 'block' || block.type !== 'paragraph' || !noData(block) || !Array.isArray(block.nodes)) return undefined;
  let text = '';
  for (const child of block.nodes) {
    if (!isNode(child) || child.object !== 'text' || !Array.isArray(child.leaves)) return undefined;
    for (const leaf of child.leaves) {
      if (!isNode(leaf) || typeof leaf.text !== 'string' || (Array.isArray(leaf.marks) && leaf.marks.length > 0)) return undefined;
      text += leaf.text;
    }
  }
  return text;
}

/**
 * The paragraphs of a document made only of plain paragraphs (what `textDocument` makes, or the
 * API's equivalent), or undefined when it holds anything else. A paragraph whose text would not
 * read back as one paragraph (blank lines, outer spaces, empty) is not plain either.
 */
export function plainParagraphs(document: unknown): string[] | undefined {
  if (!isNode(document) || document.object !== 'document' || !noData(document) || !Array.isArray(document.nodes)) return undefined;
  const paragraphs: string[] = [];
  for (const block of document.nodes) {
    const text = paragraphText(block);
    if (text === undefined || text === '' || text !== text.trim() || /\n[ \t]*\n/.test(text)) return undefined;
    paragraphs.push(text);
  }
  return paragraphs;
}
