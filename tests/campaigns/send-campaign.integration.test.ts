// send-campaign and process-queue over HTTP (SPEC §4, §6, §7): roles, the state actions, who gets
// a campaign, the list headers and RFC 8058 one-click, and Markdown that cannot run script.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import {
  callFunction,
  sql,
  startScheduler,
  stopScheduler,
  waitForMail,
  type CaughtMail,
} from '../functions/kit';
import {
  campaignRow,
  deliveryCounts,
  listWithSubscribers,
  member,
  newCampaign,
  processQueue,
  sendCampaign,
  sourceHeaders,
  startCampaignEmulator,
  until,
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

/** Runs process-queue until the campaign is sent (send-campaign's own kick may already be on it). */
async function drain(id: string): Promise<void> {
  await until(
    async () => {
      await processQueue(emu, { budget_ms: 5000 });
      return (await campaignRow(emu, id)).status === 'sent';
    },
    60_000,
    `campaign ${id} to be sent`,
  );
}

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
    await drain(id);
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
    await drain(id);
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
    await drain(id);
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

describe('recipients and headers', () => {
  let id: string;
  let slugA: string;
  const prefix = `hdr-${Date.now()}`;
  let mails: CaughtMail[];

  beforeAll(async () => {
    slugA = await listWithSubscribers(emu, `${prefix}-a`, 2);
    const slugB = await listWithSubscribers(emu, `${prefix}-b`, 1);
    // One address on both lists; one pending, one unsubscribed, one blocklisted.
    await sql(
      emu,
      `insert into public.subscriptions (subscriber_id, list_id, status)
       select s.id, l.id, 'confirmed' from public.subscribers s, public.lists l
        where s.email = $1 and l.slug = $2`,
      [`${prefix}-b-1@example.com`, slugA],
    );
    await sql(
      emu,
      `with s as (insert into public.subscribers (email, status) values ($1, 'enabled'), ($2, 'enabled'), ($3, 'enabled') returning id, email)
       insert into public.subscriptions (subscriber_id, list_id, status)
       select s.id, l.id, case s.email when $1 then 'pending' when $2 then 'unsubscribed' else 'confirmed' end
         from s, public.lists l where l.slug = $4`,
      [
        `${prefix}-pending@example.com`,
        `${prefix}-gone@example.com`,
        `${prefix}-blocked@example.com`,
        slugA,
      ],
    );
    await sql(emu, `update public.subscribers set status = 'blocklisted' where email = $1`, [
      `${prefix}-blocked@example.com`,
    ]);
    id = await newCampaign(emu, [slugA, slugB], {
      subject: 'Headers',
      preheader: 'A short preview',
      body_md: [
        '# Hello',
        '',
        'Read [the post](https://example.com/post) or [this](javascript:alert(1)).',
        '',
        '<script>alert(1)</script><img src="https://example.com/a.png" onerror="alert(1)">',
        '<a href="javascript:alert(2)" onclick="alert(3)">click</a> <iframe src="https://evil.example"></iframe>',
        '<style>body{display:none}</style><p onmouseover="x()">hover</p>',
        '![pixel](data:image/png;base64,AAAA)',
      ].join('\n'),
    });
    const res = await sendCampaign(emu, team.admin, { campaign_id: id, action: 'send' });
    expect(res.body.campaign.recipients).toBe(3);
    await drain(id);
    mails = [];
    for (const who of [`${prefix}-a-1`, `${prefix}-a-2`, `${prefix}-b-1`]) {
      mails.push(...(await waitForMail(emu, `${who}@example.com`)));
    }
  });

  it('sends one message per address, none to pending, unsubscribed or blocklisted', async () => {
    expect(mails.length).toBe(3);
    for (const who of ['pending', 'gone', 'blocked']) {
      const res = await fetch(`${emu.mail!.url}/api/email`);
      const all = (await res.json()) as CaughtMail[];
      expect(
        all.filter((m) => m.to.some((t) => t.address === `${prefix}-${who}@example.com`)),
      ).toEqual([]);
    }
    expect(await deliveryCounts(emu, id)).toEqual({ sent: 3 });
  });

  it('carries List-Unsubscribe, List-Unsubscribe-Post, List-Id, Message-ID and a text part', async () => {
    const mail = mails[0]!;
    const headers = await sourceHeaders(emu, mail.id);
    const [delivery] = await sql<{ message_id: string }>(
      emu,
      `select d.message_id from public.deliveries d join public.subscribers s on s.id = d.subscriber_id
        where d.campaign_id = $1 and s.email = $2`,
      [id, mail.to[0]!.address],
    );
    expect(headers['list-unsubscribe']).toMatch(
      /^<https?:\/\/[^>]+\/functions\/v1\/unsubscribe\?token=[^>]+>, <mailto:[^>]+>$/,
    );
    expect(headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(headers['list-id']).toMatch(new RegExp(`<${slugA}\\.127\\.0\\.0\\.1>$`));
    expect(headers['message-id']).toBe(delivery!.message_id);
    expect(delivery!.message_id).toMatch(new RegExp(`^<${id}\\.[0-9a-f-]{36}@`));
    expect(mail.text).toContain('the post (https://example.com/post)');
    expect(mail.text).toMatch(/Unsubscribe: http/);
    expect(mail.html).toContain('max-width:600px');
    expect(mail.html).toContain('A short preview');
  });

  it('renders Markdown harmless in the email and in campaigns.body_html', async () => {
    const { body_html: stored } = (await campaignRow(emu, id)) as { body_html: string };
    for (const html of [stored, mails[0]!.html]) {
      expect(html).not.toMatch(/<script|<style|<iframe|javascript:|data:image|\son[a-z]+=/i);
      expect(html).toContain('<a href="https://example.com/post" rel="noopener">the post</a>');
      expect(html).toContain('<img src="https://example.com/a.png"');
    }
  });

  it('unsubscribes with a one-click POST to the List-Unsubscribe URL, and not with a GET', async () => {
    const mail = mails.find((m) => m.to[0]!.address === `${prefix}-a-1@example.com`)!;
    const url = /<(https?:[^>]+)>/.exec(
      (await sourceHeaders(emu, mail.id))['list-unsubscribe'] ?? '',
    )![1]!;
    const statuses = () =>
      sql<{ status: string }>(
        emu,
        `select sub.status from public.subscriptions sub join public.subscribers s on s.id = sub.subscriber_id
          where s.email = $1`,
        [mail.to[0]!.address],
      );
    const get = await fetch(url, { redirect: 'manual' });
    expect(get.status).toBe(200);
    expect(await statuses()).toEqual([{ status: 'confirmed' }]);
    const post = await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(post.status).toBe(200);
    expect(await statuses()).toEqual([{ status: 'unsubscribed' }]);
  });
});

describe('changes after the start', () => {
  it('sends nothing to whoever was blocklisted or unsubscribed after the send started', async () => {
    const tag = `late${Date.now()}`;
    const slug = await listWithSubscribers(emu, tag, 3);
    const id = await newCampaign(emu, [slug]);
    await sql(emu, `select public.start_campaign_send($1, '<p>x</p>')`, [id]);
    await sql(emu, `update public.subscribers set status = 'blocklisted' where email = $1`, [
      `${tag}-1@example.com`,
    ]);
    await sql(
      emu,
      `update public.subscriptions set status = 'unsubscribed'
        where subscriber_id = (select id from public.subscribers where email = $1)`,
      [`${tag}-2@example.com`],
    );
    await drain(id);
    expect(await deliveryCounts(emu, id)).toEqual({ sent: 1, failed: 2 });
    const reasons = await sql<{ last_error: string }>(
      emu,
      `select last_error from public.deliveries where campaign_id = $1 and status = 'failed'
        order by last_error`,
      [id],
    );
    expect(reasons.map((r) => r.last_error)).toEqual([
      'The address is blocklisted.',
      'Unsubscribed before the message went out.',
    ]);
    await waitForMail(emu, `${tag}-3@example.com`);
    const all = (await (await fetch(`${emu.mail!.url}/api/email`)).json()) as CaughtMail[];
    const got = all.flatMap((m) => m.to.map((t) => t.address)).filter((a) => a.startsWith(tag));
    expect(got).toEqual([`${tag}-3@example.com`]);
  });
});

describe('process-queue access', () => {
  it('refuses anyone but the service role', async () => {
    expect((await callFunction(emu, 'process-queue', { body: {} })).status).toBe(401);
    const admin = await callFunction(emu, 'process-queue', { body: {}, bearer: team.admin.token });
    expect(admin.status).toBe(403);
    // A project key is no login: unauthenticated, as with no token (admin-auth.integration.test.ts).
    const anonKey = await callFunction(emu, 'process-queue', { body: {}, bearer: emu.keys.anon });
    expect(anonKey.status).toBe(401);
    const ok = await processQueue(emu, { budget_ms: 1000 });
    expect(ok.status).toBe(200);
    expect(Object.keys(ok.body).sort()).toEqual([
      'campaigns_finished',
      'claimed',
      'deferred',
      'failed',
      'sent',
    ]);
  });
});

describe('the schedule', () => {
  it('runs process-queue every 10 seconds through pg_cron and pg_net', async () => {
    // No set-up: the job names the internal gateway, which every emulator answers as its own.
    const secrets = await sql<{ name: string; value: string }>(
      emu,
      `select name, value from private.scheduler_secrets order by name`,
    );
    expect(secrets).toEqual([
      { name: 'postbox_project_url', value: 'http://kong:8000' },
      { name: 'postbox_service_role_key', value: emu.keys.serviceRole },
    ]);
    await startScheduler(emu);
    const slug = await listWithSubscribers(emu, 'cron', 2);
    const id = await newCampaign(emu, [slug]);
    const at = new Date(Date.now() + 1000).toISOString();
    expect(
      (await sendCampaign(emu, team.admin, { campaign_id: id, action: 'schedule', at })).status,
    ).toBe(200);
    await until(async () => (await campaignRow(emu, id)).status === 'sent', 40_000, 'cron');
    expect(await deliveryCounts(emu, id)).toEqual({ sent: 2 });
    const [job] = await sql<{ status: string }>(
      emu,
      `select d.status from cron.job_run_details d join cron.job j using (jobid)
        where j.jobname = 'postbox-process-queue' order by d.start_time desc limit 1`,
    );
    expect(job!.status).toBe('succeeded');
    await stopScheduler(emu);
  }, 60_000);
});
