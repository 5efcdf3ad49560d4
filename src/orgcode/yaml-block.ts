/**
 * The YAML that `export org` writes, read without a YAML library: block mappings and sequences,
 * plain, single- and double-quoted one-line scalars, `[]` and `{}`. A cold js-yaml takes ~90 ms
 * for the 290 KB export of 1,000 spaces (most of `diff -f org.yaml`'s lead over JSON); this
 * reads it in a few.
 *
 * The contract: when `readBlockYaml` returns a value, it is the value YAML 1.2's core schema
 * gives (what js-yaml and yaml return; test/orgcode/yaml-block.test.ts holds it to both). Any
 * other construct — flow collections with items, block scalars, multi-line scalars, anchors,
 * aliases, tags, directives, quoted or complex keys, tabs, CR, duplicate keys, a scalar that
 * reads as a number other than a small integer — returns undefined, and the YAML parsers read
 * the file (with their errors and line numbers).
 */

const BAIL = Symbol('bail');
type Value = unknown;

/**
 * The index of the `:` after a key written plainly at the start of `text` (`title:`,
 * `primaryColor: x`, `my-field:`: a letter or `_`, then letters, digits, `_`, `-`; then `:` at
 * the end or before a space), else -1. By hand: a regex match allocates for each of ~10,000 lines.
 */
