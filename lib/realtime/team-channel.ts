// The team's live feeds: private broadcast topics the database announces changes on (migration
// 20261127100000), shared by every hook in the tab that listens to one of them.
import type { RealtimeChannel, SupabaseClient } from '@supabase/supabase-js';
import { supabase } from '../supabase';

/**
 * team:audience — 'signups' (subscribers inserted), 'subscribers' (updated or deleted),
 * 'subscriptions' (any change); team:campaigns and team:imports — 'changed'; team:members —
 * 'changed' (a member's first sign-in, 20261128600200); team:automations — 'changed' (ids: the
 * automations whose steps, enrolments or report moved, 20261202100000). Only members may
 * join (RLS on realtime.messages); the messages name no subscriber.
 */
export type TeamTopic =
  'team:audience' | 'team:campaigns' | 'team:imports' | 'team:members' | 'team:automations';

export interface TeamMessage {
  event: string;
  /**
   * `ids`: the campaigns, imports or automations a statement changed, or null when over 100;
   * `imports` (team:imports): their progress counters, so no batch's step is missed.
   */
  payload: { op?: string; ids?: string[] | null; imports?: Array<{ id: string }> | null };
}

export interface TeamListener {
  onMessage: (message: TeamMessage) => void;
  /**
   * Runs each time the channel is joined (first time and after every rejoin): a change made
   * before the join, or while the socket was down, sent this tab nothing, so read again here.
   */
  onJoin?: () => void;
  onStatus?: (status: 'live' | 'offline') => void;
}

interface Shared {
  listeners: Set<TeamListener>;
  status: 'connecting' | 'live' | 'offline';
  channel: RealtimeChannel | null;
  /** Pending removal once the last listener left (cancelled when another arrives). */
  idle: ReturnType<typeof setTimeout> | undefined;
}

/** A page change unmounts one view and mounts the next: keep the channel that long. */
const LINGER_MS = 2000;

/**
 * The team topics of one client: one channel per topic, shared by every listener (supabase-js
 * keeps one channel per topic name, so two hooks on one topic cannot each have their own).
 */
export function teamChannels(client: SupabaseClient) {
  const shared = new Map<TeamTopic, Shared>();
  /**
   * Removals in progress per topic: supabase-js drops every channel of a name when one is
   * removed, so a new channel waits for the old one to go.
   */
  const removing = new Map<TeamTopic, Promise<unknown>>();

  function open(topic: TeamTopic, entry: Shared): void {
    const start = () => {
      if (shared.get(topic) !== entry) return;
      const channel = client
        .channel(topic, { config: { private: true } })
        .on('broadcast', { event: '*' }, ({ event, payload }) => {
          const message = { event, payload: (payload ?? {}) as TeamMessage['payload'] };
          for (const l of [...entry.listeners]) l.onMessage(message);
        });
      entry.channel = channel;
      channel.subscribe((state) => {
        if (entry.channel !== channel) return;
        entry.status = state === 'SUBSCRIBED' ? 'live' : 'offline';
        for (const l of [...entry.listeners]) {
          l.onStatus?.(entry.status);
          if (entry.status === 'live') l.onJoin?.();
        }
      });
    };
    const pending = removing.get(topic);
    if (pending) void pending.finally(start);
    else start();
  }

  function close(topic: TeamTopic, entry: Shared): void {
    if (shared.get(topic) === entry) shared.delete(topic);
    const channel = entry.channel;
    entry.channel = null;
    if (!channel) return;
    const done = client.removeChannel(channel).catch(() => undefined);
    removing.set(topic, done);
    void done.finally(() => {
      if (removing.get(topic) === done) removing.delete(topic);
    });
  }

  /** Listens to a team topic until the returned function is called. */
  function listen(topic: TeamTopic, listener: TeamListener): () => void {
    let entry = shared.get(topic);
    if (!entry) {
      entry = { listeners: new Set(), status: 'connecting', channel: null, idle: undefined };
      shared.set(topic, entry);
      open(topic, entry);
    }
    clearTimeout(entry.idle);
    entry.listeners.add(listener);
    if (entry.status === 'live') {
      listener.onStatus?.('live');
      listener.onJoin?.();
    } else if (entry.status === 'offline') listener.onStatus?.('offline');
    const mine = entry;
    return () => {
      if (!mine.listeners.delete(listener) || mine.listeners.size > 0) return;
      mine.idle = setTimeout(() => {
        if (mine.listeners.size === 0) close(topic, mine);
      }, LINGER_MS);
    };
  }

  return { listen };
}

let app: ReturnType<typeof teamChannels> | null = null;

/** Listens to a team topic on the site's client until the returned function is called. */
export function listenTeam(topic: TeamTopic, listener: TeamListener): () => void {
  app ??= teamChannels(supabase);
  return app.listen(topic, listener);
}

/** Whether a campaigns/imports message concerns `id` (null ids: too many to name, so maybe). */
export function concerns(message: TeamMessage, id: string): boolean {
  const ids = message.payload.ids;
  return ids == null || ids.includes(id);
}

/** Calls `fn` once, `ms` after the last of a burst of calls; `cancel` drops a pending call. */
export function debounced(fn: () => void, ms: number): { (): void; cancel: () => void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const call = () => {
    clearTimeout(timer);
    timer = setTimeout(fn, ms);
  };
  call.cancel = () => clearTimeout(timer);
  return call;
}
