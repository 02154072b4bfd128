// The Phoenix socket as raw frames: upgrade auth, heartbeats, joins, leaves, vsn 1.0.0, binary pushes, token updates.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../index.js';
import { signJwt } from '../keys.js';
import { RawSocket, startTestEmulator } from './test-support.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu?.stop());

const isReply = (ref: string) => (m: unknown) =>
  Array.isArray(m) && m[1] === ref && m[3] === 'phx_reply';

describe('socket upgrade', () => {
  it('refuses a missing or unknown apikey with 403', async () => {
    await expect(RawSocket.open(emu, 'vsn=2.0.0')).rejects.toThrow('403');
    await expect(RawSocket.open(emu, 'apikey=sb_publishable_nope&vsn=2.0.0')).rejects.toThrow(
      '403',
    );
    await expect(RawSocket.open(emu, 'apikey=not.a.jwt&vsn=2.0.0')).rejects.toThrow('403');
  });

  it('accepts every key style', async () => {
    for (const key of [
      emu.keys.anon,
      emu.keys.serviceRole,
      emu.keys.publishable,
      emu.keys.secret,
    ]) {
      const s = await RawSocket.open(emu, `apikey=${key}&vsn=2.0.0`);
      s.close();
    }
  });
});

describe('vsn 2.0.0', () => {
  it('answers heartbeats on the phoenix topic', async () => {
    const s = await RawSocket.open(emu, `apikey=${emu.keys.publishable}&vsn=2.0.0`);
    s.send([null, '1', 'phoenix', 'heartbeat', {}]);
    expect(await s.inbox.next()).toEqual([
      null,
      '1',
      'phoenix',
      'phx_reply',
      { status: 'ok', response: {} },
    ]);
    s.close();
  });

  it('joins with an echo of the postgres_changes bindings, then leaves with phx_close', async () => {
    const s = await RawSocket.open(emu, `apikey=${emu.keys.anon}&vsn=2.0.0`);
    const config = {
      broadcast: { self: false, ack: false },
      presence: { key: '', enabled: false },
      postgres_changes: [
        { event: '*', schema: 'public' },
        { event: 'INSERT', schema: 'public', table: 'nothing_here', filter: 'id=eq.1' },
      ],
      private: false,
    };
    s.send(['3', '3', 'realtime:room', 'phx_join', { config, access_token: emu.keys.anon }]);
    const reply = (await s.inbox.next(isReply('3'))) as [
      string,
      string,
      string,
      string,
      { status: string; response: { postgres_changes: Array<Record<string, unknown>> } },
    ];
    expect(reply[0]).toBe('3');
    expect(reply[4].status).toBe('ok');
    const bindings = reply[4].response.postgres_changes;
    expect(bindings.map(({ id: _id, ...rest }) => rest)).toEqual(config.postgres_changes);
    expect(bindings.every((b) => typeof b.id === 'number')).toBe(true);
    // A table that does not exist is reported as upstream does, with a system error.
    const system = (await s.inbox.next((m) => Array.isArray(m) && m[3] === 'system')) as unknown[];
    expect(system[4]).toMatchObject({
      extension: 'postgres_changes',
      status: 'error',
      channel: 'room',
    });
    expect((system[4] as { message: string }).message).toContain('Unable to subscribe to changes');

    s.send(['3', '4', 'realtime:room', 'phx_leave', {}]);
    expect(await s.inbox.next(isReply('4'))).toEqual([
      '3',
      '4',
      'realtime:room',
      'phx_reply',
      { status: 'ok', response: {} },
    ]);
    expect(await s.inbox.next((m) => Array.isArray(m) && m[3] === 'phx_close')).toEqual([
      '3',
      '3',
      'realtime:room',
      'phx_close',
      {},
    ]);
    s.close();
  });

  it('refuses to join the bare realtime: topic, as upstream does', async () => {
    const s = await RawSocket.open(emu, `apikey=${emu.keys.anon}&vsn=2.0.0`);
    s.send(['5', '5', 'realtime:', 'phx_join', { config: {} }]);
    expect(await s.inbox.next(isReply('5'))).toEqual([
      '5',
      '5',
      'realtime:',
      'phx_reply',
      { status: 'error', response: { reason: 'TopicNameRequired: You must provide a topic name' } },
    ]);
    s.close();
  });

  it('answers pushes on a topic that was not joined with an error', async () => {
    const s = await RawSocket.open(emu, `apikey=${emu.keys.anon}&vsn=2.0.0`);
    s.send([
      '9',
      '9',
      'realtime:never',
      'presence',
      { type: 'presence', event: 'track', payload: {} },
    ]);
    expect(await s.inbox.next(isReply('9'))).toEqual([
      '9',
      '9',
      'realtime:never',
      'phx_reply',
      { status: 'error', response: { reason: 'unmatched topic' } },
    ]);
    s.close();
  });

  it('fans out binary kind-3 broadcasts as text frames, honouring self and ack', async () => {
    const a = await RawSocket.open(emu, `apikey=${emu.keys.anon}&vsn=2.0.0`);
    const b = await RawSocket.open(emu, `apikey=${emu.keys.anon}&vsn=2.0.0`);
    const join = (s: RawSocket, ref: string, self: boolean) => {
      s.send([
        ref,
        ref,
        'realtime:bin',
        'phx_join',
        {
          config: {
            broadcast: { self, ack: true },
            presence: { key: '', enabled: false },
            postgres_changes: [],
            private: false,
          },
        },
      ]);
      return s.inbox.next(isReply(ref));
    };
    await join(a, '1', false);
    await join(b, '1', true);
    const text = new TextEncoder().encode('12realtime:bincursor{"x":1}');
    a.send(new Uint8Array([3, 1, 1, 12, 6, 0, 1, ...text]));
    expect(await a.inbox.next(isReply('2'))).toEqual([
      '1',
      '2',
      'realtime:bin',
      'phx_reply',
      { status: 'ok', response: {} },
    ]);
    expect(await b.inbox.next()).toEqual([
      null,
      null,
      'realtime:bin',
      'broadcast',
      { type: 'broadcast', event: 'cursor', payload: { x: 1 } },
    ]);
    await a.inbox.none((m) => Array.isArray(m) && m[3] === 'broadcast');
    // b joined with self:true and hears its own text-frame broadcast.
    b.send([
      '1',
      '5',
      'realtime:bin',
      'broadcast',
      { type: 'broadcast', event: 'e', payload: { y: 2 } },
    ]);
    expect(await b.inbox.next((m) => Array.isArray(m) && m[3] === 'broadcast')).toEqual([
      null,
      null,
      'realtime:bin',
      'broadcast',
      { type: 'broadcast', event: 'e', payload: { y: 2 } },
    ]);
    expect(await a.inbox.next((m) => Array.isArray(m) && m[3] === 'broadcast')).toBeTruthy();
    // Raw-byte payloads travel on as kind-4 binary frames.
    const raw = new TextEncoder().encode('12realtime:binblob');
    a.send(new Uint8Array([3, 1, 1, 12, 4, 0, 0, ...raw, 7, 7]));
    const bin = (await b.inbox.next((m) => m instanceof Uint8Array)) as Uint8Array;
    expect([...bin]).toEqual([
      4,
      12,
      4,
      0,
      0,
      ...new TextEncoder().encode('realtime:binblob'),
      7,
      7,
    ]);
    a.close();
    b.close();
  });

  it('closes a channel whose access_token update is invalid or expired', async () => {
    const s = await RawSocket.open(emu, `apikey=${emu.keys.anon}&vsn=2.0.0`);
    s.send(['1', '1', 'realtime:tok', 'phx_join', { config: {} }]);
    await s.inbox.next(isReply('1'));
    const now = Math.floor(Date.now() / 1000);
    const expired = await signJwt({
      role: 'authenticated',
      sub: 'u',
      exp: now - 10,
      iat: now - 100,
    });
    s.send(['1', '2', 'realtime:tok', 'access_token', { access_token: expired }]);
    const system = (await s.inbox.next((m) => Array.isArray(m) && m[3] === 'system')) as unknown[];
    expect(system[4]).toMatchObject({ extension: 'system', status: 'error', channel: 'tok' });
    expect((system[4] as { message: string }).message).toMatch(
      /^Token has expired \d+ seconds ago$/,
    );
    expect(await s.inbox.next((m) => Array.isArray(m) && m[3] === 'phx_close')).toBeTruthy();
    s.close();
  });

  it('refuses a join whose access_token does not verify', async () => {
    const s = await RawSocket.open(emu, `apikey=${emu.keys.anon}&vsn=2.0.0`);
    s.send(['1', '1', 'realtime:bad', 'phx_join', { config: {}, access_token: 'a.b.c' }]);
    const reply = (await s.inbox.next(isReply('1'))) as unknown[];
    expect(reply[4]).toMatchObject({ status: 'error' });
    s.close();
  });
});

