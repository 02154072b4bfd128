// pg_cron schedules: '[1-59] seconds', @-macros and five-field vixie cron in UTC, parsed and matched.

/** A schedule pg_cron accepts. Cron fields are evaluated in UTC (pg_cron's default cron.timezone). */
export type Schedule =
  | { kind: 'seconds'; seconds: number }
  | { kind: 'reboot' }
  | {
      kind: 'cron';
      minutes: Set<number>;
      hours: Set<number>;
      days: Set<number>;
      months: Set<number>;
      weekdays: Set<number>;
      /** `$` in the day-of-month field: the last day of the month. */
      lastDay: boolean;
      /** Vixie cron: a `*` day field leaves the other to decide; else either may match. */
      daysStar: boolean;
      weekdaysStar: boolean;
    };

/** pg_cron's error for a schedule it cannot parse (SQLSTATE 22023), hint included. */
export class ScheduleError extends Error {
  readonly code = '22023';
  readonly hint = "Use cron format (e.g. 5 4 * * *), or interval format '[1-59] seconds'";
  constructor(schedule: string) {
    super(`invalid schedule: ${schedule}`);
    this.name = 'ScheduleError';
  }
}

const MACROS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
// minute, hour, day of month, month, day of week (0 and 7 are Sunday)
const BOUNDS: Array<[number, number]> = [
  [0, 59],
  [0, 23],
  [1, 31],
  [1, 12],
  [0, 7],
];

function value(token: string, field: number): number | null {
  let n: number;
  if (/^[0-9]+$/.test(token)) n = Number(token);
  else if (field === 3) n = MONTHS.indexOf(token) + 1 || NaN;
  else if (field === 4) n = DAYS.indexOf(token) === -1 ? NaN : DAYS.indexOf(token);
  else n = NaN;
  const [lo, hi] = BOUNDS[field]!;
  return Number.isInteger(n) && n >= lo && n <= hi ? n : null;
}

/** One field's values, or null when pg_cron would refuse it. */
function parseField(text: string, field: number): Set<number> | null {
  const [lo, hi] = BOUNDS[field]!;
  const out = new Set<number>();
  for (const item of text.split(',')) {
    const m = item.match(/^(?:(\*)|([a-z0-9]+)(?:-([a-z0-9]+))?)(?:\/([0-9]{1,9}))?$/);
    if (!m) return null;
    const [, star, first, last, stepText] = m;
    const step = stepText === undefined ? 1 : Number(stepText);
    // A step follows `*` or a range only, as in vixie cron's get_range().
    if (stepText !== undefined && (step === 0 || (!star && last === undefined))) return null;
    let from = lo;
    let to = hi;
    if (!star) {
      const a = value(first!, field);
      const b = last === undefined ? a : value(last, field);
      if (a === null || b === null) return null;
      from = a;
      to = b;
    }
    for (let i = from; i <= to; i += step) out.add(field === 4 && i === 7 ? 0 : i);
  }
  return out;
}

/** Parses like pg_cron's ParseSchedule; throws ScheduleError with its message otherwise. */
export function parseSchedule(schedule: string): Schedule {
  const text = schedule.trim().toLowerCase();
  // pg_cron reads intervals with sscanf(" %u secon%c%c %c"): "N second" or "N seconds".
  const interval = text.match(/^([0-9]{1,9})\s*seconds?$/);
  if (interval) {
    const seconds = Number(interval[1]);
    if (seconds < 1 || seconds > 59) throw new ScheduleError(schedule);
    return { kind: 'seconds', seconds };
  }
  if (text === '@reboot') return { kind: 'reboot' };
  const fields = (MACROS[text] ?? text).split(/\s+/);
  if (fields.length !== 5) throw new ScheduleError(schedule);
  const lastDay = fields[2]!.split(',').includes('$');
  const dayItems = fields[2]!
    .split(',')
    .filter((item) => item !== '$')
    .join(',');
  const sets = fields.map((f, i) =>
    i === 2 && dayItems === '' ? new Set<number>() : parseField(i === 2 ? dayItems : f, i),
  );
  if (sets.some((s) => s === null)) throw new ScheduleError(schedule);
  const [minutes, hours, days, months, weekdays] = sets as Array<Set<number>>;
  return {
    kind: 'cron',
    minutes: minutes!,
    hours: hours!,
    days: days!,
    months: months!,
    weekdays: weekdays!,
    lastDay,
    daysStar: fields[2]!.startsWith('*'),
    weekdaysStar: fields[4]!.startsWith('*'),
  };
}

/** Whether a cron schedule fires in the UTC minute that contains `at`. */
export function cronMatches(schedule: Extract<Schedule, { kind: 'cron' }>, at: Date): boolean {
  if (!schedule.minutes.has(at.getUTCMinutes()) || !schedule.hours.has(at.getUTCHours())) {
    return false;
  }
  if (!schedule.months.has(at.getUTCMonth() + 1)) return false;
  const day = at.getUTCDate();
  const lastOfMonth = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 0)).getUTCDate();
  const dayOk = schedule.days.has(day) || (schedule.lastDay && day === lastOfMonth);
  const weekdayOk = schedule.weekdays.has(at.getUTCDay());
  // Vixie cron: when either day field is `*`, both must match; otherwise either one suffices.
  return schedule.daysStar || schedule.weekdaysStar ? dayOk && weekdayOk : dayOk || weekdayOk;
}
