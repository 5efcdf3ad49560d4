/**
 * Times in tables on a terminal read as people say them ("3 hours ago", as gh and
 * kubectl print them); TSV, JSON and YAML keep the API's ISO 8601 strings for scripts.
 */

const UNITS: ReadonlyArray<[unit: string, seconds: number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** An ISO 8601 date-time as the API writes it (`2026-11-27T12:00:00.000Z`, an offset, or none). */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?$/;

/**
 * `value` (an ISO 8601 date-time) relative to `now`: "just now", "5 minutes ago",
 * "in 2 days"; anything else (not a date-time the parser reads) is returned as it is.
 */
export function relativeTime(value: string, now: number): string {
  if (!ISO_DATE_TIME.test(value)) return value;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return value;
  const seconds = Math.round((now - at) / 1000);
  const distance = Math.abs(seconds);
  if (distance < 60) return 'just now';
  for (const [unit, size] of UNITS) {
    const count = Math.floor(distance / size);
    if (count >= 1) {
      const amount = `${count} ${unit}${count === 1 ? '' : 's'}`;
      return seconds >= 0 ? `${amount} ago` : `in ${amount}`;
    }
  }
  return 'just now';
}
