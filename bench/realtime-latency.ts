// Issue 3's realtime benchmark: time from a committed INSERT to its postgres_changes event arriving
// at 1, 10 and 100 subscribed supabase-js clients, on a table without RLS and on one whose SELECT
// policy (room membership) every subscriber passes.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { signJwt } from '../emulator/keys.js';
import { startTestProject } from '../emulator/test-project.js';
import { openDirect, type DirectConnection } from './direct.js';
import { measureSides } from './measure.js';
import { summarize } from './stats.js';
import type { Benchmark, BenchOptions, BenchResult, Comparison, Measurement } from './types.js';

const SIZES = [1, 10, 100];
/** A sample whose event has not reached every client by then fails the side (it is not dropped). */
const DELIVERY_TIMEOUT_MS = 15_000;
const ROOM = 1;

/** The fixture, as a migration of a throw-away project: same columns, RLS on one table only. */
export const FIXTURE_SQL = `
create table public.rt_open (
  id bigint generated always as identity primary key,
  seq int not null,
  room_id int not null,
  body text not null,
  created_at timestamptz not null default now()
);
create table public.rt_rls (
  id bigint generated always as identity primary key,
  seq int not null,
  room_id int not null,
  body text not null,
  created_at timestamptz not null default now()
);
create table public.rt_members (
  room_id int not null,
  user_id uuid not null,
  primary key (room_id, user_id)
);
alter table public.rt_rls enable row level security;
alter table public.rt_members enable row level security;
grant select on public.rt_open, public.rt_rls, public.rt_members to authenticated;
create policy "members read their room" on public.rt_rls for select to authenticated
  using (exists (select 1 from public.rt_members m
                 where m.room_id = rt_rls.room_id and m.user_id = (select auth.uid())));
create policy "members see their memberships" on public.rt_members for select to authenticated
  using (user_id = (select auth.uid()));
alter publication supabase_realtime add table public.rt_open, public.rt_rls;
`;

const SIDES = { 'no RLS': 'rt_open', RLS: 'rt_rls' } as const;
type Side = keyof typeof SIDES;

interface Pending {
  table: string;
  seq: number;
  need: number;
  arrivals: Map<number, number>;
  done: () => void;
}

type Change = { table: string; eventType: string; new: { seq?: number }; errors: unknown };

/** A signed-in user's access token, with the claims auth issues (contract §7.2). */
async function userToken(sub: string): Promise<string> {
  const iat = Math.floor(Date.now() / 1000);
  return signJwt({ sub, role: 'authenticated', aud: 'authenticated', iat, exp: iat + 3600 });
}

export interface RealtimeOptions extends BenchOptions {
  /** Subscriber counts to measure; the benchmark's are 1, 10 and 100. */
  sizes?: number[];
  /**
   * Also subscribes a signed-in user who is not in the room to the RLS table; any event reaching
   * them fails the run. For the smoke test, so the RLS side provably filters; not measured.
   */
  outsider?: boolean;
}

