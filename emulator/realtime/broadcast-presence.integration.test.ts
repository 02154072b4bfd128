// Broadcast (socket, REST, httpSend, realtime.send) and presence through the unchanged supabase-js client.
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../index.js';
import { client, Inbox, startTestEmulator, subscribed } from './test-support.js';

let emu: RunningEmulator;
const clients: SupabaseClient[] = [];
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(async () => {
  for (const c of clients) await c.removeAllChannels();
  await emu?.stop();
});

function make(key: string): SupabaseClient {
  const c = client(emu, key);
  clients.push(c);
  return c;
}

type Broadcast = { type: string; event: string; payload: Record<string, unknown>; meta?: unknown };

async function receiver(key: string, room: string, event = 'cursor') {
  const inbox = new Inbox<Broadcast>();
  const channel = make(key)
    .channel(room)
    .on('broadcast', { event }, (m) => inbox.push(m as Broadcast));
  await subscribed(channel);
  return inbox;
}

describe('broadcast', () => {
  it('fans out socket sends to other clients; self and ack as configured', async () => {
    const inbox = await receiver(emu.keys.publishable, 'room1');
    const own = new Inbox<Broadcast>();
    const sender = make(emu.keys.anon)
      .channel('room1', { config: { broadcast: { self: true, ack: true } } })
      .on('broadcast', { event: 'cursor' }, (m) => own.push(m as Broadcast));
    await subscribed(sender);
    expect(await sender.send({ type: 'broadcast', event: 'cursor', payload: { x: 1 } })).toBe('ok');
    expect(await inbox.next()).toEqual({ type: 'broadcast', event: 'cursor', payload: { x: 1 } });
    expect(await own.next()).toEqual({ type: 'broadcast', event: 'cursor', payload: { x: 1 } });
  });

  it('does not echo to the sender without self', async () => {
    const own = new Inbox<Broadcast>();
    const sender = make(emu.keys.anon)
      .channel('room2')
      .on('broadcast', { event: 'cursor' }, (m) => own.push(m as Broadcast));
    await subscribed(sender);
    const other = await receiver(emu.keys.secret, 'room2');
    expect(await sender.send({ type: 'broadcast', event: 'cursor', payload: { y: 2 } })).toBe('ok');
    expect((await other.next()).payload).toEqual({ y: 2 });
    await own.none();
  });

  it('carries raw-byte payloads both ways (kind-3 in, kind-4 out) and httpSend octet-streams', async () => {
    const inbox = await receiver(emu.keys.anon, 'bytes', 'blob');
    const sender = make(emu.keys.anon).channel('bytes', { config: { broadcast: { ack: true } } });
    await subscribed(sender);
    const bytes = new Uint8Array([0, 1, 2, 250]).buffer;
    expect(await sender.send({ type: 'broadcast', event: 'blob', payload: bytes })).toBe('ok');
    const got = await inbox.next();
    expect(got.event).toBe('blob');
    expect([...new Uint8Array(got.payload as unknown as ArrayBuffer)]).toEqual([0, 1, 2, 250]);
    expect(await sender.httpSend('blob', new Uint8Array([7, 8]).buffer)).toEqual({ success: true });
    expect([...new Uint8Array((await inbox.next()).payload as unknown as ArrayBuffer)]).toEqual([
      7, 8,
    ]);
  });

  it('unsubscribes with ok', async () => {
    const channel = make(emu.keys.publishable).channel('leaving');
    await subscribed(channel);
    expect(await channel.unsubscribe()).toBe('ok');
  });

  it('accepts REST broadcasts with 202 and delivers them', async () => {
    const inbox = await receiver(emu.keys.anon, 'rest-room');
    const res = await fetch(`${emu.url}/realtime/v1/api/broadcast`, {
      method: 'POST',
      headers: { apikey: emu.keys.publishable, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        messages: [
          { topic: 'rest-room', event: 'cursor', payload: { via: 'rest' }, private: false },
        ],
      }),
    });
    expect(res.status).toBe(202);
    expect((await inbox.next()).payload).toEqual({ via: 'rest' });

    // An unjoined channel's send() falls back to that endpoint in supabase-js.
    const unjoined = make(emu.keys.anon).channel('rest-room');
    expect(
      await unjoined.send({ type: 'broadcast', event: 'cursor', payload: { via: 'fallback' } }),
    ).toBe('ok');
    expect((await inbox.next()).payload).toEqual({ via: 'fallback' });
  });

  it('answers httpSend with 202', async () => {
    const inbox = await receiver(emu.keys.anon, 'http-room');
    const channel = make(emu.keys.publishable).channel('http-room');
    expect(await channel.httpSend('cursor', { via: 'httpSend' })).toEqual({ success: true });
    expect((await inbox.next()).payload).toEqual({ via: 'httpSend' });
  });

  it('refuses REST broadcasts without a valid key', async () => {
    const res = await fetch(`${emu.url}/realtime/v1/api/broadcast`, {
      method: 'POST',
      headers: { apikey: 'nope', 'Content-Type': 'application/json' },
      body: JSON.stringify({ messages: [] }),
    });
    expect(res.status).toBe(401);
  });

  it('delivers realtime.send() rows with payload.id and meta.id', async () => {
    const inbox = await receiver(emu.keys.anon, 'db-room', 'news');
    await emu.db.query(`select realtime.send('{"n":1}'::jsonb, 'news', 'db-room', false)`);
    const msg = await inbox.next();
    expect(msg.type).toBe('broadcast');
    expect(msg.event).toBe('news');
    expect(msg.payload).toEqual({ n: 1, id: expect.any(String) });
    expect(msg.meta).toEqual({ id: msg.payload.id });
  });
});

describe('presence', () => {
  it('sends state on join, diffs on track/untrack, and leaves when a socket drops', async () => {
    type Event = { kind: string; key?: string; state?: unknown };
    const watch = (key: string, name: string) => {
      const events = new Inbox<Event>();
      const c = make(emu.keys.anon);
      const channel = c
        .channel(name, { config: { presence: { key } } })
        .on('presence', { event: 'sync' }, () =>
          events.push({ kind: 'sync', state: channel.presenceState() }),
        )
        .on('presence', { event: 'join' }, ({ key: k }) => events.push({ kind: 'join', key: k }))
        .on('presence', { event: 'leave' }, ({ key: k }) => events.push({ kind: 'leave', key: k }));
      return { c, channel, events };
    };
    const a = watch('alice', 'lobby');
    await subscribed(a.channel);
    expect(await a.channel.track({ status: 'online' })).toBe('ok');
    expect(await a.events.next((e) => e.kind === 'join')).toEqual({ kind: 'join', key: 'alice' });

    const b = watch('bob', 'lobby');
    await subscribed(b.channel);
    // The joiner's first sync carries alice's state, with phx_ref renamed presence_ref by the client.
    const sync = await b.events.next(
      (e) => e.kind === 'sync' && Object.keys(e.state as object).length > 0,
    );
    expect(sync.state).toEqual({ alice: [{ status: 'online', presence_ref: expect.any(String) }] });

    expect(await b.channel.track({ status: 'here' })).toBe('ok');
    expect(await a.events.next((e) => e.kind === 'join' && e.key === 'bob')).toBeTruthy();
    expect(await b.channel.untrack()).toBe('ok');
    expect(await a.events.next((e) => e.kind === 'leave' && e.key === 'bob')).toBeTruthy();

    // alice's socket goes away without leaving: bob hears her leave.
    a.c.realtime.disconnect();
    expect(await b.events.next((e) => e.kind === 'leave' && e.key === 'alice')).toBeTruthy();
  });
});
