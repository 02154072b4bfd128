// What a campaign send delivers, over HTTP (SPEC §4, §7): who gets a campaign (each address once,
// nobody pending, unsubscribed or blocklisted, before or after the start), the list headers and
// RFC 8058 one-click, Markdown that cannot run script, who may run process-queue, and the pg_cron
// schedule that runs it. The roles and state actions of send-campaign are in
// send-campaign.integration.test.ts.
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
  drainCampaign,
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
let admin: Member;

beforeAll(async () => {
  emu = await startCampaignEmulator({ POSTBOX_SEND_RATE: 'unlimited' });
  admin = await member(emu, 'admin');
});
afterAll(async () => {
  await emu?.stop();
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
    const res = await sendCampaign(emu, admin, { campaign_id: id, action: 'send' });
    expect(res.body.campaign.recipients).toBe(3);
    await drainCampaign(emu, id);
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
    expect(mail.html).toContain('max-width: 600px;');
    expect(mail.html).toContain('A short preview');
  });

  it('renders Markdown harmless in the email and in campaigns.body_html', async () => {
    const { body_html: stored } = (await campaignRow(emu, id)) as { body_html: string };
    for (const html of [stored, mails[0]!.html]) {
      // The email's <head> is the layout's own (one <style> for phones); the body's <style> is gone.
      expect(html).not.toContain('body{display:none}');
      const body = html.replace(/^[\s\S]*?<body[^>]*>/i, '');
      expect(body).not.toMatch(/<script|<style|<iframe|javascript:|data:image|\son[a-z]+=/i);
      // The email's layout adds its own inline style to links.
      expect(html).toMatch(
        /<a href="https:\/\/example\.com\/post" rel="noopener"( style="[^"]*")?>the post<\/a>/,
      );
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
    await drainCampaign(emu, id);
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
    const asAdmin = await callFunction(emu, 'process-queue', { body: {}, bearer: admin.token });
    expect(asAdmin.status).toBe(403);
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
    // 3 s ahead: scheduling first checks the merge tags, which on a busy machine can outlast 1 s.
    const at = new Date(Date.now() + 3000).toISOString();
    expect(
      (await sendCampaign(emu, admin, { campaign_id: id, action: 'schedule', at })).status,
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
