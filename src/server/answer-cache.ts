/**
 * The answers `serve` keeps for one generation of the store (AnswerCache,
 * domain/handler.ts): the first request that reads a newer generation starts afresh,
 * and a request still reading an older one computes its answer without keeping it.
 * At most `limit` answers are kept, the oldest leaving first: they can be big (the
 * text of a 40,000-page site tree is ~4 MB).
 */
import type { AnswerCache } from '../domain/handler.js';

export class GenerationAnswers {
  private gen = -1;
  private readonly kept = new Map<string, unknown>();

  constructor(private readonly limit = 16) {}

  /** The cache of the answers computed from generation `gen`. */
  at(gen: number): AnswerCache {
    return { get: (key, compute) => this.get(gen, key, compute) };
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