describe('requests the server cannot honour fail loudly', () => {
  it('refuses replay on public channels at join, and bindings it cannot honour with a system error', async () => {
    const s = await RawSocket.open(emu, `apikey=${emu.keys.secret}&vsn=2.0.0`);
    s.send([
      '1',
      '1',
      'realtime:r',
      'phx_join',
      { config: { private: false, broadcast: { replay: { since: 0 } } } },
    ]);
    expect(await s.inbox.next(isReply('1'))).toEqual([
      '1',
      '1',
      'realtime:r',
      'phx_reply',
      {
        status: 'error',
        response: { reason: 'Broadcast replay is only available on private channels' },
      },
    ]);
    const config = {
      postgres_changes: [{ event: '*', schema: 'public', table: 'x', select: [] }],
    };
    s.send(['2', '2', 'realtime:s', 'phx_join', { config }]);
    await s.inbox.next(isReply('2'));
    const system = (await s.inbox.next((m) => Array.isArray(m) && m[3] === 'system')) as unknown[];
    expect(system[4]).toMatchObject({ status: 'error', extension: 'postgres_changes' });
    expect((system[4] as { message: string }).message).toContain(
      'selected_columns cannot be empty',
    );
    s.close();
  });

  it('answers unknown realtime REST paths with 404', async () => {
    const res = await fetch(`${emu.url}/realtime/v1/api/ping`, {
      headers: { apikey: emu.keys.anon },
    });
    expect(res.status).toBe(404);
  });
});

