// An anonymous Realtime observer for the no-enumeration tests: one socket with the publishable key,
// joined to everything it can name, recording every frame the server pushes to it.
import type { RealtimeChannel, SupabaseClient } from '@supabase/supabase-js';
import type { RunningEmulator } from '../../emulator/index';
import { clientFor, sql } from '../functions/kit';

export interface Heard {
  channel: string;
  kind: 'postgres_changes' | 'broadcast' | 'presence' | 'system';
  payload: unknown;
}

/** The topics the app's pages and hooks use (lib/use-waitlist.ts, lib/realtime/team-channels.ts…). */
export const APP_TOPICS = [
  'team:audience',
  'team:campaigns',
  'team:imports',
  'team:automations',
  'subscriber-count',
  'waitlist:early-access',
  'waitlist:newsletter',
];

export class Observer {
  readonly heard: Heard[] = [];
  /** What the server answered each join with: 'SUBSCRIBED', or the refusal. */
  readonly joins = new Map<string, string>();
  readonly client: SupabaseClient;
  /** supabase-js keeps one channel per topic name: private joins go through a socket of their own. */
  readonly privateClient: SupabaseClient;

  constructor(private readonly emu: RunningEmulator) {
    this.client = clientFor(emu, 'publishable');
    this.privateClient = clientFor(emu, 'publishable');
  }

  /** postgres_changes `*` on every table of `public`, on all of `public`, and on every schema. */
  async watchEveryTable(): Promise<string[]> {
    const tables = (
      await sql<{ name: string }>(
        this.emu,
        `select tablename as name from pg_catalog.pg_tables where schemaname = 'public' order by 1`,
      )
    ).map((t) => t.name);
    for (const table of tables) {
      await this.join(`pg:${table}`, (c) =>
        c.on('postgres_changes', { event: '*', schema: 'public', table }, (p) =>
          this.record(`pg:${table}`, 'postgres_changes', p),
        ),
      );
    }
    await this.join('pg:public', (c) =>
      c.on('postgres_changes', { event: '*', schema: 'public' }, (p) =>
        this.record('pg:public', 'postgres_changes', p),
      ),
    );
    await this.join('pg:all', (c) =>
      c.on('postgres_changes', { event: '*', schema: '*' }, (p) =>
        this.record('pg:all', 'postgres_changes', p),
      ),
    );
    return tables;
  }

  /** Public broadcast and presence on each topic, and a private join of each (expected refused). */
  async watchTopics(topics: string[]): Promise<void> {
    for (const topic of topics) {
      await this.join(topic, (c) =>
        c
          .on('broadcast', { event: '*' }, (p) => this.record(topic, 'broadcast', p))
          // 'sync' follows every presence_state and diff; a diff also fires 'join' or 'leave'.
          .on('presence', { event: 'join' }, (p) => this.record(topic, 'presence', p))
          .on('presence', { event: 'leave' }, (p) => this.record(topic, 'presence', p)),
      );
      await this.join(topic, (c) => c, true);
    }
  }

  /**
   * Joins `topic` (a name of its own per join, so supabase-js keeps them apart) and waits for the
   * answer; 'system' frames (postgres_changes set-up results) are recorded too.
   */
  async join(
    topic: string,
    setup: (channel: RealtimeChannel) => RealtimeChannel,
    isPrivate = false,
  ): Promise<string> {
    const label = `${isPrivate ? 'private:' : ''}${topic}`;
    const client = isPrivate ? this.privateClient : this.client;
    const channel = setup(client.channel(topic, { config: { private: isPrivate } }));
    channel.on('system', {}, (p) => this.record(label, 'system', p));
    const outcome = await new Promise<string>((resolve) => {
      channel.subscribe((status, err) => {
        if (status === 'SUBSCRIBED') resolve(status);
        else resolve(`${status}: ${err?.message ?? ''}`);
      });
    });
    this.joins.set(label, outcome);
    // A refused private join is retried by supabase-js forever; the refusal is all we need.
    if (outcome !== 'SUBSCRIBED') await client.removeChannel(channel);
    return outcome;
  }

  private record(channel: string, kind: Heard['kind'], payload: unknown) {
    this.heard.push({ channel, kind, payload });
  }

  /** What was heard apart from the join's own system replies, and clears the record. */
  take(): Heard[] {
    const taken = this.heard.splice(0).filter((h) => h.kind !== 'system' || !isJoinReply(h));
    return taken;
  }

  async close(): Promise<void> {
    await this.client.removeAllChannels();
    await this.privateClient.removeAllChannels();
  }
}

/** The system frame that says a postgres_changes set-up succeeded (sent once, on join). */
function isJoinReply(h: Heard): boolean {
  const p = h.payload as { extension?: string; status?: string } | null;
  return p?.extension === 'postgres_changes' && p.status === 'ok';
}
