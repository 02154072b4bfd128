// joinLive against the emulator's Realtime with the unchanged supabase-js client: the page's
// re-read runs on the first join and again after a dropped socket is rejoined, and what changed
// while the socket was down is in what that re-read sees.
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RunningEmulator } from '../../emulator/index';
import { member, startCampaignEmulator, until } from '../../tests/campaigns/kit';
import { clientFor } from '../../tests/functions/kit';
import type { Database } from '../database.types';
import { joinLive, uniqueTopic, type LiveStatus } from './live-channel';

let emu: RunningEmulator;
let editor: SupabaseClient<Database>;
/** Every socket the editor's client opened, so a test can cut one as a network drop would. */
const sockets: WebSocket[] = [];

class TrackedWebSocket extends WebSocket {
  constructor(...args: ConstructorParameters<typeof WebSocket>) {
    super(...args);
    sockets.push(this);
  }
}

beforeAll(async () => {
  emu = await startCampaignEmulator();
  const { token } = await member(emu, 'editor');
  editor = createClient<Database>(emu.url, emu.keys.publishable, {
    auth: { persistSession: false, autoRefreshToken: false },
    global: { headers: { Authorization: `Bearer ${token}` } },
    realtime: { transport: TrackedWebSocket as never, params: { apikey: emu.keys.publishable } },
  });
  editor.realtime.setAuth(token);
});

afterAll(async () => {
  await editor?.removeAllChannels();
  await emu?.stop();
});

describe('uniqueTopic', () => {
  it('gives each mount a topic of its own under the prefix', () => {
    const a = uniqueTopic('admin-campaigns');
    const b = uniqueTopic('admin-campaigns');
    expect(a).toMatch(/^admin-campaigns-[a-z0-9]+$/);
    expect(a).not.toBe(b);
  });
});

describe('joinLive', () => {
  it(
    're-reads on the first join and after a dropped socket rejoins, seeing what changed meanwhile',
    { timeout: 60_000 },
    async () => {
      const statuses: LiveStatus[] = [];
      const reads: string[][] = [];
      const channel = joinLive(
        editor
          .channel(uniqueTopic('live-channel-test'))
          .on('postgres_changes', { event: '*', schema: 'public', table: 'campaigns' }, () => {}),
        {
          onJoin: () => {
            void editor
              .from('campaigns')
              .select('name')
              .order('name')
              .then(({ data }) => reads.push((data ?? []).map((c) => c.name)));
          },
          onStatus: (status) => statuses.push(status),
        },
      );
      await until(async () => reads.length === 1, 15_000, 'the first join and its read');
      expect(statuses).toEqual(['live']);
      expect(reads[0]).not.toContain('Written while offline');

      // The network goes away; a campaign is written while the page cannot hear about it.
      const open = sockets.at(-1)!;
      open.terminate();
      await until(async () => statuses.includes('offline'), 15_000, 'the channel to go offline');
      const service = clientFor(emu, 'service');
      const written = await service
        .from('campaigns')
        .insert({ name: 'Written while offline', subject: 'Hello' });
      expect(written.error).toBeNull();

      // supabase-js reconnects and rejoins by itself; the join's re-read finds the new campaign.
      await until(async () => reads.length === 2, 20_000, 'the rejoin and its read');
      expect(statuses.at(-1)).toBe('live');
      expect(reads[1]).toContain('Written while offline');
      expect(sockets.length).toBeGreaterThan(1);
      await editor.removeChannel(channel);
    },
  );
});
