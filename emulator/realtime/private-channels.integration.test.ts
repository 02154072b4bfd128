// Private channels: joins and sends authorised by RLS on realtime.messages, evaluated as the caller.
import { randomUUID } from 'node:crypto';
import type { RealtimeChannel, SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../index.js';
import { signJwt } from '../keys.js';
import { client, Inbox, startTestEmulator, subscribed } from './test-support.js';

let emu: RunningEmulator;
const clients: SupabaseClient[] = [];
const alice = randomUUID();
const bob = randomUUID();

beforeAll(async () => {
  emu = await startTestEmulator();
  // As a project migration would write them (contract §6.6).
  await emu.db.exec(`
    create policy "members read their own room" on realtime.messages for select to authenticated
      using (realtime.topic() = 'room:' || (current_setting('request.jwt.claims', true)::jsonb ->> 'sub')
        and realtime.messages.extension in ('broadcast', 'presence'));
    create policy "members write to their own room" on realtime.messages for insert to authenticated
      with check (realtime.topic() = 'room:' || (current_setting('request.jwt.claims', true)::jsonb ->> 'sub'));
    create policy "everyone signed in reads the announcements" on realtime.messages for select to authenticated
      using (realtime.topic() = 'announcements');
  `);
});
afterAll(async () => {
  for (const c of clients) await c.removeAllChannels();
  await emu?.stop();
});

async function as(sub: string | null, key = emu.keys.anon): Promise<SupabaseClient> {
  const c = client(emu, key);
  clients.push(c);
  if (sub) {
    const now = Math.floor(Date.now() / 1000);
    await c.realtime.setAuth(
      await signJwt({
        role: 'authenticated',
        aud: 'authenticated',
        sub,
        iat: now,
        exp: now + 3600,
      }),
    );
  }
  return c;
}

function joinError(channel: RealtimeChannel): Promise<string> {
  return new Promise((resolve, reject) => {
    channel.subscribe((status, err) => {
      if (status === 'CHANNEL_ERROR') resolve(err?.message ?? '');
      else reject(new Error(`expected CHANNEL_ERROR, got ${status}`));
    });
  });
}

type Broadcast = { type: string; event: string; payload: Record<string, unknown> };

describe('private channels', () => {
  it('refuses a join the SELECT policy does not allow, with upstream wording', async () => {
    const anon = await as(null);
    const message = await joinError(anon.channel(`room:${alice}`, { config: { private: true } }));
    expect(message).toBe(
      `Unauthorized: You do not have permissions to read from this Channel topic: room:${alice}`,
    );
    const intruder = await as(bob);
    expect(
      await joinError(intruder.channel(`room:${alice}`, { config: { private: true } })),
    ).toContain('Unauthorized');
    anon.realtime.disconnect();
    intruder.realtime.disconnect();
  });

  it('lets the owner join, send and receive; the public channel of that name hears nothing', async () => {
    const name = `room:${alice}`;
    const inbox = new Inbox<Broadcast>();
    const reader = (await as(alice))
      .channel(name, { config: { private: true } })
      .on('broadcast', { event: 'msg' }, (m) => inbox.push(m as Broadcast));
    await subscribed(reader);
    const outsider = new Inbox<Broadcast>();
    await subscribed(
      (await as(null))
        .channel(name)
        .on('broadcast', { event: 'msg' }, (m) => outsider.push(m as Broadcast)),
    );
    const writer = (await as(alice)).channel(name, {
      config: { private: true, broadcast: { ack: true } },
    });
    await subscribed(writer);
    expect(await writer.send({ type: 'broadcast', event: 'msg', payload: { hi: 1 } })).toBe('ok');
    expect((await inbox.next()).payload).toEqual({ hi: 1 });
    await outsider.none();
  });

  it('drops sends the INSERT policy refuses and reports them when ack is on', async () => {
    const inbox = new Inbox<Broadcast>();
    const reader = (await as(bob))
      .channel('announcements', { config: { private: true } })
      .on('broadcast', { event: 'msg' }, (m) => inbox.push(m as Broadcast));
    await subscribed(reader);
    const writer = (await as(alice)).channel('announcements', {
      config: { private: true, broadcast: { ack: true } },
    });
    await subscribed(writer);
    expect(await writer.send({ type: 'broadcast', event: 'msg', payload: { no: 1 } })).not.toBe(
      'ok',
    );
    await inbox.none();
  });

  it('lets service_role in everywhere and delivers private realtime.send() rows', async () => {
    const inbox = new Inbox<Broadcast>();
    const admin = (await as(null, emu.keys.secret))
      .channel('ops', { config: { private: true } })
      .on('broadcast', { event: 'alert' }, (m) => inbox.push(m as Broadcast));
    await subscribed(admin);
    await emu.db.query(`select realtime.send('{"level":"high"}'::jsonb, 'alert', 'ops')`);
    expect((await inbox.next()).payload).toMatchObject({ level: 'high' });
  });

  it('replays the newest stored broadcasts since a time on join, marked replayed', async () => {
    const since = Date.now() - 60_000;
    for (const n of [1, 2, 3]) {
      await emu.db.query(`select realtime.send($1::jsonb, 'note', 'history')`, [
        JSON.stringify({ n }),
      ]);
    }
    const inbox = new Inbox<Broadcast & { meta?: { replayed?: boolean; id?: string } }>();
    const channel = (await as(null, emu.keys.secret))
      .channel('history', { config: { private: true, broadcast: { replay: { since, limit: 2 } } } })
      .on('broadcast', { event: 'note' }, (m) => inbox.push(m as never));
    await subscribed(channel);
    const first = await inbox.next();
    const second = await inbox.next();
    expect([first.payload.n, second.payload.n]).toEqual([2, 3]);
    expect(first.meta).toEqual({ replayed: true, id: first.payload.id });
    await inbox.none();
  });

  it('authorises private REST broadcasts by the INSERT policy', async () => {
    const name = `room:${alice}`;
    const inbox = new Inbox<Broadcast>();
    await subscribed(
      (await as(alice))
        .channel(name, { config: { private: true } })
        .on('broadcast', { event: 'rest' }, (m) => inbox.push(m as Broadcast)),
    );
    const now = Math.floor(Date.now() / 1000);
    const post = async (sub: string) =>
      fetch(`${emu.url}/realtime/v1/api/broadcast`, {
        method: 'POST',
        headers: {
          apikey: emu.keys.publishable,
          Authorization: `Bearer ${await signJwt({ role: 'authenticated', sub, iat: now, exp: now + 60 })}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({
          messages: [{ topic: name, event: 'rest', payload: { from: sub }, private: true }],
        }),
      });
    expect((await post(bob)).status).toBe(202);
    expect((await post(alice)).status).toBe(202);
    expect((await inbox.next()).payload).toEqual({ from: alice });
    await inbox.none();
  });
});
