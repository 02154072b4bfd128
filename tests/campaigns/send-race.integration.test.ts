// A send starts only with the campaign as it was read (SPEC §4): send-campaign renders body_md into
// the HTML every recipient and the archive get, then start_campaign_send locks the row. An edit in
// between must not leave that HTML rendered from a body that is no longer the stored one.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { clientFor, sql } from '../functions/kit';
import {
  campaignRow,
  deliveryCounts,
  listWithSubscribers,
  member,
  newCampaign,
  sendCampaign,
  startCampaignEmulator,
  until,
  type Member,
} from './kit';

let emu: RunningEmulator;
let admin: Member;

beforeAll(async () => {
  emu = await startCampaignEmulator();
  admin = await member(emu, 'admin');
});
afterAll(async () => {
  await emu?.stop();
});

const CHANGED = 'postbox:conflict: The campaign changed while it was being sent. Try again.';

describe('start_campaign_send', () => {
  it('refuses a body or subject read before an edit, and starts with the current ones', async () => {
    const slug = await listWithSubscribers(emu, 'asread', 2);
    const id = await newCampaign(emu, [slug], { subject: 'First', body_md: '# First' });
    await sql(emu, `update public.campaigns set body_md = '# Second' where id = $1`, [id]);
    const service = clientFor(emu, 'service');
    const start = (body_md: string, subject: string) =>
      service.rpc('start_campaign_send', {
        p_campaign_id: id,
        p_body_html: `<p>${body_md}</p>`,
        p_body_md: body_md,
        p_subject: subject,
      });

    const staleBody = await start('# First', 'First');
    expect(staleBody.error?.message).toBe(CHANGED);
    await sql(emu, `update public.campaigns set subject = 'Second' where id = $1`, [id]);
    const staleSubject = await start('# Second', 'First');
    expect(staleSubject.error?.message).toBe(CHANGED);
    expect(await campaignRow(emu, id)).toMatchObject({ status: 'draft', body_html: '' });
    expect(await deliveryCounts(emu, id)).toEqual({});

    const current = await start('# Second', 'Second');
    expect(current.error).toBeNull();
    expect(current.data).toBe(2);
    expect(await campaignRow(emu, id)).toMatchObject({
      status: 'sending',
      body_html: '<p># Second</p>',
    });
  });
});

describe('send-campaign', () => {
  // Needs a second connection holding a row lock while the function runs: native Postgres only.
  it.skipIf(!process.env.DATABASE_URL)(
    'answers 409 when the campaign is edited between its read and the start',
    async () => {
      const slug = await listWithSubscribers(emu, 'race', 2);
      const id = await newCampaign(emu, [slug], { subject: 'Race', body_md: 'Before the edit.' });
      const editor = new pg.Client({ connectionString: emu.dbUrl! });
      await editor.connect();
      try {
        // The autosave's transaction holds the row: the function reads the old body (not yet
        // committed) and renders it, then waits for the lock in start_campaign_send.
        await editor.query('begin');
        await editor.query(
          `update public.campaigns set body_md = 'After the edit.' where id = $1`,
          [id],
        );
        const send = sendCampaign(emu, admin, { campaign_id: id, action: 'send' });
        await until(
          async () =>
            (
              await sql<{ n: number }>(
                emu,
                `select count(*)::int as n from pg_stat_activity
                  where datname = current_database() and wait_event_type = 'Lock'
                    and query ilike '%start_campaign_send%'`,
              )
            )[0]!.n > 0,
          15_000,
          'send-campaign to wait for the row lock',
        );
        await editor.query('commit');
        const res = await send;
        expect([res.status, res.body.error]).toEqual([
          409,
          {
            code: 'conflict',
            message: 'The campaign changed while it was being sent. Try again.',
          },
        ]);
      } finally {
        await editor.end();
      }
      expect(await campaignRow(emu, id)).toMatchObject({
        status: 'draft',
        body_md: 'After the edit.',
        body_html: '',
      });
      expect(await deliveryCounts(emu, id)).toEqual({});
      // Sent again, it goes out with the body as it is now.
      const again = await sendCampaign(emu, admin, { campaign_id: id, action: 'send' });
      expect(again.status).toBe(200);
      expect(String((await campaignRow(emu, id)).body_html)).toContain('After the edit.');
    },
  );
});
