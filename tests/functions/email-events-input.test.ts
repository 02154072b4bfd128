// email-events' input rules (supabase/functions/email-events/events.ts): a provider's reason is
// kept as storable text of at most 1,000 characters, and a Message-ID Postgres cannot hold is
// refused, so neither reaches SQL as a 500.
import { describe, expect, it } from 'vitest';
// The Deno file imports its neighbours with `.ts` extensions, which this project's tsc refuses;
// vitest loads it as it is (as signup-input.test.ts does).
const { parseEvents } = (await import(
  /* @vite-ignore */ new URL('../../supabase/functions/email-events/events.ts', import.meta.url)
    .href
)) as { parseEvents: (body: unknown) => { reason: string | null; message_id: string | null }[] };

const bounce = (extra: Record<string, unknown>) => ({
  type: 'bounce',
  email: 'ada@example.com',
  ...extra,
});

describe('email-events reason', () => {
  it('keeps at most 1,000 characters, never cutting one in half', () => {
    const [event] = parseEvents(bounce({ reason: '📫'.repeat(1200) }));
    expect([...event!.reason!]).toHaveLength(1000);
    expect(event!.reason).toBe('📫'.repeat(1000));
  });

  it('replaces what Postgres text cannot hold instead of refusing the event', () => {
    const [event] = parseEvents(bounce({ reason: 'mailbox \u0000full \ud800 now' }));
    expect(event!.reason).toBe('mailbox \ufffdfull \ufffd now');
    expect(/\p{Cs}/u.test(event!.reason!)).toBe(false);
  });
});

describe('email-events message_id', () => {
  it('refuses an unpaired surrogate with invalid_input naming the field', () => {
    expect(() => parseEvents(bounce({ message_id: 'abc\udc00@example.com' }))).toThrow(
      expect.objectContaining({ code: 'invalid_input', field: 'message_id' }),
    );
    expect(parseEvents(bounce({ message_id: 'abc@example.com' }))[0]!.message_id).toBe(
      '<abc@example.com>',
    );
  });
});
