/**
 * Checking an OpenAPI document with a maintained parser (@readme/openapi-parser:
 * Swagger 2.0, OpenAPI 3.0 and 3.1 schemas plus its extra rules — duplicate
 * operationIds, parameters, component names…). Used by the OpenAPI spec routes
 * (processing state of a stored spec) and by the offline `docsctl openapi validate`.
 *
 * The document's text is parsed here (YAML is a superset of JSON), and the parser
 * is given the object, never a path or URL, with external `$ref` resolution off:
 * a document from a request must not make the server read its disk or the network.
 */
import { parse as parseYaml } from 'yaml';

export type OpenApiCheck =
  | { ok: true; title: string; version: string; specification: string }
  | { ok: false; code: 'PARSE_ERROR'; errors: OpenApiProblem[]; /** Problems found, before `errors` was cut to MAX_ERRORS (and a "… more" line). */ total?: number };

/** One problem: what is wrong and where (a JSON pointer into the document, when known). */
export interface OpenApiProblem {
  message: string;
  path?: string;
}

/** At most this many errors are reported (the parser may find thousands in a broken document). */
const MAX_ERRORS = 50;

export async function checkOpenApiText(text: string): Promise<OpenApiCheck> {
  let document: unknown;
  try {
    document = parseYaml(text, { maxAliasCount: 100 });
  } catch (error) {
    return { ok: false, code: 'PARSE_ERROR', errors: [{ message: `Not JSON or YAML: ${(error as Error).message.split('\n')[0]}` }] };
  }
  if (document === null || typeof document !== 'object' || Array.isArray(document)) {
    return { ok: false, code: 'PARSE_ERROR', errors: [{ message: 'Not an OpenAPI document: the top level must be an object' }] };
  }
  const record = document as Record<string, unknown>;
  if (typeof record.openapi !== 'string' && typeof record.swagger !== 'string') {
    return { ok: false, code: 'PARSE_ERROR', errors: [{ message: 'Not an OpenAPI document: no "openapi" (or "swagger") version field' }] };
  }
  const { validate } = await import('@readme/openapi-parser');
  let result: Awaited<ReturnType<typeof validate>>;
  try {
    result = await validate(structuredClone(record) as never, { resolve: { external: false, file: false }, timeoutMs: 10_000 });
  } catch (error) {
    return { ok: false, code: 'PARSE_ERROR', errors: [{ message: (error as Error).message.split('\n')[0] ?? 'invalid document' }] };
  }
  if (!result.valid) {
    const lines = pointerLines(record);
    const errors: OpenApiProblem[] = result.errors.slice(0, MAX_ERRORS).map((e) => problem(e.message, lines));
    const total = result.errors.length + result.additionalErrors;
    if (total > MAX_ERRORS) errors.push({ message: `… and ${total - MAX_ERRORS} more` });
    return { ok: false, code: 'PARSE_ERROR', errors, total };
  }
  const info = (record.info ?? {}) as Record<string, unknown>;
  return {
    ok: true,
    title: typeof info.title === 'string' ? info.title : '',
    version: typeof info.version === 'string' ? info.version : '',
    specification: String(record.openapi ?? record.swagger),
  };
}

/**
 * The parser reports each problem as a message and a code frame of
 * `JSON.stringify(document, null, 2)` with a `>` on the offending line. That
 * text is rebuilt here with the JSON pointer of the value each line starts, so a
 * problem gets a path into the user's document rather than a line of ours.
 */
function pointerLines(document: unknown): string[] {
  const lines: string[] = [];
  const walk = (value: unknown, pointer: string): void => {
    lines.push(pointer);
    if (value === null || typeof value !== 'object') return;
    const entries = Array.isArray(value)
      ? value.map((item, index) => [String(index), item] as const)
      : Object.entries(value).filter(([, item]) => item !== undefined && typeof item !== 'function');
    if (entries.length === 0) return;
    for (const [key, item] of entries) walk(item, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    lines.push(pointer); // the closing bracket
  };
  walk(document, '');
  return lines;
}

function problem(raw: string, lines: readonly string[]): OpenApiProblem {
  const [first = 'invalid document', ...frame] = raw.trim().split('\n');
  const message = first.replace(/^[A-Z_]+ (?=[a-z])/, '').trim();
  const marked = frame.map((line) => /^>\s*(\d+) \|/.exec(line)).find((match) => match !== null);
  const path = marked ? lines[Number(marked[1]) - 1] : undefined;
  return path === undefined ? { message } : { message, path: path === '' ? '/' : path };
}
