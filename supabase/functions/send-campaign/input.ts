// send-campaign's request body: {campaign_id, action, at?, emails?}, checked before anything runs.
import { invalidInput } from '../_shared/errors.ts';
import { checkEmail } from '../_shared/email.ts';
import { checkTime, latestSchedule, MAX_SCHEDULE_YEARS } from '../_shared/iso-time.ts';
import { isUuid } from '../../../lib/uuid.ts';

export const ACTIONS = [
  'send',
  'schedule',
  'unschedule',
  'pause',
  'resume',
  'cancel',
  'test',
  'retry',
] as const;
export type CampaignAction = (typeof ACTIONS)[number];

export interface CampaignRequest {
  campaignId: string;
  action: CampaignAction;
  at?: string;
  emails?: string[];
}

export const MAX_TEST_EMAILS = 5;

export function parseCampaignRequest(body: Record<string, unknown>): CampaignRequest {
  const { campaign_id: campaignId, action, at, emails } = body;
  if (!isUuid(campaignId)) throw invalidInput('campaign_id', 'must be a campaign id');
  if (typeof action !== 'string' || !(ACTIONS as readonly string[]).includes(action))
    throw invalidInput('action', `must be one of ${ACTIONS.join(', ')}`);
  const request: CampaignRequest = { campaignId, action: action as CampaignAction };
  if (action === 'schedule') {
    const now = Date.now();
    // Any readable time first, so a past or far-off one gets its own message.
    const time = checkTime(typeof at === 'string' ? at : '', { min: -Infinity, max: Infinity });
    if (!time.ok) throw invalidInput('at', 'must be an ISO date and time');
    if (time.time <= now) throw invalidInput('at', 'must be a time in the future');
    if (time.time > latestSchedule(now)) {
      throw invalidInput('at', `must be within ${MAX_SCHEDULE_YEARS} years from now`);
    }
    request.at = time.iso;
  }
  if (action === 'test' && emails !== undefined) {
    if (!Array.isArray(emails) || emails.length < 1 || emails.length > MAX_TEST_EMAILS)
      throw invalidInput('emails', `must list 1 to ${MAX_TEST_EMAILS} addresses`);
    request.emails = [
      ...new Set(
        emails.map((e) => {
          const check = checkEmail(e);
          if (!check.ok) throw invalidInput('emails', `${String(e)} is not a valid address`);
          return check.email;
        }),
      ),
    ];
  }
  return request;
}
