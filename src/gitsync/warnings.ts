/**
 * The warnings of one conversion, bounded: a repository (or a request) with a
 * million broken links or ignored SUMMARY.md lines must not make an answer of a
 * million lines. The first `MAX_WARNINGS` are kept, each cut to
 * `MAX_WARNING_LENGTH` characters (they quote the repository's text); the last
 * line says how many more there were.
 */
export const MAX_WARNINGS = 100;
export const MAX_WARNING_LENGTH = 300;

export class Warnings {
  private readonly kept: string[] = [];
  private more = 0;

  /** True once no further warning would be kept (callers may skip building them, calling `skip`). */
  get full(): boolean {
    return this.kept.length >= MAX_WARNINGS;
  }

  push(...lines: string[]): void {
    for (const line of lines) {
      if (this.full) this.more += 1;
      else this.kept.push(line.length > MAX_WARNING_LENGTH ? `${line.slice(0, MAX_WARNING_LENGTH - 1)}…` : line);
    }
  }

  /** Counts warnings that were not built because the list is full. */
  skip(count = 1): void {
    this.more += count;
  }

  /** The kept warnings, then `… and N more warnings` when some were left out. */
  get list(): string[] {
    return this.more === 0 ? [...this.kept] : [...this.kept, `… and ${this.more} more warning${this.more === 1 ? '' : 's'}`];
  }
}
