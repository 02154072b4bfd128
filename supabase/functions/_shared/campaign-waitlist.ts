// The waitlist merge tags of a batch of campaign readers (issue 21): their place and referral link
// on the campaign's waitlist list, read in one call (campaign_waitlist_standings) per batch.
import { rpc } from './db.ts';
import { env } from './env.ts';
import { referralUrl } from '../confirm/payload.ts';
import type { ScopeWaitlist } from '../../../lib/email-render/index.ts';

interface StandingRow {
  subscriber_id: string;
  list_slug: string;
  referral_code: string | null;
  standing: { position: number | null; total: number; referrals: number };
}

/** Each reader's standing by subscriber id; none when the campaign goes to no waitlist list. */
export async function waitlistStandings(
  campaignId: string,
  subscriberIds: string[],
): Promise<Map<string, ScopeWaitlist>> {
  const rows = await rpc<StandingRow[]>('campaign_waitlist_standings', {
    p_campaign_id: campaignId,
    p_subscribers: subscriberIds,
  });
  const site = env.siteUrl();
  return new Map(
    rows.map((r) => [
      r.subscriber_id,
      {
        list: r.list_slug,
        position: r.standing.position,
        total: r.standing.total,
        referrals: r.standing.referrals,
        referral_url: r.referral_code ? referralUrl(site, r.referral_code, r.list_slug) : '',
      },
    ]),
  );
}
