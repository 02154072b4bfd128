// send-campaign over HTTP (SPEC §4, §6, §7): who may do what, and the state actions (schedule,
// pause, resume, cancel, retry). What a send delivers is in campaign-delivery.integration.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { callFunction, sql, waitForMail } from '../functions/kit';
import {
  campaignRow,
  deliveryCounts,
  drainCampaign,
  listWithSubscribers,
  member,
  newCampaign,
  processQueue,
  sendCampaign,
  startCampaignEmulator,
  type Member,
} from './kit';

let emu: RunningEmulator;

let team: Record<'viewer' | 'editor' | 'admin' | 'stranger', Member>;

beforeAll(async () => {
  emu = await startCampaignEmulator({ POSTBOX_SEND_RATE: 'unlimited' });
  team = {
    viewer: await member(emu, 'viewer'),
    editor: await member(emu, 'editor'),
    admin: await member(emu, 'admin'),
    stranger: await member(emu, null),
  };
});
afterAll(async () => {
  await emu?.stop();
});

describe('roles', () => {
  it('lets admins send and editors only test; viewers, strangers and anon get nothing', async () => {
    const slug = await listWithSubscribers(emu, 'roles', 2);
    const id = await newCampaign(emu, [slug]);
    const anon = await sendCampaign(emu, null, { campaign_id: id, action: 'send' });
    expect(anon.status).toBe(401);
    for (const who of ['stranger', 'viewer', 'editor'] as const) {
      const res = await sendCampaign(emu, team[who], { campaign_id: id, action: 'send' });
      expect([who, res.status, res.body?.error?.code]).toEqual([who, 403, 'forbidden']);
    }
    for (const who of ['stranger', 'viewer'] as const) {
      const res = await sendCampaign(emu, team[who], { campaign_id: id, action: 'test' });
      expect([who, res.status]).toEqual([who, 403]);
    }
    expect((await campaignRow(emu, id)).status).toBe('draft');
    const test = await sendCampaign(emu, team.editor, {
      campaign_id: id,
      action: 'test',
      emails: [team.editor.email, team.admin.email],
    });
    expect(test.status).toBe(200);
    const [mail] = await waitForMail(emu, team.admin.email);
    expect(mail!.subject).toMatch(/^\[Test\] Issue /);
    expect(await deliveryCounts(emu, id)).toEqual({});
    const outsider = await sendCampaign(emu, team.editor, {
      campaign_id: id,
      action: 'test',
      emails: ['someone-else@example.com'],
    });
    expect(outsider.status).toBe(422);
    const many = await sendCampaign(emu, team.admin, {
      campaign_id: id,
      action: 'test',
      emails: Array.from({ length: 6 }, (_, i) => `m${i}@example.com`),
    });
    expect(many.status).toBe(422);
    const sent = await sendCampaign(emu, team.admin, { campaign_id: id, action: 'send' });
    expect(sent.status).toBe(200);
    expect(sent.body.campaign).toMatchObject({ id, status: 'sending', recipients: 2 });
    await drainCampaign(emu, id);
  });

  it('checks the role before the body: viewers, strangers and (but for tests) editors learn no input rules', async () => {
    const bad: Record<string, unknown>[] = [
      {},
      { campaign_id: 'nope', action: 'send' },
      { campaign_id: '00000000-0000-4000-8000-000000000000', action: 'explode' },
      {
        campaign_id: '00000000-0000-4000-8000-000000000000',
        action: 'schedule',
        at: 'yesterday',
      },
    ];
    for (const who of ['stranger', 'viewer', 'editor'] as const) {
      for (const body of bad) {
        const res = await sendCampaign(emu, team[who], body);
        expect([who, body, res.status, res.body?.error?.code]).toEqual([
          who,
          body,
          403,
          'forbidden',
        ]);
      }
    }
    for (const who of ['stranger', 'viewer'] as const) {
      const raw = await callFunction(emu, 'send-campaign', {
        rawBody: 'not json',
        headers: { 'Content-Type': 'text/plain' },
        bearer: team[who].token,
      });
      expect([who, raw.status]).toEqual([who, 403]);
    }
    // Tests are the editor's to send, so their rules are the editor's to learn.
    const test = await sendCampaign(emu, team.editor, {
      campaign_id: 'nope',
      action: 'test',
    });
    expect([test.status, test.body.error.code]).toEqual([422, 'invalid_input']);
  });
});