describe('vsn 1.0.0', () => {
  it('speaks object frames', async () => {
    const s = await RawSocket.open(emu, `apikey=${emu.keys.publishable}&vsn=1.0.0`);
    s.send({ topic: 'phoenix', event: 'heartbeat', payload: {}, ref: '1' });
    expect(await s.inbox.next()).toEqual({
      topic: 'phoenix',
      event: 'phx_reply',
      payload: { status: 'ok', response: {} },
      ref: '1',
      join_ref: null,
    });
    s.send({
      topic: 'realtime:v1',
      event: 'phx_join',
      payload: { config: { broadcast: { self: true } } },
      ref: '2',
      join_ref: '2',
    });
    expect(await s.inbox.next()).toEqual({
      topic: 'realtime:v1',
      event: 'phx_reply',
      payload: { status: 'ok', response: { postgres_changes: [] } },
      ref: '2',
      join_ref: '2',
    });
    s.send({
      topic: 'realtime:v1',
      event: 'broadcast',
      payload: { type: 'broadcast', event: 'hi', payload: { a: 1 } },
      ref: '3',
      join_ref: '2',
    });
    expect(await s.inbox.next()).toEqual({
      topic: 'realtime:v1',
      event: 'broadcast',
      payload: { type: 'broadcast', event: 'hi', payload: { a: 1 } },
      ref: null,
      join_ref: null,
    });
    s.close();
  });
});
