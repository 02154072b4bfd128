// confirm (SPEC §7): a signed, single-use, 7-day link confirms the pending subscriptions it names
// and applies what a known address's form submission asked for, answers the lists and (on a
// waitlist) the place. The same link opened again (within its 7 days) applies nothing and answers
// the current state with `already: true`. The welcome is not sent here (issue 24): confirming
// enrols the reader in each list's welcome automation, and the confirmation itself starts a
// process-queue run (20261203100000_welcome_automations.sql), which sends it at once.
import { rpc } from '../_shared/db.ts';
import { env } from '../_shared/env.ts';
import { json, readJsonObject, serve } from '../_shared/http.ts';
import { verifyToken } from '../_shared/tokens.ts';
import { confirmPayload, referralUrl } from './payload.ts';

interface Confirmed {
  /** The link had been used before: nothing was applied this time. */
  already: boolean;
  /** The link applied a known address's name or attributes from the form. */
  updated: boolean;
  lists: { slug: string; name: string }[];
  waitlist: {
    list: { slug: string; name: string };
    code: string;
    position: number | null;
    total: number;
    referrals: number;
  } | null;
}

serve(['POST'], async (req) => {
  const body = await readJsonObject(req);
  const { subscriberId, listIds, nonce } = confirmPayload(verifyToken(body.token, 'confirm'));
  const result = await rpc<Confirmed>('confirm_signup', {
    p_subscriber: subscriberId,
    p_lists: listIds,
    p_nonce: nonce,
  });
  const waitlist = result.waitlist && {
    ...result.waitlist,
    url: referralUrl(env.siteUrl(), result.waitlist.code, result.waitlist.list.slug),
  };
  return json({
    lists: result.lists,
    ...(result.already ? { already: true } : {}),
    ...(result.updated ? { updated: true } : {}),
    ...(waitlist ? { waitlist } : {}),
  });
});
