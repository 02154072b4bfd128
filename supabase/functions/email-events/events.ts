// The webhook's event shapes → the one validated shape record_email_events takes. The neutral
// shape is Postbox's own; Postmark's bounce and spam-complaint webhooks are accepted as they come.
import { checkEmail } from '../_shared/email.ts';
import { AppError, invalidInput } from '../_shared/errors.ts';
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

/** A body (one event or an array of them) → validated events, or the first problem as an error. */
export function parseEvents(body: unknown): EmailEvent[] {
  const many = Array.isArray(body);
  const items = many ? (body as unknown[]) : [body];
  if (items.length === 0 || items.length > MAX_EVENTS) {
    throw invalidInput('body', `must hold 1 to ${MAX_EVENTS} events`);
  }
  const events: EmailEvent[] = [];
  items.forEach((item, i) => {
    const field = (name: string) => (many ? `events[${i}].${name}` : name);
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      throw invalidInput(many ? `events[${i}]` : 'body', 'must be a JSON object');
    }
    const event = item as Record<string, unknown>;
    if ('RecordType' in event) {
      const mapped = fromPostmark(event);
      if (mapped) events.push(validate(mapped, field));
      return;
    }
    events.push(validate(event, field));
  });
  return events;
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

/** An ISO 8601 time, normalised so a retry of the same event is recognised. */
function occurredAt(value: unknown, name: string): string | null {
  const text = optionalText(value, name);
  if (text === null) return null;
  const time = text.length <= 64 ? Date.parse(text) : NaN;
  if (Number.isNaN(time)) throw invalidInput(name, 'must be an ISO 8601 date and time');
  return new Date(time).toISOString();
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