describe('actions', () => {
  it('schedules, refuses a past time, cancels; send twice is a conflict; no lists or no recipients is 422', async () => {
    const slug = await listWithSubscribers(emu, 'actions', 1);
    const id = await newCampaign(emu, [slug]);
    const past = await sendCampaign(emu, team.admin, {
      campaign_id: id,
      action: 'schedule',
      at: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(past.status).toBe(422);
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const scheduled = await sendCampaign(emu, team.admin, {
      campaign_id: id,
      action: 'schedule',
      at,
    });
    expect(scheduled.body.campaign).toMatchObject({ status: 'scheduled' });
    expect(new Date(scheduled.body.campaign.scheduled_at).toISOString()).toBe(at);
    const pause = await sendCampaign(emu, team.admin, { campaign_id: id, action: 'pause' });
    expect([pause.status, pause.body.error.code]).toEqual([409, 'conflict']);
    const cancelled = await sendCampaign(emu, team.admin, { campaign_id: id, action: 'cancel' });
    expect(cancelled.body.campaign.status).toBe('cancelled');
    const again = await sendCampaign(emu, team.admin, { campaign_id: id, action: 'send' });
    expect(again.status).toBe(409);

    // SPEC §5: at least one list to send is a validation rule, the same for send and schedule.
    const listless = await newCampaign(emu, []);
    for (const body of [{ action: 'send' }, { action: 'schedule', at }]) {
      const res = await sendCampaign(emu, team.admin, { campaign_id: listless, ...body });
      expect([body.action, res.status, res.body.error]).toEqual([
        body.action,
        422,
        { code: 'invalid_input', message: 'lists: choose at least one list', field: 'lists' },
      ]);
    }
    expect(await campaignRow(emu, listless)).toMatchObject({ status: 'draft', recipients: 0 });
    // Lists chosen, nobody on them: no recipients.
    const empty = await newCampaign(emu, ['beta-testers']);
    await sql(
      emu,
      `delete from public.subscriptions where list_id = (select id from public.lists where slug = 'beta-testers')`,
    );
    const none = await sendCampaign(emu, team.admin, { campaign_id: empty, action: 'send' });
    expect([none.status, none.body.error.code]).toEqual([422, 'no_recipients']);
    const missing = await sendCampaign(emu, team.admin, {
      campaign_id: '00000000-0000-4000-8000-000000000000',
      action: 'send',
    });
    expect(missing.status).toBe(404);
  });

  it('starts a scheduled campaign once its time has passed', async () => {
    const slug = await listWithSubscribers(emu, 'later', 3);
    const id = await newCampaign(emu, [slug]);
    const at = new Date(Date.now() + 1500).toISOString();
    expect(
      (await sendCampaign(emu, team.admin, { campaign_id: id, action: 'schedule', at })).status,
    ).toBe(200);
    await processQueue(emu, { budget_ms: 1000 });
    expect((await campaignRow(emu, id)).status).toBe('scheduled');
    await new Promise((r) => setTimeout(r, 1600));
    await drainCampaign(emu, id);
    expect(await deliveryCounts(emu, id)).toEqual({ sent: 3 });
  });

  it('returns a due scheduled campaign that lost its lists to draft instead of retrying it', async () => {
    const slug = await listWithSubscribers(emu, 'lost', 1);
    const id = await newCampaign(emu, [slug]);
    const at = new Date(Date.now() + 1000).toISOString();
    expect(
      (await sendCampaign(emu, team.admin, { campaign_id: id, action: 'schedule', at })).status,
    ).toBe(200);
    await sql(emu, `delete from public.campaign_lists where campaign_id = $1`, [id]);
    await new Promise((r) => setTimeout(r, 1100));
    await processQueue(emu, { budget_ms: 1000 });
    expect(await campaignRow(emu, id)).toMatchObject({ status: 'draft', scheduled_at: null });
  });

  it('cancels a sending campaign only once paused (SPEC §4), and retries failed deliveries', async () => {
    const slug = await listWithSubscribers(emu, 'retry', 3);
    const id = await newCampaign(emu, [slug]);
    await sql(emu, `select public.start_campaign_send($1, '<p>x</p>')`, [id]);
    // Three permanent failures, as a worker records them.
    await sql(
      emu,
      `update public.deliveries set status = 'sending', claimed_at = now(), attempts = 3 where campaign_id = $1`,
      [id],
    );
    await sql(
      emu,
      `update public.deliveries set status = 'failed', last_error = 'boom' where campaign_id = $1`,
      [id],
    );
    await sql(emu, `update public.campaigns set failed = 3 where id = $1`, [id]);
    const retry = await sendCampaign(emu, team.admin, { campaign_id: id, action: 'retry' });
    expect(retry.status).toBe(200);
    expect(retry.body.retried).toBe(3);
    expect(retry.body.campaign.failed).toBe(0);
    await drainCampaign(emu, id);
    expect(await deliveryCounts(emu, id)).toEqual({ sent: 3 });
    expect(await campaignRow(emu, id)).toMatchObject({ sent: 3, failed: 0 });

    const other = await newCampaign(emu, [slug]);
    await sql(emu, `select public.start_campaign_send($1, '<p>x</p>')`, [other]);
    // SPEC §4: draft, scheduled or paused → cancelled. A sending campaign is paused first.
    const early = await sendCampaign(emu, team.admin, { campaign_id: other, action: 'cancel' });
    expect([early.status, early.body.error.code]).toEqual([409, 'conflict']);
    expect(early.body.error.message).toBe('Pause the campaign before cancelling it.');
    expect(await campaignRow(emu, other)).toMatchObject({ status: 'sending' });
    const pause = await sendCampaign(emu, team.admin, { campaign_id: other, action: 'pause' });
    expect(pause.body.campaign.status).toBe('paused');
    const cancel = await sendCampaign(emu, team.admin, { campaign_id: other, action: 'cancel' });
    expect(cancel.body.campaign.status).toBe('cancelled');
  });
});
