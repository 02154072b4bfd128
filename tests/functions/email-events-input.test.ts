// email-events' input rules (supabase/functions/email-events/events.ts): a provider's reason is
// kept as storable text of at most 1,000 characters, and a Message-ID Postgres cannot hold is
// refused, so neither reaches SQL as a 500.
import { describe, expect, it } from 'vitest';
// The Deno file imports its neighbours with `.ts` extensions, which this project's tsc refuses;
// vitest loads it as it is (as signup-input.test.ts does).
const { parseEvents } = (await import(
  /* @vite-ignore */ new URL('../../supabase/functions/email-events/events.ts', import.meta.url)
    .href
)) as {
  parseEvents: (body: unknown) => {
    events: { reason: string | null; message_id: string | null; occurred_at: string | null }[];
    rejected: { index: number; field: string; reason: string }[];
  };
};
const { checkTime, latestSchedule, EVENT_TIME_RANGE } = (await import(
  /* @vite-ignore */ new URL('../../supabase/functions/_shared/iso-time.ts', import.meta.url).href
)) as {
  checkTime: (
    text: string,
    range: { min: number; max: number },
  ) => { ok: boolean; time?: number; iso?: string; reason?: string };
  latestSchedule: (now: number) => number;
  EVENT_TIME_RANGE: { min: number; max: number };
};

const bounce = (extra: Record<string, unknown>) => ({
  type: 'bounce',
  email: 'ada@example.com',
  ...extra,
});

describe('email-events reason', () => {
  it('keeps at most 1,000 characters, never cutting one in half', () => {
    const [event] = parseEvents(bounce({ reason: '📫'.repeat(1200) })).events;
    expect([...event!.reason!]).toHaveLength(1000);
    expect(event!.reason).toBe('📫'.repeat(1000));
  });

  it('replaces what Postgres text cannot hold instead of refusing the event', () => {
    const [event] = parseEvents(bounce({ reason: 'mailbox \u0000full \ud800 now' })).events;
    expect(event!.reason).toBe('mailbox \ufffdfull \ufffd now');
    expect(/\p{Cs}/u.test(event!.reason!)).toBe(false);
  });
});

describe('email-events message_id', () => {
  it('refuses an unpaired surrogate with invalid_input naming the field', () => {
    expect(() => parseEvents(bounce({ message_id: 'abc\udc00@example.com' }))).toThrow(
      expect.objectContaining({ code: 'invalid_input', field: 'message_id' }),
    );
    expect(parseEvents(bounce({ message_id: 'abc@example.com' })).events[0]!.message_id).toBe(
      '<abc@example.com>',
    );
  });
});

describe('email-events occurred_at', () => {
  it('skips a readable time outside 1970–9999 as rejected, keeping the rest', () => {
    const body = [
      bounce({ occurred_at: '0000-01-01T00:00:00Z' }),
      bounce({ occurred_at: '2026-11-22T10:00:00+01:00' }),
      bounce({ occurred_at: '-004714-11-24T00:00:00Z' }),
      bounce({ occurred_at: '+275760-09-13T00:00:00Z' }),
      bounce({ occurred_at: '1969-12-31T23:59:59Z' }),
      bounce({ occurred_at: '+010000-01-01T00:00:00Z' }),
    ];
    const { events, rejected } = parseEvents(body);
    expect(events.map((e) => e.occurred_at)).toEqual(['2026-11-22T09:00:00.000Z']);
    expect(rejected.map((r) => [r.index, r.field])).toEqual([
      [0, 'events[0].occurred_at'],
      [2, 'events[2].occurred_at'],
      [3, 'events[3].occurred_at'],
      [4, 'events[4].occurred_at'],
      [5, 'events[5].occurred_at'],
    ]);
  });

  it('keeps the ends of the range and refuses text that is no time at all', () => {
    const { events } = parseEvents([
      bounce({ occurred_at: '1970-01-01T00:00:00Z' }),
      bounce({ occurred_at: '9999-12-31T23:59:59.999Z' }),
    ]);
    expect(events.map((e) => e.occurred_at)).toEqual([
      '1970-01-01T00:00:00.000Z',
      '9999-12-31T23:59:59.999Z',
    ]);
    expect(() => parseEvents(bounce({ occurred_at: 'last tuesday' }))).toThrow(
      expect.objectContaining({ code: 'invalid_input', field: 'occurred_at' }),
    );
  });
});

describe('checkTime', () => {
  it('answers the ISO form Postgres reads back, or why not', () => {
    expect(checkTime('2030-01-02T03:04:05Z', EVENT_TIME_RANGE)).toEqual({
      ok: true,
      time: Date.UTC(2030, 0, 2, 3, 4, 5),
      iso: '2030-01-02T03:04:05.000Z',
    });
    expect(checkTime('+010000-01-01T00:00:00Z', EVENT_TIME_RANGE)).toEqual({
      ok: false,
      reason: 'out_of_range',
    });
    expect(checkTime('soon', EVENT_TIME_RANGE)).toEqual({ ok: false, reason: 'unreadable' });
    expect(checkTime(`2030-01-01T00:00:00Z${' '.repeat(60)}`, EVENT_TIME_RANGE).ok).toBe(false);
  });

  it('puts the latest schedule ten years ahead, within what Postgres and Date hold', () => {
    const now = Date.UTC(2026, 10, 27, 12);
    expect(new Date(latestSchedule(now)).toISOString()).toBe('2036-11-27T12:00:00.000Z');
    expect(latestSchedule(Date.UTC(9995, 0, 1))).toBe(EVENT_TIME_RANGE.max);
  });
});
