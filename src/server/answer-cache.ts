/**
 * The answers `serve` keeps for one generation of the store (AnswerCache,
 * domain/handler.ts): the first request that reads a newer generation starts afresh,
 * and a request still reading an older one computes its answer without keeping it.
 * At most `limit` answers are kept, the oldest leaving first: they can be big (the
 * text of a 40,000-page site tree is ~4 MB). Lasting values (derived from
 * content-addressed objects) stay across generations, up to `lastingBound` in their
 * own size unit (pages, for the site tree's page trees), least recently used first out.
 */
import type { AnswerCache } from '../domain/handler.js';

export class GenerationAnswers {
  private gen = -1;
  private readonly kept = new Map<string, unknown>();
  private readonly lastingKept = new Map<string, { value: unknown; size: number }>();
  private lastingSize = 0;

  constructor(
    private readonly limit = 16,
    private readonly lastingBound = 200_000,
  ) {}

  /** The cache of the answers computed from generation `gen`. */
  at(gen: number): AnswerCache {
    return {
      get: (key, compute) => this.get(gen, key, compute),
      lasting: (key, compute, size) => this.lasting(key, compute, size),
    };
  }

  private lasting<T>(key: string, compute: () => T, size: (value: T) => number): T {
    const found = this.lastingKept.get(key);
    if (found) {
      // Most recently used last: eviction takes from the front.
      this.lastingKept.delete(key);
      this.lastingKept.set(key, found);
      return found.value as T;
    }
    const value = compute();
    const entry = { value, size: size(value) };
    if (entry.size > this.lastingBound) return value;
    for (const [oldKey, old] of this.lastingKept) {
      if (this.lastingSize + entry.size <= this.lastingBound) break;
      this.lastingKept.delete(oldKey);
      this.lastingSize -= old.size;
    }
    this.lastingKept.set(key, entry);
    this.lastingSize += entry.size;
    return value;
  }

  private get<T>(gen: number, key: string, compute: () => T): T {
    if (gen < this.gen) return compute();
    if (gen > this.gen) {
      this.gen = gen;
      this.kept.clear();
    }
    if (this.kept.has(key)) return this.kept.get(key) as T;
    const value = compute();
    if (this.kept.size >= this.limit) this.kept.delete(this.kept.keys().next().value as string);
    this.kept.set(key, value);
    return value;
  }
}
