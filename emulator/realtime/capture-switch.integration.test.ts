// Capture is off while nobody subscribes to postgres_changes, and on before a join is answered.
import { randomUUID } from 'node:crypto';
import type { RealtimeChannel, SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../index.js';
import { client, Inbox, sleep, startTestEmulator, subscribed } from './test-support.js';

type Change = { eventType: string; new: Record<string, unknown> };

let emu: RunningEmulator;
let service: SupabaseClient;
/** Every capture notification the database sends, whoever receives it. */
const notified: string[] = [];
let stopListening: () => Promise<void>;

beforeAll(async () => {
  emu = await startTestEmulator();
  service = client(emu, emu.keys.secret);
  await emu.db.exec(`create table public.switched (id int4 primary key, v text);
    create table public.other (id int4 primary key);
    grant select on public.switched, public.other to service_role;
    alter publication supabase_realtime add table public.switched, public.other;`);
  stopListening = await emu.db.listen('_realtime_change', (p) => notified.push(p));
});
afterAll(async () => {
  await stopListening?.();
  await service?.removeAllChannels();
  await emu?.stop();
});

function channel(inbox: Inbox<Change>, table: string | null = 'switched'): RealtimeChannel {
  return service
    .channel(randomUUID())
    .on(
      'postgres_changes' as never,
      { event: '*', schema: 'public', ...(table ? { table } : {}) } as never,
      (p: Change) => inbox.push(p),
    );
}

describe('capture switch', () => {
  it('builds no messages while nobody subscribes, and delivers from SUBSCRIBED on', async () => {
    await emu.db.query(
      `insert into public.switched select g, 'quiet' from generate_series(1, 50) g`,
    );
    await sleep(300);
    expect(notified).toEqual([]);

    const inbox = new Inbox<Change>();
    const ch = await subscribed(channel(inbox));
    await emu.db.query(`insert into public.switched values (100, 'heard')`);
    expect((await inbox.next()).new).toEqual({ id: 100, v: 'heard' });
    expect(notified.length).toBe(1);

    // The last subscriber leaves: capture goes off again at the next refresh (every second).
    await service.removeChannel(ch);
    await sleep(1500);
    notified.length = 0;
    await emu.db.query(`update public.switched set v = 'quiet again'`);
    await sleep(300);
    expect(notified).toEqual([]);
  });

  it('captures only the tables someone hears, or all of them for a binding without a table', async () => {
    const inbox = new Inbox<Change>();
    const one = await subscribed(channel(inbox));
    notified.length = 0;
    await emu.db.query(`insert into public.other values (1)`);
    await emu.db.query(`insert into public.switched values (300, 'heard')`);
    expect((await inbox.next()).new).toEqual({ id: 300, v: 'heard' });
    expect(notified.length).toBe(1); // nothing built for public.other

    const everything = new Inbox<Change>();
    const all = await subscribed(channel(everything, null));
    await emu.db.query(`insert into public.other values (2)`);
    expect((await everything.next()).new).toEqual({ id: 2 });
    await service.removeChannel(all);
    await service.removeChannel(one);
  });

  it('answers a join only once writes that began while capture was off have committed', async () => {
    await sleep(1500); // the previous test's channels are gone: capture goes off again
    const inbox = new Inbox<Change>();
    let committed = false;
    let committedAtReply: boolean | undefined;
    let joined!: Promise<void>;
    await emu.db.transaction(async (tx) => {
      // Captured while off: this write sends nothing, so it must be over before SUBSCRIBED.
      await tx.query(`insert into public.switched values (200, 'in flight')`);
      joined = subscribed(channel(inbox)).then(() => {
        committedAtReply = committed;
      });
      await sleep(700);
      expect(committedAtReply).toBeUndefined();
    });
    committed = true;
    await joined;
    expect(committedAtReply).toBe(true);
    await emu.db.query(`insert into public.switched values (201, 'after')`);
    expect((await inbox.next((c) => c.new.id === 201)).new).toEqual({ id: 201, v: 'after' });
  });
});
