// Dates and counts as the admin shows them: one formatter each, in the browser's locale and time zone.
const DAY = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const MOMENT = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const COUNT = new Intl.NumberFormat();

/** "12,345" in the browser's locale. */
export function formatCount(n: number): string {
  return COUNT.format(n);
}

/** The noun that goes with a count, in English: countNoun(1, 'address', 'addresses') is "address". */
export function countNoun(n: number, one: string, other: string): string {
  return n === 1 ? one : other;
}

/** "22 Nov 2026"; an em dash for no date. */
export function formatDay(iso: string | null | undefined): string {
  return iso ? DAY.format(new Date(iso)) : '—';
}

/** "22 Nov 2026, 16:20". */
export function formatMoment(iso: string | null | undefined): string {
  return iso ? MOMENT.format(new Date(iso)) : '—';
}
