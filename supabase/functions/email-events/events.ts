// The webhook's event shapes → the one validated shape record_email_events takes. The neutral
// shape is Postbox's own; Postmark's bounce and spam-complaint webhooks are accepted as they come.
import { checkEmail } from '../_shared/email.ts';
import { AppError, invalidInput } from '../_shared/errors.ts';
import { checkTime, EVENT_TIME_RANGE } from '../_shared/iso-time.ts';
import { isStorable, storable } from '../_shared/text.ts';

export interface EmailEvent {
  type: 'bounce' | 'complaint';
  email: string;
  kind: 'hard' | 'soft' | null;
  message_id: string | null;
  reason: string | null;
  occurred_at: string | null;
}

export const MAX_EVENTS = 1000;
const MAX_REASON = 1000;

/** An event skipped rather than refused: well-formed, but with a value no provider can mean. */
export interface RejectedEvent {
  /** Its place in the body (0 for a single event). */
  index: number;
  field: string;
  reason: string;
}

/**
 * Thrown by validate for an event to skip: the rest of the batch is still applied, since a
 * provider retries a refused batch as a whole and one such event would block it forever.
 */
class Skip extends Error {
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/**
 * A body (one event or an array of them) → the validated events and the skipped ones, or the
 * first malformed event as an error (which refuses the whole batch: the sender has a bug).
 */
export function parseEvents(body: unknown): { events: EmailEvent[]; rejected: RejectedEvent[] } {
  const many = Array.isArray(body);
  const items = many ? (body as unknown[]) : [body];
  if (items.length === 0 || items.length > MAX_EVENTS) {
    throw invalidInput('body', `must hold 1 to ${MAX_EVENTS} events`);
  }
  const events: EmailEvent[] = [];
  const rejected: RejectedEvent[] = [];
  items.forEach((item, i) => {
    const field = (name: string) => (many ? `events[${i}].${name}` : name);
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      throw invalidInput(many ? `events[${i}]` : 'body', 'must be a JSON object');
    }
    const event = item as Record<string, unknown>;
    const mapped = 'RecordType' in event ? fromPostmark(event) : event;
    if (!mapped) return;
    try {
      events.push(validate(mapped, field));
    } catch (error) {
      if (!(error instanceof Skip)) throw error;
      rejected.push({ index: i, field: error.field, reason: error.reason });
    }
  });
  return { events, rejected };
}

function validate(event: Record<string, unknown>, field: (name: string) => string): EmailEvent {
  const type = event.type;
  if (type !== 'bounce' && type !== 'complaint') {
    throw invalidInput(field('type'), 'must be "bounce" or "complaint"');
  }
  const email = checkEmail(event.email);
  if (!email.ok) {
    throw new AppError('invalid_email', undefined, { field: field('email') });
  }
  const kind = event.kind ?? null;
  if (type === 'bounce' ? kind !== null && kind !== 'hard' && kind !== 'soft' : kind !== null) {
    throw invalidInput(field('kind'), 'must be "hard" or "soft", and only on a bounce');
  }
  return {
    type,
    email: email.email,
    kind: type === 'bounce' ? ((kind as 'hard' | 'soft' | null) ?? 'hard') : null,
    message_id: messageId(event.message_id, field('message_id')),
    reason: reasonText(optionalText(event.reason, field('reason'))),
    occurred_at: occurredAt(event.occurred_at, field('occurred_at')),
  };
}

function optionalText(value: unknown, name: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw invalidInput(name, 'must be a string');
  return value;
}

/** `<id@host>` as deliveries.message_id stores it; the angle brackets are optional on input. */
/**
 * A provider's free-text reason, kept for the delivery log: at most MAX_REASON characters (code
 * points, so an emoji is never cut in half) and only what Postgres text can hold — U+0000 and
 * unpaired surrogates become U+FFFD rather than refusing a batch of real bounces over a stray byte.
 */
function reasonText(text: string | null): string | null {
  if (text === null) return null;
  return [...storable(text)].slice(0, MAX_REASON).join('');
}

function messageId(value: unknown, name: string): string | null {
  const text = optionalText(value, name)?.trim() ?? null;
  if (text === null || text === '') return null;
  // deno-lint-ignore no-control-regex
  if (text.length > 998 || /[\s\x00-\x1f\x7f]/.test(text) || !isStorable(text)) {
    throw invalidInput(name, 'must be a Message-ID of at most 998 characters without spaces');
  }
  return text.startsWith('<') ? text : `<${text}>`;
}

/**
 * An ISO 8601 time, normalised so a retry of the same event is recognised. Text that is no time
 * at all refuses the batch; a readable time outside 1970–9999 (year 0, "-004714-…",
 * "+275760-…": what a provider's bug sends, and what Postgres cannot store) skips the event.
 */
function occurredAt(value: unknown, name: string): string | null {
  const text = optionalText(value, name);
  if (text === null) return null;
  const time = checkTime(text, EVENT_TIME_RANGE);
  if (time.ok) return time.iso;
  if (time.reason === 'out_of_range') throw new Skip(name, 'must be a time from 1970 to 9999');
  throw invalidInput(name, 'must be an ISO 8601 date and time');
}

/** Postmark bounce types that mean the address will never accept mail. */
const POSTMARK_HARD = new Set(['HardBounce', 'BadEmailAddress', 'ManuallyDeactivated']);

/**
 * Postmark's webhook bodies (RecordType "Bounce" or "SpamComplaint") in the neutral shape; any
 * other record type (Delivery, Open, Click, SubscriptionChange) is acknowledged and skipped.
 */
function fromPostmark(event: Record<string, unknown>): Record<string, unknown> | null {
  const complaint =
    event.RecordType === 'SpamComplaint' ||
    (event.RecordType === 'Bounce' && event.Type === 'SpamComplaint');
  if (!complaint && event.RecordType !== 'Bounce') return null;
  const reason = [event.Description, event.Details].filter((v) => typeof v === 'string' && v);
  return {
    type: complaint ? 'complaint' : 'bounce',
    email: event.Email,
    ...(complaint ? {} : { kind: POSTMARK_HARD.has(String(event.Type)) ? 'hard' : 'soft' }),
    message_id: typeof event.MessageID === 'string' ? event.MessageID : undefined,
    reason: reason.length ? reason.join(': ') : undefined,
    occurred_at: typeof event.BouncedAt === 'string' ? event.BouncedAt : undefined,
  };
}
