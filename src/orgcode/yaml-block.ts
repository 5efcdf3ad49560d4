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
 * One line, matched where it starts (sticky): its indentation; `-` and the spaces after it when
 * the line is a sequence item; a key written plainly (a letter or `_`, then letters, digits, `_`,
 * `-`; then `:` at the end or before a space) and the spaces after it; the rest, without the
 * spaces that end the line (YAML trims no other character there). It always matches, up to the
 * line's end: one native match a line, where a scan by hand is ~10 JavaScript steps a character
 * before the code warms up (this regex was most of the reader's cost in a cold process).
 */
const LINE = /( *)(-(?= |\n|$) *)?(?:([A-Za-z_][A-Za-z0-9_-]*):(?= |\n|$) *)?(?:([A-Za-z][\w.@/+-]*(?: +[\w.@/+-]+)*)|([^\n]*?)) *(?:\n|$)/y;

/** Reads the text line by line, with one match of LINE a line (no array of lines). */
class BlockReader {
  /** The current line: its indentation (-1: the end of the text). */
  indent = -1;
  /** A sequence item (`- ` or a lone `-`); `inner`: the column after the dash and its spaces. */
  private item = false;
  private inner = 0;
  /** The key written at `inner` (at `indent` on a line that is no item), if any. */
  private key: string | undefined;
  /** What follows the key, the dash or the indentation, to the line's end. */
  private value = '';
  /** The value is plain words: a string, unless a core-schema word (true, null…). */
  private word = false;
  /** Where the next line starts. */
  private next = 0;
  constructor(private readonly text: string) {
    this.advance();
  }

  /** Moves to the next line that is neither blank nor a comment. */
  private advance(): void {
    const text = this.text;
    while (this.next < text.length) {
      LINE.lastIndex = this.next;
      const match = LINE.exec(text) as RegExpExecArray;
      this.next = LINE.lastIndex;
      const [, spaces, dash, key, word, rest] = match as unknown as [string, string, string | undefined, string | undefined, string | undefined, string];
      if (dash === undefined && key === undefined && word === undefined && (rest === '' || rest.charCodeAt(0) === 35 /* # */)) continue;
      this.indent = spaces.length;
      this.item = dash !== undefined;
      this.inner = this.indent + (dash === undefined ? 0 : dash.length);
      this.key = key;
      this.word = word !== undefined;
      this.value = word ?? rest;
      return;
    }
    this.indent = -1;
  }

  /** Past the last line. */
  done(): boolean {
    return this.indent === -1;
  }

  private isItem(indent: number): boolean {
    return this.indent === indent && this.item;
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

  /** The current line's value; a following line indented further would continue it. */
  private oneLine(indent: number): Value {
    const value = this.word ? (this.value.length <= 5 && Object.hasOwn(CORE_WORDS, this.value) ? CORE_WORDS[this.value] : this.value) : scalar(this.value);
    this.advance();
    return this.indent > indent ? BAIL : value;
  }

  mapping(indent: number): Value {
    const out: Record<string, Value> = {};
    while (this.indent === indent && !this.item) {
      const key = this.key;
      if (key === undefined) return BAIL;
      // A key the core schema reads as null or a boolean is left to the parsers, as a repeated one.
      if (key === '__proto__' || Object.hasOwn(CORE_WORDS, key) || Object.hasOwn(out, key)) return BAIL;
      let value: Value;
      if (this.value === '') {
        this.advance();
        value = this.nested(indent, true);
      } else value = this.oneLine(indent);
      if (value === BAIL) return BAIL;
      out[key] = value;
    }
    return this.indent > indent ? BAIL : out;
  }

  sequence(indent: number): Value {
    const out: Value[] = [];
    while (this.isItem(indent)) {
      let value: Value;
      if (this.key !== undefined) {
        // A mapping that starts on the item's line: its keys line up with the first one.
        this.indent = this.inner;
        this.item = false;
        value = this.mapping(this.indent);
      } else if (this.value === '') {
        this.advance();
        value = this.nested(indent, false);
      } else value = this.oneLine(indent); // `- - x` too: a scalar cannot start with `- `
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
