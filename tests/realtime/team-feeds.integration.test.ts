// The team's live feeds on private broadcast topics (issue 20, finding 1): members of any role join
// team:audience, team:campaigns and team:imports and hear one message per statement; anonymous
// visitors and signed-in strangers are refused; bulk writes send one message, not one per row.
import { randomBytes } from 'node:crypto';
import type { RealtimeChannel, SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { Inbox } from '../../emulator/realtime/test-support';
import {
  callFunction,
  clientFor,
  signedInClient,
  sql,
  startFunctionsEmulator,
} from '../functions/kit';

type Message = { topic: string; event: string; payload: Record<string, unknown> };

let emu: RunningEmulator;
const clients: SupabaseClient[] = [];
const heard = new Inbox<Message>();

beforeAll(async () => {
  emu = await startFunctionsEmulator({ trustedProxyHops: 1 });
}, 120_000);
afterAll(async () => {
  for (const c of clients) await c.removeAllChannels();
  await emu?.stop();
});

/** Joins `topic` as a private channel; resolves 'SUBSCRIBED' or the refusal. */
function join(client: SupabaseClient, topic: string, inbox?: Inbox<Message>): Promise<string> {
  clients.push(client);
  const channel: RealtimeChannel = client
    .channel(topic, { config: { private: true } })
    .on('broadcast', { event: '*' }, (m) =>
      inbox?.push({ topic, event: m.event, payload: m.payload as Record<string, unknown> }),
    );
  return new Promise<string>((resolve) => {
    channel.subscribe((status, err) => {
      resolve(status === 'SUBSCRIBED' ? status : `${status}: ${err?.message ?? ''}`);
    });
  }).then(async (outcome) => {
    // supabase-js would retry a refused join forever; the refusal is all the test needs.
    if (outcome !== 'SUBSCRIBED') await client.removeChannel(channel);
    return outcome;
  });
}

const TOPICS = ['team:audience', 'team:campaigns', 'team:imports'];

describe('private team topics', () => {
  it('let a member of the lowest role join, and refuse anonymous visitors and strangers', async () => {
    const viewer = await signedInClient(emu, 'viewer');
    for (const topic of TOPICS) expect(await join(viewer, topic, heard)).toBe('SUBSCRIBED');
    const stranger = await signedInClient(emu, null);
    const anon = clientFor(emu, 'publishable');
    for (const topic of TOPICS) {
      expect(await join(stranger, topic)).toMatch(/^CHANNEL_ERROR: Unauthorized/);
      expect(await join(anon, topic)).toMatch(/^CHANNEL_ERROR: Unauthorized/);
    }
  });

  it('announce a signup on team:audience without naming the subscriber', async () => {
    const email = `feed-${randomBytes(4).toString('hex')}@example.com`;
    const res = await callFunction(emu, 'subscribe', {
      body: { email },
      headers: { 'X-Forwarded-For': '10.9.8.7' },
    });
    expect(res.status).toBe(200);
    const signup = await heard.next((m) => m.event === 'signups');
    expect(signup).toMatchObject({ topic: 'team:audience', payload: { op: 'insert' } });
    expect(JSON.stringify(signup.payload)).not.toContain(email);
    await heard.next((m) => m.event === 'subscriptions');
  });

  it('name the campaign or import that changed', async () => {
    const [campaign] = await sql<{ id: string }>(
      emu,
      `insert into public.campaigns (name, subject) values ('Live', 'Hello') returning id`,
    );
    expect(await heard.next((m) => m.topic === 'team:campaigns')).toMatchObject({
      event: 'changed',
      payload: { op: 'insert', ids: [campaign!.id] },
    });
    await sql(emu, `update public.campaigns set subject = 'Hi' where id = $1`, [campaign!.id]);
    expect(await heard.next((m) => m.topic === 'team:campaigns')).toMatchObject({
      payload: { op: 'update', ids: [campaign!.id] },
    });
    const [created] = await sql<{ id: string }>(
      emu,
      `insert into public.imports (object_path) values ('feeds/test.csv') returning id`,
    );
    expect(await heard.next((m) => m.topic === 'team:imports')).toMatchObject({
      event: 'changed',
      payload: {
        op: 'insert',
        ids: [created!.id],
        // Its progress, so the dialog draws each batch as it commits.
        imports: [{ id: created!.id, status: 'queued', processed_rows: 0 }],
      },
    });
  });

  it('send one message for a bulk statement, and one per transaction for repeats', async () => {
    await new Promise((r) => setTimeout(r, 500));
    heard.items.splice(0);
    const tag = randomBytes(4).toString('hex');
    await sql(
      emu,
      `with s as (
         insert into public.subscribers (email)
         select 'bulk-' || $1 || '-' || g || '@example.com' from generate_series(1, 500) g
         returning id)
       insert into public.subscriptions (subscriber_id, list_id, status)
       select s.id, l.id, 'confirmed' from s, public.lists l where l.slug = 'newsletter'`,
      [tag],
    );
    // Five statements updating rows in one transaction: one message.
    await sql(
      emu,
      `do $$ begin
         for i in 1..5 loop
           update public.subscribers set name = 'Bulk ' || i where email like 'bulk-${tag}-%';
         end loop;
       end $$`,
    );
    await new Promise((r) => setTimeout(r, 1500));
    const audience = heard.items.filter((m) => m.topic === 'team:audience');
    expect(audience.map((m) => m.event).sort()).toEqual([
      'signups',
      'subscribers',
      'subscriptions',
    ]);
    // More than 100 campaigns changed: ids is null ("any").
    await sql(
      emu,
      `insert into public.campaigns (name, subject) select 'Bulk ' || g, 'S' from generate_series(1, 150) g`,
    );
    const bulk = await heard.next((m) => m.topic === 'team:campaigns');
    expect(bulk.payload).toMatchObject({ op: 'insert', ids: null });
    await heard.none((m) => m.topic === 'team:campaigns');
  });
});
