// Realtime's replication_ready system message and realtime.send_binary() through the unchanged supabase-js client.
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../index.js';
import { client, Inbox, RawSocket, startTestEmulator, subscribed } from './test-support.js';

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

type Received = { event: string; payload?: unknown; meta?: { id?: string; replayed?: boolean } };
const bytesOf = (payload: unknown) => [...new Uint8Array(payload as ArrayBuffer)];

describe('replication_ready', () => {
  it('sends the system message upstream sends once database changes can flow', async () => {
    const system = new Inbox<unknown>();
    const channel = make(emu.keys.publishable)
      .channel('ready-room', { config: { broadcast: { replication_ready: true } } })
      .on('system', {}, (m) => system.push(m));
    await subscribed(channel);
    expect(await system.next()).toEqual({
      extension: 'system',
      status: 'ok',
      message: 'Replication connection established',
      channel: 'ready-room',
    });
  });

  it('sends nothing without the opt-in', async () => {
    const system = new Inbox<unknown>();
    const channel = make(emu.keys.publishable)
      .channel('plain-room')
      .on('system', {}, (m) => system.push(m));
    await subscribed(channel);
    await system.none();
  });
});

describe('realtime.send_binary', () => {
  it('delivers raw bytes as a binary broadcast with the message id', async () => {
    const inbox = new Inbox<Received>();
    const channel = make(emu.keys.anon)
      .channel('bin-room')
      .on('broadcast', { event: 'blob' }, (m) => inbox.push(m as Received));
    await subscribed(channel);
    await emu.db.exec(`select realtime.send_binary('\\x0001ff'::bytea, 'blob', 'bin-room', false)`);
    const got = await inbox.next();
    expect(got.event).toBe('blob');
    expect(bytesOf(got.payload)).toEqual([0, 1, 255]);
    const { rows } = await emu.db.query<{ id: string }>(
      `select id from realtime.messages where topic = 'bin-room' and binary_payload is not null`,
    );
    expect(got.meta).toEqual({ id: rows[0]!.id });
  });

  it('carries payloads too big for one notification', async () => {
    const inbox = new Inbox<Received>();
    const channel = make(emu.keys.anon)
      .channel('big-bin')
      .on('broadcast', { event: 'blob' }, (m) => inbox.push(m as Received));
    await subscribed(channel);
    await emu.db.exec(
      `select realtime.send_binary(decode(repeat('ab', 20000), 'hex'), 'blob', 'big-bin', false)`,
    );
    const got = bytesOf((await inbox.next()).payload);
    expect(got).toHaveLength(20000);
    expect(got.every((b) => b === 0xab)).toBe(true);
  });

  it('is skipped on JSON (vsn 1.0.0) sockets, which cannot carry bytes', async () => {
    const raw = await RawSocket.open(emu, `apikey=${emu.keys.anon}&vsn=1.0.0`);
    raw.send({
      topic: 'realtime:json-bin',
      event: 'phx_join',
      payload: { config: {} },
      ref: '1',
      join_ref: '1',
    });
    await raw.inbox.next((m) => (m as { event?: string }).event === 'phx_reply');
    await emu.db.exec(`select realtime.send_binary('\\x01'::bytea, 'blob', 'json-bin', false)`);
    await emu.db.exec(`select realtime.send('{"a":1}'::jsonb, 'text', 'json-bin', false)`);
    const text = (await raw.inbox.next((m) => (m as { event?: string }).event === 'broadcast')) as {
      payload: { event: string };
    };
    expect(text.payload.event).toBe('text');
    await raw.inbox.none((m) => (m as { event?: string }).event === 'broadcast', 300);
    raw.close();
  });

  it('replays stored binary broadcasts on private channels as binary', async () => {
    const since = Date.now() - 1000;
    await emu.db.exec(`select realtime.send_binary('\\x0203'::bytea, 'blob', 'bin-replay', true)`);
    const inbox = new Inbox<Received>();
    const channel = make(emu.keys.secret)
      .channel('bin-replay', { config: { private: true, broadcast: { replay: { since } } } })
      .on('broadcast', { event: 'blob' }, (m) => inbox.push(m as Received));
    await subscribed(channel);
    const got = await inbox.next();
    expect(bytesOf(got.payload)).toEqual([2, 3]);
    expect(got.meta).toMatchObject({ replayed: true });
  });
});