function keyEnd(text: string, start: number, end: number): number {
  const first = text.charCodeAt(start);
  if (!((first >= 65 && first <= 90) || (first >= 97 && first <= 122) || first === 95)) return -1;
  let i = start + 1;
  for (; i < end; i += 1) {
    const c = text.charCodeAt(i);
    if (!((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95 || c === 45)) break;
  }
  return i < end && text.charCodeAt(i) === 58 /* : */ && (i + 1 === end || text.charCodeAt(i + 1) === 32) ? i : -1;
}
/** Plain scalars YAML 1.2's core schema reads as numbers (int 10/8/16, float, infinities, NaN). */
const NUMBER = /^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;
const SMALL_INT = /^(?:0|[1-9][0-9]{0,14})$/;
const CORE_WORDS: Record<string, null | boolean> = { null: null, Null: null, NULL: null, '~': null, true: true, True: true, TRUE: true, false: false, False: false, FALSE: false };
/** A plain scalar may not start with an indicator (or these are read differently: bail). */
const INDICATOR_FIRST = /^[-?:,[\]{}#&*!|>'"%@`]/;
/** JSON's escapes: a double-quoted YAML scalar with only these reads as JSON reads it. */
const JSON_ESCAPES = /\\(?!["\\/bfnrt]|u[0-9a-fA-F]{4})/;
/** Tabs, CR, a byte-order mark, characters YAML does not allow, lone surrogates: the parsers judge those. */
const UNUSUAL = /[\t\r\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufeff\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function scalar(text: string): Value {
  const first = text[0];
  if (first === '"') {
    const end = closingDoubleQuote(text);
    if (end !== text.length - 1 || JSON_ESCAPES.test(text)) return BAIL;
    try {
      return JSON.parse(text) as string;
    } catch {
      return BAIL; // a control character, say: the YAML parsers judge it
    }
  }
  if (first === "'") {
    const inner = text.slice(1, -1);
    if (text.length < 2 || !text.endsWith("'") || inner.replace(/''/g, '').includes("'")) return BAIL;
    return inner.replace(/''/g, "'");
  }
  if (text === '[]') return [];
  if (text === '{}') return {};
  if (Object.hasOwn(CORE_WORDS, text)) return CORE_WORDS[text];
  if (INDICATOR_FIRST.test(text) || text.includes(': ') || text.includes(' #') || text.endsWith(':')) return BAIL;
  // Only a digit, a sign or a dot can start a number.
  const c = text.charCodeAt(0);
  if (((c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46) && NUMBER.test(text)) return SMALL_INT.test(text) ? Number(text) : BAIL;
  return text;
}

/** The index of the quote closing a double-quoted scalar that starts at 0 (-1: none). */
function closingDoubleQuote(text: string): number {
  for (let i = 1; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 92 /* \ */) i += 1;
    else if (c === 34 /* " */) return i;
  }
  return -1;
}

/**
 * Reads the text line by line in place: a line is its indentation and the bounds of its content
 * (no array of lines, no substring but the keys and values).
 */
class BlockReader {
  /** The current line: its indentation (-1: the end of the text), content bounds, the next line's start. */
  indent = -1;
  private from = 0;
  private end = 0;
  private next = 0;
  constructor(private readonly text: string) {
    this.load(0);
  }

  /** Moves to the first line from `start` that is neither blank nor a comment. */
  private load(start: number): void {
    const text = this.text;
    while (start <= text.length) {
      let next = text.indexOf('\n', start);
      if (next === -1) next = text.length;
      // Only spaces: YAML trims no other character at a line's end.
      let end = next;
      while (end > start && text.charCodeAt(end - 1) === 32) end -= 1;
      let from = start;
      while (from < end && text.charCodeAt(from) === 32) from += 1;
      if (from < end && text.charCodeAt(from) !== 35 /* # */) {
        this.indent = from - start;
        this.from = from;
        this.end = end;
        this.next = next + 1;
        return;
      }
      start = next + 1;
    }
    this.indent = -1;
  }

  private advance(): void {
    this.load(this.next);
  }

  /** Past the last line. */
  done(): boolean {
    return this.indent === -1;
  }

  private isItem(indent: number): boolean {
    const { text, from } = this;
    return this.indent === indent && text.charCodeAt(from) === 45 /* - */ && (from + 1 === this.end || text.charCodeAt(from + 1) === 32);
  }

  /** The node whose first line is the current one, at its indentation. */
  node(indent: number): Value {
    return this.isItem(indent) ? this.sequence(indent) : this.mapping(indent);
  }

  /** A key's or an item's value on the following lines (none: null). */
  private nested(indent: number, allowSameIndentSequence: boolean): Value {
    if (this.indent > indent) return this.node(this.indent);
    if (allowSameIndentSequence && this.isItem(indent)) return this.sequence(indent);
    return null;
  }

  /** A one-line value from `from` to the line's end; a following line indented further would continue it. */
  private oneLine(from: number, indent: number): Value {
    const value = scalar(this.text.slice(from, this.end));
    this.advance();
    return this.indent > indent ? BAIL : value;
  }

  mapping(indent: number): Value {
    const out: Record<string, Value> = {};
    const text = this.text;
    while (this.indent === indent && !this.isItem(indent)) {
      const end = keyEnd(text, this.from, this.end);
      if (end < 0) return BAIL;
      const key = text.slice(this.from, end);
      // A key the core schema reads as null or a boolean is left to the parsers, as a repeated one.
      if (key === '__proto__' || Object.hasOwn(CORE_WORDS, key) || Object.hasOwn(out, key)) return BAIL;
      let from = end + 1;
      while (text.charCodeAt(from) === 32) from += 1;
      let value: Value;
      if (from === this.end) {
        this.advance();
        value = this.nested(indent, true);
      } else value = this.oneLine(from, indent);
      if (value === BAIL) return BAIL;
      out[key] = value;
    }
    return this.indent > indent ? BAIL : out;
  }

  sequence(indent: number): Value {
    const out: Value[] = [];
    const text = this.text;
    while (this.isItem(indent)) {
      let from = this.from + 1;
      while (text.charCodeAt(from) === 32) from += 1;
      let value: Value;
      if (from === this.end) {
        this.advance();
        value = this.nested(indent, false);
      } else if (text.charCodeAt(from) === 45 && (from + 1 === this.end || text.charCodeAt(from + 1) === 32)) {
        return BAIL; // a sequence in a sequence on one line
      } else if (keyEnd(text, from, this.end) >= 0) {
        // A mapping that starts on the item's line: its keys line up with the first one.
        this.indent += from - this.from;
        this.from = from;
        value = this.mapping(this.indent);
      } else value = this.oneLine(from, indent);
      if (value === BAIL) return BAIL;
      out.push(value);
    }
    return this.indent > indent ? BAIL : out;
  }
}

/** The file's value when it is written in the block subset above (a mapping at the top), else undefined. */
export function readBlockYaml(text: string): unknown {
  // Directives and document markers (at a line's start) and unusual characters: the parsers'.
  if (UNUSUAL.test(text) || /^(?:---|\.\.\.|%)/m.test(text)) return undefined;
  const reader = new BlockReader(text);
  if (reader.indent !== 0) return undefined;
  const value = reader.mapping(0);
  return value === BAIL || !reader.done() ? undefined : value;
}
