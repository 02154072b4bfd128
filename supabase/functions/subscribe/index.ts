// subscribe (SPEC §7): validate, honeypot, then one SQL call (rate limits of SPEC §9, then the
// write), then the confirmation email for double opt-in lists, or for an address already
// confirmed the already-subscribed notice. The answer never says whether the address was known.
// A JSON body is answered in JSON; a plain HTML form's urlencoded post with a 303 to the site's own
// outcome page for the same result (form-post.ts).
import { rpc } from '../_shared/db.ts';
import { env } from '../_shared/env.ts';
import { AppError } from '../_shared/errors.ts';
import {
  clientIp,
  json,
  MAX_JSON_BYTES,
  readJsonObject,
  readText,
  serve,
} from '../_shared/http.ts';
import { sendInBackground } from '../_shared/subscriber-mail.ts';
import { alreadySubscribedMail, type KnownSignup } from './already-subscribed-mail.ts';
import { confirmationMail, type PendingSignup } from './confirmation-mail.ts';
import {
  formBody,
  isFormPost,
  outcomeForError,
  outcomeForStatus,
  redirectTo,
} from './form-post.ts';
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

type SignupStatus = 'pending' | 'confirmed';

/** The signup itself, whatever the body's shape; refusals are thrown as AppError. */
async function signup(req: Request, body: Record<string, unknown>): Promise<SignupStatus> {
  const input = parseSubscribeInput(body);
  if (input.honeypot) {
    // Looks like success to the bot; nothing is written, counted or sent.
    return await onLists(rpc<SignupStatus>('signup_status', { p_lists: input.lists }));
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
  return result.status!;
}

serve(['POST'], async (req) => {
  if (!isFormPost(req.headers.get('content-type'))) {
    return json({ status: await signup(req, await readJsonObject(req)) });
  }
  // A form post always lands on a page of the site, refusals included: a visitor without
  // JavaScript must never see a JSON error.
  const site = env.siteUrl();
  try {
    const body = formBody(await readText(req, MAX_JSON_BYTES));
    return redirectTo(site, outcomeForStatus(await signup(req, body)));
  } catch (error) {
    if (!(error instanceof AppError)) console.error(error);
    const code = error instanceof AppError ? error.code : 'internal';
    const headers = error instanceof AppError ? error.headers : {};
    return redirectTo(site, outcomeForError(code), headers);
  }
});
