// subscribe (SPEC §7): validate, honeypot, rate limits (SPEC §9), one SQL write, then the
// confirmation email for double opt-in lists. The answer never says whether the address was known.
import { rpc } from '../_shared/db.ts';
import { AppError } from '../_shared/errors.ts';
import { clientIp, json, readJsonObject, serve } from '../_shared/http.ts';
import { sendInBackground } from '../_shared/subscriber-mail.ts';
import { confirmationMail, type PendingSignup } from './confirmation-mail.ts';
import { parseSubscribeInput } from './input.ts';

const WINDOW_SECONDS = 10 * 60;
const PER_EMAIL = 5;
const PER_IP = 30;

serve(['POST'], async (req) => {
  const input = parseSubscribeInput(await readJsonObject(req));
  if (input.honeypot) {
    // Looks like success to the bot; nothing is written, counted or sent.
    const status = await rpc<string>('signup_status', { p_lists: input.lists });
    return json({ status });
  }

  const [perEmail, perIp] = await Promise.all([
    rpc<number>('hit_rate_limit', {
      p_bucket: 'subscribe:email',
      p_key: input.email,
      p_limit: PER_EMAIL,
      p_window_seconds: WINDOW_SECONDS,
    }),
    rpc<number>('hit_rate_limit', {
      p_bucket: 'subscribe:ip',
      p_key: clientIp(req),
      p_limit: PER_IP,
      p_window_seconds: WINDOW_SECONDS,
    }),
  ]);
  const wait = Math.max(perEmail, perIp);
  if (wait > 0)
    throw new AppError('rate_limited', undefined, { headers: { 'Retry-After': String(wait) } });

  const result = await rpc<{ status: 'pending' | 'confirmed'; mail: PendingSignup | null }>(
    'subscribe_visitor',
    {
      p_email: input.email,
      p_name: input.name,
      p_lists: input.lists,
      p_ref: input.ref,
      p_attributes: input.attributes,
    },
  );
  // Sent after answering: the time to answer then does not tell a known address from a new one.
  if (result.mail) sendInBackground(confirmationMail(result.mail));
  return json({ status: result.status });
});
