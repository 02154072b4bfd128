// Conformance: the gateway answers on localhost over IPv4 and IPv6 (127.0.0.1 and ::1), as the
// CLI's does, so clients that resolve localhost to ::1 first get an answer without a fallback.
import { createServer, type Server } from 'node:net';
import { lookup } from 'node:dns/promises';
import { createClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../index.js';
import { listenOnIpv6Loopback } from './dual-stack.js';

let emu: RunningEmulator;
let port: number;
beforeAll(async () => {
  emu = await startEmulator({
    memory: true,
    port: 0,
    dbPort: null,
    mailWebPort: 0,
    mailSmtpPort: 0,
  });
  port = Number(new URL(emu.url).port);
  await emu.db.exec(`
    create table public.dual (id int primary key, v text);
    grant select on public.dual to anon;
    insert into public.dual values (1, 'both');
  `);
}, 180_000);
afterAll(() => emu?.stop());

describe('gateway on both loopbacks', () => {
  it('answers /health on 127.0.0.1 and on [::1]', async () => {
    for (const host of ['127.0.0.1', '[::1]']) {
      const res = await fetch(`http://${host}:${port}/health`);
      expect(res.status, host).toBe(200);
      await res.arrayBuffer();
    }
  });

  it('serves supabase-js through localhost, whichever address it resolves to first', async () => {
    const first = await lookup('localhost');
    const client = createClient(`http://localhost:${port}`, emu.keys.anon, {
      auth: { persistSession: false },
    });
    const { data, error } = await client.from('dual').select('v');
    expect(error, `localhost resolved to ${first.address}`).toBeNull();
    expect(data).toEqual([{ v: 'both' }]);
    const { data: v6 } = await createClient(`http://[::1]:${port}`, emu.keys.anon, {
      auth: { persistSession: false },
    })
      .from('dual')
      .select('id');
    expect(v6).toEqual([{ id: 1 }]);
  });

  it('refuses to share its port on ::1 with another server', async () => {
    const other: Server = createServer();
    await new Promise<void>((done) => other.listen({ port: 0, host: '::1' }, done));
    const taken = (other.address() as { port: number }).port;
    try {
      await expect(
        listenOnIpv6Loopback(new (await import('node:http')).Server(), taken, () => undefined),
      ).rejects.toMatchObject({ code: 'EADDRINUSE' });
    } finally {
      other.close();
    }
  });
});
