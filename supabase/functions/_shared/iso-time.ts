// Times that arrive as text (a campaign's schedule, a provider's occurred_at) → milliseconds, only
// within a range every part of the stack holds. JS Date reaches ±275760 years and Postgres'
// timestamptz 4713 BC to 294276 AD, but Date's ISO form of a year outside 0000–9999 ("+010000-…",
// "-004714-…") and the year 0000 itself are not input Postgres accepts: those used to be 500s.
// Pure, so vitest tests it too.

export type TimeCheck =
  { ok: true; time: number; iso: string } | { ok: false; reason: 'unreadable' | 'out_of_range' };

/** Provider events (and the ceiling of any time): the Unix epoch up to the last moment of 9999. */
export const EVENT_TIME_RANGE = { min: Date.UTC(1970, 0, 1), max: Date.UTC(10000, 0, 1) - 1 };

/** How far ahead a campaign may be scheduled; far enough for any plan, near enough to be meant. */
export const MAX_SCHEDULE_YEARS = 10;

/**
 * Reads a date and time (what Date.parse reads, at most 64 characters) and checks it lies within
 * [min, max] (milliseconds since the epoch). `iso` is the normalised form Postgres reads back.
 */
export function checkTime(text: string, range: { min: number; max: number }): TimeCheck {
  const time = text.length <= 64 ? Date.parse(text) : NaN;
  if (!Number.isFinite(time)) return { ok: false, reason: 'unreadable' };
  if (time < range.min || time > range.max) return { ok: false, reason: 'out_of_range' };
  return { ok: true, time, iso: new Date(time).toISOString() };
}

/** The latest moment a campaign may be scheduled for, seen from `now` (never past year 9999). */
export function latestSchedule(now: number): number {
  const limit = new Date(now);
  limit.setUTCFullYear(limit.getUTCFullYear() + MAX_SCHEDULE_YEARS);
  return Math.min(limit.getTime(), EVENT_TIME_RANGE.max);
}
