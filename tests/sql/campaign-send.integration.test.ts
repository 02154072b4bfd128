// The send queue in SQL (SPEC §4, §9): campaign transitions, recipients fixed once per address, and
// concurrent claims that never hand the same delivery to two workers. Runs on PGlite and PostgreSQL.
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { clientFor, sql, startFunctionsEmulator } from '../functions/kit';

let emu: RunningEmulator;
let service: SupabaseClient;

async function newCampaign(lists: string[], subject = 'Hello'): Promise<string> {
  const [row] = await sql<{ id: string }>(
    emu,
    `insert into public.campaigns (name, subject, body_md) values ('Test', $1, '# Hi') returning id`,
    [subject],
  );
  await sql(
    emu,
    `insert into public.campaign_lists (campaign_id, list_id)
     select $1, id from public.lists where slug = any($2::text[])`,
    [row!.id, lists],
  );
  return row!.id;
}

async function addSubscribers(count: number, tag: string, lists: string[]): Promise<void> {
  await sql(
    emu,
    `with s as (
       insert into public.subscribers (email)
       select $1 || '-' || i || '@example.com' from generate_series(1, $2::int) i returning id)
     insert into public.subscriptions (subscriber_id, list_id, status)
     select s.id, l.id, 'confirmed' from s cross join public.lists l where l.slug = any($3::text[])`,
    [tag, count, lists],
  );
}

beforeAll(async () => {
  emu = await startFunctionsEmulator();
  service = clientFor(emu, 'service');
});
afterAll(async () => {
  await emu?.stop();
});

describe('campaign states', () => {
  it('starts as a draft and refuses transitions SPEC §4 does not allow', async () => {
    const id = await newCampaign(['newsletter']);
    const bad = await service.from('campaigns').update({ status: 'sent' }).eq('id', id);
    expect(bad.error?.message).toBe('postbox:conflict: A draft campaign cannot become sent.');
    await sql(emu, `update public.campaigns set status = 'cancelled' where id = $1`, [id]);
    const edit = await service.from('campaigns').update({ subject: 'Changed' }).eq('id', id);
    expect(edit.error?.message).toBe('postbox:conflict: Only drafts can be edited.');
  });
});

describe('delivery states', () => {
  it('allows the transitions of SPEC §4 and refuses any other, naming both states', async () => {
    await sql(
      emu,
      `insert into public.lists (slug, name, optin) values ('states', 'States', 'single')`,
    );
    await addSubscribers(1, 'states', ['states']);
    const id = await newCampaign(['states']);
    await service.rpc('start_campaign_send', { p_campaign_id: id, p_body_html: '<p>Hi</p>' });
    const move = (status: string) =>
      service.from('deliveries').update({ status }).eq('campaign_id', id).select('status');
    // queued → sending → sent → bounced is a delivery's ordinary life.
    for (const status of ['sending', 'sent', 'bounced']) {
      const { data, error } = await move(status);
      expect(error).toBeNull();
      expect(data).toEqual([{ status }]);
    }
    const back = await move('queued');
    expect(back.error?.message).toBe('postbox:conflict: A bounced delivery cannot become queued.');
    const same = await move('bounced'); // not a transition: other columns may change
    expect(same.error).toBeNull();
    const [row] = await sql<{ status: string }>(
      emu,
      'select status from public.deliveries where campaign_id = $1',
      [id],
    );
    expect(row!.status).toBe('bounced');
  });
});

describe('start_campaign_send', () => {
  it('fixes each enabled, confirmed address once, even on two chosen lists', async () => {
    await addSubscribers(5, 'both', ['newsletter', 'product-updates']);
    const id = await newCampaign(['newsletter', 'product-updates']);
    const { data, error } = await service.rpc('start_campaign_send', {
      p_campaign_id: id,
      p_body_html: '<p>Hi</p>',
    });
    expect(error).toBeNull();
    const [expected] = await sql<{ n: string }>(
      emu,
      `select count(distinct s.id)::text as n from public.subscribers s
       join public.subscriptions sub on sub.subscriber_id = s.id and sub.status = 'confirmed'
       join public.lists l on l.id = sub.list_id and l.slug in ('newsletter', 'product-updates')
       where s.status = 'enabled'`,
    );
    expect(data).toBe(Number(expected!.n));
    const [campaign] = await sql<{ status: string; recipients: number }>(
      emu,
      `select status, recipients from public.campaigns where id = $1`,
      [id],
    );
    expect(campaign).toEqual({ status: 'sending', recipients: data });
    // Pending, unsubscribed and blocklisted seed addresses are not among the recipients.
    const excluded = await sql(
      emu,
      `select s.email from public.deliveries d join public.subscribers s on s.id = d.subscriber_id
       where d.campaign_id = $1 and s.email in ('alan@example.com', 'linus@example.com', 'spam@example.com')`,
      [id],
    );
    expect(excluded).toEqual([]);
    const again = await service.rpc('start_campaign_send', { p_campaign_id: id, p_body_html: '' });
    expect(again.error?.message).toBe(
      'postbox:conflict: Only a draft or scheduled campaign can be sent.',
    );
  });

  it('refuses a campaign without recipients and leaves it a draft', async () => {
    const id = await newCampaign(['beta-testers']);
    await sql(
      emu,
      `delete from public.subscriptions where list_id = (select id from public.lists where slug = 'beta-testers')`,
    );
    const { error } = await service.rpc('start_campaign_send', {
      p_campaign_id: id,
      p_body_html: '',
    });
    expect(error?.message).toBe('postbox:no_recipients: This campaign has no recipients.');
    const rows = await sql(emu, `select status from public.campaigns where id = $1`, [id]);
    expect(rows).toEqual([{ status: 'draft' }]);
  });
});

describe('claim_deliveries', () => {
  it('never gives one delivery to two concurrent workers, and returns stale claims', async () => {
    await addSubscribers(300, 'claim', ['product-updates']);
    const id = await newCampaign(['product-updates']);
    const { data: total } = await service.rpc('start_campaign_send', {
      p_campaign_id: id,
      p_body_html: '',
    });
    const claims = await Promise.all(
      Array.from({ length: 4 }, () => service.rpc('claim_deliveries', { p_limit: 100 })),
    );
    const ids = claims.flatMap((c) => {
      expect(c.error).toBeNull();
      return (c.data as { subscriber_id: string; campaign_id: string }[])
        .filter((d) => d.campaign_id === id)
        .map((d) => d.subscriber_id);
    });
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(Math.min(400, total as number));
    // A claim older than the timeout goes back to the queue and can be claimed again.
    await sql(
      emu,
      `update public.deliveries set claimed_at = now() - interval '11 minutes' where campaign_id = $1`,
      [id],
    );
    const reclaimed = await service.rpc('claim_deliveries', { p_limit: 1000 });
    const mine = (reclaimed.data as { campaign_id: string; attempts: number }[]).filter(
      (d) => d.campaign_id === id,
    );
    expect(mine.length).toBe(total);
    expect(mine.every((d) => d.attempts >= 1)).toBe(true);
  });
});
