/**
 * Path-template matching shared by the full route table and the light catalog:
 * `/v1/spaces/{spaceId}` → a regex per template, literal-heavy templates first.
 */
import type { HttpMethod } from './route.js';

export interface Matchable {
  readonly method: HttpMethod;
  readonly path: string;
}

interface Compiled<T> {
  item: T;
  pattern: RegExp;
  names: string[];
  literals: number;
}

export interface Match<T> {
  item: T;
  params: Record<string, string>;
}

export class PathMatcher<T extends Matchable> {
  private readonly byMethod = new Map<HttpMethod, Compiled<T>[]>();

  constructor(items: readonly T[]) {
    for (const item of items) {
      const names: string[] = [];
      const source = item.path
        .split('/')
        .map((segment) => {
          const param = /^\{([A-Za-z0-9_]+)\}$/.exec(segment);
          if (!param) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
          names.push(param[1] as string);
          // `pagePath` may span several segments (a page path such as `guides/setup`).
          return param[1] === 'pagePath' ? '(.+?)' : '([^/]+)';
        })
        .join('/');
      const literals = item.path.split('/').filter((s) => s && !s.startsWith('{')).length;
      const list = this.byMethod.get(item.method) ?? [];
      list.push({ item, pattern: new RegExp(`^${source}/?$`), names, literals });
      this.byMethod.set(item.method, list);
    }
    for (const list of this.byMethod.values()) list.sort((a, b) => b.literals - a.literals);
  }

  /** The item for a method and a path (without query string), or undefined. */
  match(method: string, pathname: string): Match<T> | undefined {
    const candidates = this.byMethod.get(method.toUpperCase() as HttpMethod);
    if (!candidates) return undefined;
    for (const candidate of candidates) {
      const found = candidate.pattern.exec(pathname);
      if (!found) continue;
      const params: Record<string, string> = {};
      let malformed = false;
      candidate.names.forEach((name, index) => {
        try {
          params[name] = decodeURIComponent(found[index + 1] as string);
        } catch {
          malformed = true;
        }
      });
      if (!malformed) return { item: candidate.item, params };
    }
    return undefined;
  }

  /** The methods any item accepts for a path (for 405 answers). */
  methodsFor(pathname: string): HttpMethod[] {
    const methods: HttpMethod[] = [];
    for (const [method, list] of this.byMethod) {
      if (list.some((candidate) => candidate.pattern.test(pathname))) methods.push(method);
    }
    return methods;
  }
}
