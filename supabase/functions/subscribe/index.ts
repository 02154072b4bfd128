// subscribe (SPEC §7): validate, honeypot, then one SQL call (rate limits of SPEC §9, then the
// write), then the confirmation email for double opt-in lists, or for an address already
// confirmed the already-subscribed notice. The answer never says whether the address was known.
import { rpc } from '../_shared/db.ts';
import { env } from '../_shared/env.ts';
import { AppError } from '../_shared/errors.ts';
import { clientIp, json, readJsonObject, serve } from '../_shared/http.ts';
import { sendInBackground } from '../_shared/subscriber-mail.ts';
import { alreadySubscribedMail, type KnownSignup } from './already-subscribed-mail.ts';
import { confirmationMail, type PendingSignup } from './confirmation-mail.ts';
import { parseSubscribeInput } from './input.ts';

/** SQL names an unknown list without a field; the form shows it beside the list choice. */
function onLists<T>(call: Promise<T>): Promise<T> {
  return call.catch((error) => {
    if (error instanceof AppError && error.code === 'list_not_found') {
      throw new AppError('list_not_found', undefined, { field: 'lists' });
    }
    throw error;
  });
}

serve(['POST'], async (req) => {
  const input = parseSubscribeInput(await readJsonObject(req));
  if (input.honeypot) {
    // Looks like success to the bot; nothing is written, counted or sent.
    const status = await onLists(rpc<string>('signup_status', { p_lists: input.lists }));
    return json({ status });
  }

  // One call: the SPEC §9 limits are counted first, and only an allowed attempt writes.
  const result = await onLists(
    rpc<{
      status?: 'pending' | 'confirmed';
      mail?: PendingSignup | KnownSignup | null;
      retry_after?: number;
    }>('subscribe_form', {
      p_email: input.email,
      p_name: input.name,
      p_lists: input.lists,
      p_ref: input.ref,
      p_attributes: input.attributes,
      p_client: clientIp(req, env.trustedProxyHops()),
    }),
  );
  if (result.retry_after) {
    throw new AppError('rate_limited', undefined, {
      headers: { 'Retry-After': String(result.retry_after) },
    });
  }
  // Sent after answering: the time to answer then does not tell a known address from a new one.
  // A known address gets its changes applied only through the link in one of these emails.
  const mail = result.mail;
  if (mail?.kind === 'confirm') sendInBackground(() => confirmationMail(mail));
  if (mail?.kind === 'already_subscribed') sendInBackground(() => alreadySubscribedMail(mail));
  return json({ status: result.status! });
});
