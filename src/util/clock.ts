/**
 * Time comes from a Clock so tests can move it (e.g. across the 7-day restore window).
 *
 * `DOCSCTL_NOW` (an ISO date) pins the clock for end-to-end tests of the binary;
 * `DOCSCTL_CLOCK_OFFSET` (e.g. `8d`, `-2h`, `90s`) shifts real time. Both are testing aids.
 */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

export function fixedClock(at: Date | string): Clock {
  const time = new Date(at).getTime();
  return () => new Date(time);
}

/** A clock tests can advance. */
export function manualClock(start: Date | string = '2026-01-01T00:00:00.000Z') {
  let now = new Date(start).getTime();
  const clock: Clock & { advance(ms: number): void; set(at: Date | string): void } = Object.assign(
    () => new Date(now),
    {
      advance(ms: number) {
        now += ms;
      },
      set(at: Date | string) {
        now = new Date(at).getTime();
      },
    },
  );
  return clock;
}

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Parses `8d`, `-2h`, `90s`, `15m` into milliseconds; undefined when malformed. */
export function parseDuration(text: string): number | undefined {
  const match = /^(-?\d+(?:\.\d+)?)([smhd])$/.exec(text.trim());
  if (!match) return undefined;
  return Number(match[1]) * (UNIT_MS[match[2] as string] as number);
}

/** The clock the environment asks for. */
export function clockFromEnv(env: NodeJS.ProcessEnv): Clock {
  if (env.DOCSCTL_NOW) {
    const at = new Date(env.DOCSCTL_NOW);
    if (!Number.isNaN(at.getTime())) return fixedClock(at);
  }
  if (env.DOCSCTL_CLOCK_OFFSET) {
    const offset = parseDuration(env.DOCSCTL_CLOCK_OFFSET);
    if (offset !== undefined) return () => new Date(Date.now() + offset);
  }
  return systemClock;
}
