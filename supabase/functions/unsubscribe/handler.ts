// The unsubscribe function's requests: GET shows and never changes anything (link scanners follow
// links); a form POST is the RFC 8058 one-click unsubscribe; a JSON POST is the page's buttons.
// A link from a campaign or automation email names its campaign or step, so the unsubscribed
// events count for it. An unsubscribe token can unsubscribe and undo that, nothing more.
import { rpc } from '../_shared/db.ts';
import { invalidInput } from '../_shared/errors.ts';
import { json, MAX_JSON_BYTES, readJsonObject, readText } from '../_shared/http.ts';
import { maskEmail } from './mask.ts';
import {
  readSelfServiceToken,
  tokenFrom,
  type SelfServiceToken,
} from '../_shared/self-service-token.ts';
import { isTestSubscriber } from '../_shared/subscriber-mail.ts';

/** A test email's link (subscriber-mail.ts): recognised, and nothing is changed. */
const TEST_ANSWER = { test: true };

interface UnsubscribeView {
  email: string;
  lists: { slug: string; name: string; status: string }[];
}

const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data'];

function masked(view: UnsubscribeView): UnsubscribeView {
  return { email: maskEmail(view.email), lists: view.lists };
}

export async function handleUnsubscribe(req: Request): Promise<Response> {
  if (req.method === 'GET') {
    const token = readSelfServiceToken(tokenFrom(req), 'unsubscribe');
    if (isTestSubscriber(token.subscriberId)) return json(TEST_ANSWER);
    const view = await rpc<UnsubscribeView>('get_unsubscribe', {
      p_subscriber: token.subscriberId,
      p_lists: token.listIds,
    });
    return json(masked(view));
  }
  const type = (req.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (FORM_TYPES.includes(type)) return await oneClick(req);
  return await pageAction(req);
}

/**
 * RFC 8058 §3.1: the mail provider POSTs `List-Unsubscribe=One-Click` as a form (urlencoded or
 * multipart) to the List-Unsubscribe URL, with no cookies or login; the answer must not redirect.
 */
async function oneClick(req: Request): Promise<Response> {
  const contentType = req.headers.get('content-type') ?? '';
  const text = await readText(req, MAX_JSON_BYTES);
  let form: FormData;
  try {
    form = await new Response(text, { headers: { 'Content-Type': contentType } }).formData();
  } catch {
    throw invalidInput('body', 'must be the form List-Unsubscribe=One-Click');
  }
  if (form.get('List-Unsubscribe') !== 'One-Click') {
    throw invalidInput('List-Unsubscribe', 'must be One-Click');
  }
  const token = readSelfServiceToken(tokenFrom(req), 'unsubscribe');
  if (isTestSubscriber(token.subscriberId)) return json(TEST_ANSWER);
  await unsubscribe(token, 'one-click');
  return json({ status: 'unsubscribed' });
}

/**
 * Unsubscribes from the token's lists; the unsubscribed events count for the campaign or the
 * automation step whose email carried the link (unsubscribe_with_campaign / _with_automation).
 */
function unsubscribe(token: SelfServiceToken, source: string): Promise<UnsubscribeView> {
  const common = { p_subscriber: token.subscriberId, p_lists: token.listIds, p_source: source };
  return token.stepId
    ? rpc<UnsubscribeView>('unsubscribe_with_automation', { ...common, p_step: token.stepId })
    : rpc<UnsubscribeView>('unsubscribe_with_campaign', {
        ...common,
        p_campaign: token.campaignId,
      });
}

/** The page's buttons: `{token, action: "unsubscribe" | "resubscribe"}` (token may be in the query). */
async function pageAction(req: Request): Promise<Response> {
  const body = await readJsonObject(req);
  const action = body.action;
  if (action !== 'unsubscribe' && action !== 'resubscribe') {
    throw invalidInput('action', 'must be "unsubscribe" or "resubscribe"');
  }
  const token = readSelfServiceToken(tokenFrom(req, body), 'unsubscribe');
  if (isTestSubscriber(token.subscriberId)) return json(TEST_ANSWER);
  const view =
    action === 'unsubscribe'
      ? await unsubscribe(token, 'unsubscribe-page')
      : await rpc<UnsubscribeView>('resubscribe_subscriber', {
          p_subscriber: token.subscriberId,
          p_lists: token.listIds,
        });
  // Nothing more than the view: the unsubscribe token also travels in the List-Unsubscribe
  // header, which the mailbox provider reads, so it must not lead to the preferences token
  // (export, delete). The page links to preferences only with the token the footer link carries.
  return json(masked(view));
}
