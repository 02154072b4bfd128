// Unit tests for pg_cron schedule parsing and matching.
import { describe, expect, it } from 'vitest';
import { cronMatches, parseSchedule, ScheduleError, type Schedule } from './schedule.js';

const cron = (text: string) => {
  const parsed = parseSchedule(text);
  if (parsed.kind !== 'cron') throw new Error(`not a cron schedule: ${text}`);
  return parsed;
};
const at = (iso: string) => new Date(iso);

describe('parseSchedule', () => {
  it("reads '[1-59] seconds' intervals as pg_cron does", () => {
    expect(parseSchedule('10 seconds')).toEqual({ kind: 'seconds', seconds: 10 });
    expect(parseSchedule('1 second')).toEqual({ kind: 'seconds', seconds: 1 });
    expect(parseSchedule(' 59 Seconds ')).toEqual({ kind: 'seconds', seconds: 59 });
    expect(parseSchedule('5seconds')).toEqual({ kind: 'seconds', seconds: 5 });
  });

  it('refuses intervals outside 1-59 and other units with pg_cron error text', () => {
    for (const bad of ['0 seconds', '60 seconds', '10 minutes', '10 secs', '-1 seconds']) {
      expect(() => parseSchedule(bad)).toThrow(new ScheduleError(bad));
    }
    const err = (() => {
      try {
        parseSchedule('bad');
      } catch (e) {
        return e as ScheduleError;
      }
    })();
    expect(err?.message).toBe('invalid schedule: bad');
    expect(err?.code).toBe('22023');
    expect(err?.hint).toBe("Use cron format (e.g. 5 4 * * *), or interval format '[1-59] seconds'");
  });

  it('reads five vixie-cron fields: lists, ranges, steps, names, 7 = Sunday', () => {
    const s = cron('0,30 9-17/4 * jan-mar mon-fri');
    expect([...s.minutes]).toEqual([0, 30]);
    expect([...s.hours]).toEqual([9, 13, 17]);
    expect([...s.months]).toEqual([1, 2, 3]);
    expect([...s.weekdays]).toEqual([1, 2, 3, 4, 5]);
    expect([...cron('*/15 * * * *').minutes]).toEqual([0, 15, 30, 45]);
    expect([...cron('0 0 * * 7').weekdays]).toEqual([0]);
  });

  it('refuses malformed cron fields', () => {
    for (const bad of [
      '* * * *',
      '* * * * * *',
      '60 * * * *',
      '* 24 * * *',
      '* * 0 * *',
      '* * * 13 *',
      '* * * * 8',
      '5/10 * * * *',
      '*/0 * * * *',
      'mon * * * *',
      '@every 5m',
      '',
    ]) {
      expect(() => parseSchedule(bad), bad).toThrow(ScheduleError);
    }
  });

  it('expands @-macros and knows @reboot', () => {
    expect(cronMatches(cron('@hourly'), at('2026-01-01T05:00:30Z'))).toBe(true);
    expect(cronMatches(cron('@daily'), at('2026-01-01T05:00:00Z'))).toBe(false);
    expect(parseSchedule('@reboot')).toEqual({ kind: 'reboot' } satisfies Schedule);
  });
});

describe('cronMatches', () => {
  it('matches the UTC minute', () => {
    const s = cron('30 4 * * *');
    expect(cronMatches(s, at('2026-03-10T04:30:59Z'))).toBe(true);
    expect(cronMatches(s, at('2026-03-10T04:31:00Z'))).toBe(false);
  });

  it('needs both day fields when one is *, either one otherwise (vixie cron)', () => {
    // 2026-03-13 is a Friday.
    expect(cronMatches(cron('0 0 13 * *'), at('2026-03-13T00:00:00Z'))).toBe(true);
    expect(cronMatches(cron('0 0 13 * 1'), at('2026-03-13T00:00:00Z'))).toBe(true);
    expect(cronMatches(cron('0 0 14 * 5'), at('2026-03-13T00:00:00Z'))).toBe(true);
    expect(cronMatches(cron('0 0 14 * 1'), at('2026-03-13T00:00:00Z'))).toBe(false);
    expect(cronMatches(cron('0 0 * * 1'), at('2026-03-13T00:00:00Z'))).toBe(false);
  });

  it('reads $ as the last day of the month', () => {
    const s = cron('0 0 $ * *');
    expect(cronMatches(s, at('2026-02-28T00:00:00Z'))).toBe(true);
    expect(cronMatches(s, at('2028-02-28T00:00:00Z'))).toBe(false);
    expect(cronMatches(s, at('2028-02-29T00:00:00Z'))).toBe(true);
  });
});
