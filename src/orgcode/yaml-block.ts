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

interface Line {
  indent: number;
  text: string;
}

const BAIL = Symbol('bail');
type Value = unknown;

/** A key written plainly (no quotes, no spaces): `title`, `primaryColor`, `my-field`. */
const KEY = /^([A-Za-z_][A-Za-z0-9_-]*):(?: +(.*))?$/;
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
  if (NUMBER.test(text)) return SMALL_INT.test(text) ? Number(text) : BAIL;
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

class BlockReader {
  i = 0;
  constructor(private readonly lines: Line[]) {}

  private isItem(line: Line | undefined, indent: number): boolean {
    return line !== undefined && line.indent === indent && (line.text === '-' || line.text.startsWith('- '));
  }

  /** The node whose first line is the current one, at its indentation. */
  node(indent: number): Value {
    return this.isItem(this.lines[this.i], indent) ? this.sequence(indent) : this.mapping(indent);
  }

  /** A key's or an item's value on the following lines (none: null). */
  private nested(indent: number, allowSameIndentSequence: boolean): Value {
    const next = this.lines[this.i];
    if (next !== undefined && next.indent > indent) return this.node(next.indent);
    if (allowSameIndentSequence && this.isItem(next, indent)) return this.sequence(indent);
    return null;
  }

  /** After a one-line value: a following line indented further would continue it. */
  private ended(indent: number): boolean {
    const next = this.lines[this.i];
    return next === undefined || next.indent <= indent;
  }

  mapping(indent: number): Value {
    const out: Record<string, Value> = {};
    for (let line = this.lines[this.i]; line !== undefined && line.indent === indent && !this.isItem(line, indent); line = this.lines[this.i]) {
      const match = KEY.exec(line.text);
      if (!match) return BAIL;
      const key = match[1] as string;
      // A key the core schema reads as null or a boolean is left to the parsers, as a repeated one.
      if (key === '__proto__' || Object.hasOwn(CORE_WORDS, key) || Object.hasOwn(out, key)) return BAIL;
      this.i += 1;
      const rest = match[2];
      let value: Value;
      if (rest === undefined || rest === '') value = this.nested(indent, true);
      else {
        value = scalar(rest);
        if (!this.ended(indent)) return BAIL;
      }
      if (value === BAIL) return BAIL;
      out[key] = value;
    }
    const after = this.lines[this.i];
    return after !== undefined && after.indent > indent ? BAIL : out;
  }

  sequence(indent: number): Value {
    const out: Value[] = [];
    for (let line = this.lines[this.i]; this.isItem(line, indent); line = this.lines[this.i]) {
      const item = (line as Line).text.slice(1);
      const content = item.trimStart();
      let value: Value;
      if (content === '') {
        this.i += 1;
        value = this.nested(indent, false);
      } else if (content.startsWith('-') && (content === '-' || content.startsWith('- '))) {
        return BAIL; // a sequence in a sequence on one line
      } else if (KEY.test(content)) {
        // A mapping that starts on the item's line: its keys line up with the first one.
        const column = indent + 1 + (item.length - content.length);
        this.lines[this.i] = { indent: column, text: content };
        value = this.mapping(column);
      } else {
        this.i += 1;
        value = scalar(content);
        if (!this.ended(indent)) return BAIL;
      }
      if (value === BAIL) return BAIL;
      out.push(value);
    }
    const after = this.lines[this.i];
    return after !== undefined && after.indent > indent ? BAIL : out;
  }
}

/** The file's value when it is written in the block subset above (a mapping at the top), else undefined. */
export function readBlockYaml(text: string): unknown {
  if (UNUSUAL.test(text)) return undefined;
  const lines: Line[] = [];
  for (const raw of text.split('\n')) {
    // Only spaces: YAML trims no other character at a line's end.
    let end = raw.length;
    while (end > 0 && raw.charCodeAt(end - 1) === 32) end -= 1;
    const trimmed = raw.slice(0, end);
    let indent = 0;
    while (trimmed.charCodeAt(indent) === 32) indent += 1;
    if (indent === trimmed.length || trimmed.charCodeAt(indent) === 35 /* # */) continue;
    const content = trimmed.slice(indent);
    if (indent === 0 && (content.startsWith('---') || content.startsWith('...') || content.startsWith('%'))) return undefined;
    lines.push({ indent, text: content });
  }
  if (lines.length === 0 || (lines[0] as Line).indent !== 0) return undefined;
  const reader = new BlockReader(lines);
  const value = reader.mapping(0);
  return value === BAIL || reader.i !== lines.length ? undefined : value;
}
