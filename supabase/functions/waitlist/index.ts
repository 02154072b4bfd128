// waitlist (SPEC §7, §9): a referral code's place on a waitlist list, its confirmed referrals and
// the link to share. Read-only; the page re-asks when the `waitlist:<slug>` broadcast fires.
import { rpc } from '../_shared/db.ts';
import { env } from '../_shared/env.ts';
import { AppError } from '../_shared/errors.ts';
import { json, serve } from '../_shared/http.ts';
import { referralUrl } from '../confirm/payload.ts';
import { waitlistQuery } from './query.ts';

interface Standing {
  list: { slug: string; name: string };
  status: 'pending' | 'confirmed';
  code: string;
  position: number | null;
  total: number;
  referrals: number;
}

serve(['GET'], async (req) => {
  const query = waitlistQuery(new URL(req.url).searchParams);
  if (!query) throw new AppError('not_found', 'No waitlist place has that code.');
  const standing = await rpc<Standing>('waitlist_status', {
    p_code: query.code,
    p_list: query.list,
  });
  return json({ ...standing, url: referralUrl(env.siteUrl(), standing.code, standing.list.slug) });
});
