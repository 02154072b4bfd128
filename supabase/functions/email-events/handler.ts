// The webhook's request: the shared secret first (nothing is read before it matches), then a
// JSON event or array of events, every one validated before record_email_events applies the
// batch in one transaction (an event with an impossible time is skipped and counted as rejected).
import { rpc } from '../_shared/db.ts';
import { env } from '../_shared/env.ts';
import { AppError, invalidInput } from '../_shared/errors.ts';
import { json, readText } from '../_shared/http.ts';
import { parseEvents } from './events.ts';

/** A provider batch may be large; far more than any single event needs. */
const MAX_BODY_BYTES = 512 * 1024;

export async function handleEmailEvents(req: Request): Promise<Response> {
  if (!(await secretMatches(presentedSecret(req)))) throw new AppError('unauthenticated');
  const type = (req.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') {
    throw invalidInput('body', 'send JSON with Content-Type: application/json');
  }
  const text = await readText(req, MAX_BODY_BYTES);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw invalidInput('body', 'must be valid JSON');
  }
  const { events, rejected } = parseEvents(body);
  for (const skip of rejected) {
    // The operator's record of it: the provider gets 200 and will not send it again.
    console.warn(`email-events: skipped event ${skip.index}: ${skip.field} ${skip.reason}`);
  }
  const counts = events.length
    ? await rpc<{ received: number }>('record_email_events', { p_events: events })
    : { received: 0, recorded: 0, duplicates: 0, ignored: 0 };
  return json({
    ...counts,
    received: counts.received + rejected.length,
    rejected: rejected.length,
  });
}

/** `X-Postbox-Webhook-Secret: <secret>` or `Authorization: Bearer <secret>`. */
function presentedSecret(req: Request): string {
  const header = req.headers.get('x-postbox-webhook-secret');
  if (header) return header.trim();
  const match = /^Bearer\s+(.+)$/i.exec(req.headers.get('authorization') ?? '');
  return match?.[1]?.trim() ?? '';
}

/** Compares digests byte by byte without stopping early, so timing tells nothing about the secret. */
async function secretMatches(presented: string): Promise<boolean> {
  if (!presented) return false;
  const digest = async (text: string) =>
    new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  const [a, b] = await Promise.all([digest(presented), digest(env.webhookSecret())]);
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}
