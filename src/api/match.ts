/**
 * Path-template matching shared by the full route table and the light catalog,
 * precompiled into one segment trie per method: `/v1/spaces/{spaceId}` is the path
 * `v1` → `spaces` → {param}. A request walks the trie once, segment by segment
 * (literal children before parameters, backtracking when a branch dead-ends),
 * instead of trying every template's regex in turn.
 */
import type { HttpMethod } from './route.js';

export interface Matchable {
  readonly method: HttpMethod;
  readonly path: string;
}

export interface Match<T> {
  item: T;
  params: Record<string, string>;
}

/** `pagePath` may span several segments (a page path such as `guides/setup`). */
const GREEDY_PARAM = 'pagePath';

interface Node<T> {
  literals: Map<string, Node<T>>;
  /** `{name}`: one segment. */
  param?: { name: string; next: Node<T> };
  /** `{pagePath}`: one or more segments (shortest first). */
  rest?: { name: string; next: Node<T> };
  /** The item whose template ends here. */
  item?: T;
}

const newNode = <T>(): Node<T> => ({ literals: new Map() });

/** `/v1/spaces/x/` → ['v1', 'spaces', 'x'] (a trailing slash is allowed, as before). */
function segmentsOf(pathname: string): string[] | undefined {
  if (!pathname.startsWith('/')) return undefined;
  const end = pathname.length > 1 && pathname.endsWith('/') ? pathname.length - 1 : pathname.length;
  return pathname.slice(1, end).split('/');
}

export class PathMatcher<T extends Matchable> {
  private readonly roots = new Map<HttpMethod, Node<T>>();

  constructor(items: readonly T[]) {
    for (const item of items) {
      let node: Node<T> = this.roots.get(item.method) ?? newNode<T>();
      this.roots.set(item.method, node);
      // The template's own trailing slash (`/v1/`, getApiInformation) is dropped as a request's is.
      for (const segment of segmentsOf(item.path) ?? []) {
        const param = /^\{([A-Za-z0-9_]+)\}$/.exec(segment)?.[1];
        if (param === undefined) {
          const next: Node<T> = node.literals.get(segment) ?? newNode<T>();
          node.literals.set(segment, next);
          node = next;
        } else if (param === GREEDY_PARAM) {
          node.rest ??= { name: param, next: newNode<T>() };
          node = node.rest.next;
        } else {
          node.param ??= { name: param, next: newNode<T>() };
          node = node.param.next;
        }
      }
      // The first template declared for a path wins, as the table order decides.
      node.item ??= item;
    }
  }

  /** The item for a method and a path (without query string), or undefined. */
  match(method: string, pathname: string): Match<T> | undefined {
    const root = this.roots.get(method as HttpMethod) ?? this.roots.get(method.toUpperCase() as HttpMethod);
    const segments = segmentsOf(pathname);
    if (!root || !segments) return undefined;
    const captured: Array<[string, string]> = [];
    const item = walk(root, segments, 0, captured);
    if (item === undefined) return undefined;
    const params: Record<string, string> = {};
    for (const [name, raw] of captured) {
      // Only a '%' changes (or breaks) under decoding: most ids have none, and the decoder was most of a match's cost.
      if (!raw.includes('%')) {
        params[name] = raw;
        continue;
      }
      try {
        params[name] = decodeURIComponent(raw);
      } catch {
        return undefined;
      }
    }
    return { item, params };
  }

  /** The methods any item accepts for a path (for 405 answers). */
  methodsFor(pathname: string): HttpMethod[] {
    const segments = segmentsOf(pathname);
    if (!segments) return [];
    const methods: HttpMethod[] = [];
    for (const [method, root] of this.roots) {
      if (walk(root, segments, 0, []) !== undefined) methods.push(method);
    }
    return methods;
  }
}

/** Depth-first walk: literal, then one-segment parameter, then the greedy one; `captured` holds the params on success. */
function walk<T>(node: Node<T>, segments: string[], at: number, captured: Array<[string, string]>): T | undefined {
  if (at === segments.length) return node.item;
  const segment = segments[at] as string;
  const literal = node.literals.get(segment);
  if (literal) {
    const found = walk(literal, segments, at + 1, captured);
    if (found !== undefined) return found;
  }
  if (segment === '') return undefined;
  if (node.param) {
    captured.push([node.param.name, segment]);
    const found = walk(node.param.next, segments, at + 1, captured);
    if (found !== undefined) return found;
    captured.pop();
  }
  if (node.rest) {
    for (let end = at + 1; end <= segments.length; end++) {
      if (segments[end - 1] === '') break;
      captured.push([node.rest.name, segments.slice(at, end).join('/')]);
      const found = walk(node.rest.next, segments, end, captured);
      if (found !== undefined) return found;
      captured.pop();
    }
  }
  return undefined;
}
