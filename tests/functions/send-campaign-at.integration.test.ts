// send-campaign's `at` (issue 20 finding 5): a time JS reads but Postgres cannot store
// ("+010000-…") or one too far ahead to be meant is 422 invalid_input naming `at`, never a 500;
// a time within ten years schedules.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import {
  campaignRow,
  listWithSubscribers,
  member,
  newCampaign,
  sendCampaign,
  startCampaignEmulator,
  type Member,
} from '../campaigns/kit';

let emu: RunningEmulator;
let admin: Member;

beforeAll(async () => {
  emu = await startCampaignEmulator({ POSTBOX_SEND_RATE: 'unlimited' });
  admin = await member(emu, 'admin');
}, 120_000);
afterAll(async () => {
  await emu?.stop();
});

const yearsAhead = (years: number) => {
  const at = new Date();
  at.setUTCFullYear(at.getUTCFullYear() + years);
  return at.toISOString();
};

describe('send-campaign schedule time', () => {
  it('refuses times out of range with 422 naming at, and schedules one within ten years', async () => {
    const id = await newCampaign(emu, [await listWithSubscribers(emu, 'at-range', 1)]);
    for (const at of [
      '+010000-01-01T00:00:00Z',
      '+275760-09-13T00:00:00Z',
      '9999-12-31T23:59:59Z',
      yearsAhead(11),
    ]) {
      const res = await sendCampaign(emu, admin, { campaign_id: id, action: 'schedule', at });
      expect([at, res.status, res.body?.error?.code, res.body?.error?.field]).toEqual([
        at,
        422,
        'invalid_input',
        'at',
      ]);
    }
    expect((await campaignRow(emu, id)).status).toBe('draft');
    const at = yearsAhead(9);
    const ok = await sendCampaign(emu, admin, { campaign_id: id, action: 'schedule', at });
    expect([ok.status, ok.body?.campaign?.status]).toEqual([200, 'scheduled']);
    expect(new Date(ok.body.campaign.scheduled_at).toISOString()).toBe(at);
  });
});