export async function runRealtimeLatency(options: RealtimeOptions): Promise<BenchResult> {
  const sizes = options.sizes ?? SIZES;
  const project = await startTestProject('bench-realtime', {
    'migrations/20260101000000_realtime_bench.sql': FIXTURE_SQL,
  });
  const { emu } = project;
  const backend = emu.db.kind;
  const clients: SupabaseClient[] = [];
  let direct: DirectConnection | null = null;
  try {
    direct = await openDirect(emu);
    const users = Array.from({ length: Math.max(...sizes) }, () => randomUUID());
    options.log(`backend ${backend}; ${users.length} users in room ${ROOM}`);
    for (const user of users) {
      await direct.bare('insert into public.rt_members (room_id, user_id) values ($1, $2)', [
        ROOM,
        user,
      ]);
    }
    for (const user of users) {
      // One client (and so one WebSocket) per user, as each browser tab would hold.
      const token = await userToken(user);
      const c = createClient(emu.url, emu.keys.anon, {
        // supabase-js sends this token on the socket and on every channel join.
        accessToken: async () => token,
      });
      // Resolve the token now: a join sent while the socket still fetches it would go as anon.
      await c.realtime.setAuth();
      clients.push(c);
    }

    const strays: string[] = [];
    if (options.outsider) {
      const token = await userToken(randomUUID());
      const c = createClient(emu.url, emu.keys.anon, {
        accessToken: async () => token,
      });
      await c.realtime.setAuth();
      clients.push(c); // Last, so clients.slice(0, size) never includes it.
      await new Promise<void>((resolve, reject) => {
        c.channel('bench-outsider')
          .on(
            'postgres_changes',
            { event: 'INSERT', schema: 'public', table: SIDES.RLS },
            (change) => strays.push(`outsider got ${JSON.stringify(change)}`),
          )
          .subscribe((status, err) => {
            if (status === 'SUBSCRIBED') resolve();
            else reject(new Error(`outsider: ${status} ${err?.message ?? ''}`));
          });
      });
    }

    let pending: Pending | null = null;
    const onChange = (client: number, change: Change) => {
      const arrived = performance.now();
      const p = pending;
      if (change.errors) strays.push(`client ${client}: ${JSON.stringify(change.errors)}`);
      else if (!p || change.table !== p.table || change.new.seq !== p.seq) {
        strays.push(`client ${client}: unexpected ${change.table} seq ${change.new.seq}`);
      } else if (p.arrivals.has(client)) strays.push(`client ${client}: seq ${p.seq} twice`);
      else {
        p.arrivals.set(client, arrived);
        if (p.arrivals.size === p.need) p.done();
      }
    };

    const measurements: Measurement[] = [];
    const comparisons: Comparison[] = [];
    let seq = 0;
    for (const size of sizes) {
      const label = `${size} client${size === 1 ? '' : 's'}`;
      const subscribers = clients.slice(0, size);
      await Promise.all(
        subscribers.flatMap((c, i) =>
          Object.values(SIDES).map(
            (table) =>
              new Promise<void>((resolve, reject) => {
                c.channel(`bench-${table}-${i}`)
                  .on('postgres_changes', { event: 'INSERT', schema: 'public', table }, (change) =>
                    onChange(i, change as unknown as Change),
                  )
                  .subscribe((status, err) => {
                    if (status === 'SUBSCRIBED') resolve();
                    else reject(new Error(`client ${i} ${table}: ${status} ${err?.message ?? ''}`));
                  });
              }),
          ),
        ),
      );
      options.log(`${label}: ${options.warmup} warm-up + ${options.samples} inserts per side`);

      const each: Record<Side, number[]> = { 'no RLS': [], RLS: [] };
      const last: Record<Side, number[]> = { 'no RLS': [], RLS: [] };
      const insert: Record<Side, number[]> = { 'no RLS': [], RLS: [] };
      const db = direct;
      const op = (side: Side) => async (i: number) => {
        const table = SIDES[side];
        let timer: NodeJS.Timeout | undefined;
        const p: Pending = { table, seq: ++seq, need: size, arrivals: new Map(), done: () => {} };
        const all = new Promise<void>((resolve, reject) => {
          p.done = resolve;
          timer = setTimeout(
            () =>
              reject(
                new Error(
                  `${p.arrivals.size}/${size} clients got ${table} seq ${p.seq} within ${DELIVERY_TIMEOUT_MS} ms`,
                ),
              ),
            DELIVERY_TIMEOUT_MS,
          );
        });
        pending = p;
        try {
          // The commit happens somewhere between sending the autocommitted INSERT and its answer,
          // and on native Postgres the NOTIFY often reaches the emulator (and clients) before the
          // answer reaches this process. So latency counts from sending: an upper bound of
          // commit → event, at most the INSERT's own round trip (recorded beside it) too high.
          const sent = performance.now();
          await db.bare(
            `insert into public.${table} (seq, room_id, body) values ($1, $2, 'hello room')`,
            [p.seq, ROOM],
          );
          const answered = performance.now();
          await all;
          if (i < options.warmup) return;
          insert[side].push(answered - sent);
          const times = [...p.arrivals.values()].map((t) => t - sent);
          each[side].push(...times);
          last[side].push(Math.max(...times));
        } finally {
          clearTimeout(timer);
          pending = null;
        }
      };
      const outcome = await measureSides({ 'no RLS': op('no RLS'), RLS: op('RLS') }, options);
      await Promise.all(subscribers.map((c) => c.removeAllChannels()));

      for (const side of Object.keys(SIDES) as Side[]) {
        const error = outcome[side]!.error;
        const series: [string, number[]][] = [
          [side, each[side]],
          [`${side}, last client`, last[side]],
          [`${side}, insert`, insert[side]],
        ];
        for (const [name, samples] of series) {
          measurements.push({
            case: label,
            side: name,
            stats: error ? null : summarize(samples),
            error,
          });
        }
      }
      const stat = (side: string) => measurements.find((m) => m.case === label && m.side === side);
      const [rls, open] = [stat('RLS')?.stats, stat('no RLS')?.stats];
      comparisons.push({
        case: label,
        numerator: 'RLS',
        denominator: 'no RLS',
        p50Ratio: rls && open ? rls.p50 / open.p50 : null,
        p99Ratio: rls && open ? rls.p99 / open.p99 : null,
        p50DeltaMs: rls && open ? rls.p50 - open.p50 : null,
      });
    }
    if (strays.length) {
      throw new Error(`unexpected realtime events: ${strays.slice(0, 5).join('; ')}`);
    }

    return {
      backend,
      measurements,
      comparisons,
      goals: [],
      notes: [
        'Each sample: one autocommitted INSERT by the superuser ' +
          (backend === 'pglite'
            ? 'on the emulator’s in-process PGlite'
            : 'over a pg.Client of its own to the same throw-away database') +
          '; latency = when a client’s supabase-js callback ran − when the INSERT was sent. The row commits ' +
          'before the INSERT answers, so this bounds commit → event from above by at most the INSERT’s round ' +
          'trip ("insert"); measured from the answer instead, native Postgres gives negative times (the ' +
          'NOTIFY outruns the answer to this busy process).',
        '"no RLS" / "RLS": every delivery to every client (n = inserts × clients); "last client": per insert, ' +
          'until the slowest client had it; "insert": the INSERT’s own round trip (sent → answered).',
        'Subscribers: one supabase-js 2.119 client (one WebSocket, Node’s built-in) per signed-in user, each with a ' +
          'channel per table listening for INSERT; tokens are signed as the emulator’s auth issues them.',
        'RLS: rt_rls is visible to authenticated users who are members of the row’s room (an EXISTS on ' +
          'rt_members with auth.uid()); every subscriber is a member, so every client gets every row. ' +
          'The emulator checks visibility once per subscriber and change, as walrus does.',
        'Subscribers run in the same Node process as the emulator, so decoding frames for 100 clients ' +
          'shares its event loop with delivery; the no-RLS and RLS sides are interleaved insert by insert.',
      ],
    };
  } finally {
    for (const c of clients) {
      await c.removeAllChannels().catch(() => undefined);
      c.realtime.disconnect();
    }
    await direct?.close();
    await project.stop();
  }
}

export const realtimeLatency: Benchmark = {
  name: 'realtime-latency',
  description:
    'Committed INSERT → postgres_changes event at 1, 10 and 100 supabase-js clients, without and with an RLS policy',
  defaults: { samples: 60, warmup: 5 },
  run: (options) => runRealtimeLatency(options),
};
