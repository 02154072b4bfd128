// Issue 24's benchmark: segments on native Postgres. Counting a three-condition segment (confirmed
// on a list AND an attribute equals a value AND signed up in the last 90 days, about 10 % of the
// subscribers) as a signed-in admin, under RLS, through count_subscribers_matching; and filling a
// campaign's queue from a segment matching 50 % (start_campaign_send, as send-campaign calls it).
// Goals with 1,000,000 subscribers: count < 1 s, queue fill < 30 s.
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { startEmulator, type RunningEmulator } from '../emulator/index.js';
import type { RuleGroup } from '../lib/admin/subscriber-rules.js';
import { summarize } from './stats.js';
import type { Backend, Benchmark, BenchOptions, BenchResult, Measurement } from './types.js';

const COUNT_GOAL_MS = 1_000;
const FILL_GOAL_MS = 30_000;

async function adminClient(emu: RunningEmulator): Promise<SupabaseClient> {
  const email = `bench-seg-${randomBytes(4).toString('hex')}@example.com`;
  const password = `pw-${randomBytes(8).toString('hex')}`;
  const service = createClient(emu.url, emu.keys.secret, { auth: { persistSession: false } });
  const created = await service.auth.admin.createUser({ email, password, email_confirm: true });
  if (created.error || !created.data.user) throw new Error(`createUser: ${created.error?.message}`);
  await emu.db.query(`insert into public.members (user_id, email, role) values ($1, $2, 'admin')`, [
    created.data.user.id,
    email,
  ]);
  const client = createClient(emu.url, emu.keys.publishable, { auth: { persistSession: false } });
  const signIn = await client.auth.signInWithPassword({ email, password });
  if (signIn.error) throw new Error(`signIn: ${signIn.error.message}`);
  return client;
}

/**
 * `n` subscribers: every second one confirmed on the newsletter; 80 % on the `pro` plan; signed
 * up spread over the last 365 days; cohort `a` for every second one by another stride. Everyone
 * is confirmed on product-updates, the campaign's list. Inserted in slices of 100,000 so no one
 * statement (and its trigger work) grows with n.
 */
async function fixture(emu: RunningEmulator, n: number, log: (m: string) => void): Promise<void> {
  const slice = 100_000;
  for (let from = 1; from <= n; from += slice) {
    const to = Math.min(n, from + slice - 1);
    await emu.db.query(
      `with s as (
         insert into public.subscribers (email, attributes, created_at)
         select 'seg-' || i || '@example.com',
                jsonb_build_object('plan', case when i % 5 = 0 then 'free' else 'pro' end,
                                   'cohort', case when (i / 3) % 2 = 0 then 'a' else 'b' end),
                now() - make_interval(days => ((i::bigint * 7919) % 365)::int, secs => i % 86400)
           from generate_series($1::int, $2::int) i
         returning id, email)
       insert into public.subscriptions (subscriber_id, list_id, status, confirmed_at)
       select s.id, l.id, 'confirmed', now() from s join public.lists l
           on l.slug = 'product-updates'
           or (l.slug = 'newsletter' and split_part(split_part(s.email, '@', 1), '-', 2)::int % 2 = 0)`,
      [from, to],
    );
    log(`fixture: ${to.toLocaleString('en')} of ${n.toLocaleString('en')}`);
  }
  for (const table of ['subscribers', 'subscriptions', 'events']) {
    await emu.db.query(`analyze public.${table}`);
  }
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of the count's query as the admin under RLS (count_subscribers_matching
 * runs it as dynamic SQL, so its plan is not in the function's) and of the fill's INSERT for a fresh
 * campaign, both rolled back; written to the log.
 */
async function explain(
  emu: RunningEmulator,
  counted: RuleGroup,
  listId: string,
  half: { id: string },
  log: (m: string) => void,
): Promise<void> {
  const rollback = new Error('rolled back');
  const plan = async (title: string, text: string, params: unknown[], setup: string[] = []) => {
    // The compiled clause's parameters are one jsonb ($1), typed as EXECUTE … USING types them.
    const sql = text.replace(/\$1(?!\d)/g, '($1::jsonb)');
    try {
      await emu.db.transaction(async (tx) => {
        for (const statement of setup) await tx.query(statement);
        const { rows } = await tx.query<{ 'QUERY PLAN': string }>(
          `explain (analyze, buffers, settings) ${sql}`,
          params,
        );
        log(`${title}:\n${rows.map((r) => r['QUERY PLAN']).join('\n')}`);
        throw rollback;
      });
    } catch (err) {
      if (err !== rollback) log(`${title}: ${(err as Error).message}`);
    }
  };
  const where = await emu.db.query<{ clause: string; params: unknown }>(
    'select clause, params::text as params from private.subscriber_rules_where($1)',
    [JSON.stringify(counted)],
  );
  const { rows: admins } = await emu.db.query<{ user_id: string }>(
    `select user_id from public.members where role = 'admin' and email like 'bench-seg-%' limit 1`,
  );
  const claims = JSON.stringify({ sub: admins[0]!.user_id, role: 'authenticated' });
  await plan(
    'count (as the admin, RLS on)',
    `select count(*) from public.subscribers s where ${where.rows[0]!.clause}`,
    [where.rows[0]!.params],
    [
      `select set_config('request.jwt.claims', '${claims.replace(/'/g, "''")}', true)`,
      'set local role authenticated',
    ],
  );
  const audience = await emu.db.query<{ clause: string; params: unknown }>(
    `select clause, params::text as params from private.audience_sql(array[$1::uuid], '{}'::uuid[])`,
    [half.id],
  );
  await plan(
    'fill (the INSERT of start_campaign_send, for a fresh campaign)',
    `with c as (insert into public.campaigns (name, subject, body_md) values ('Explain', 'Hi', 'Hi') returning id)
     insert into public.deliveries (campaign_id, subscriber_id)
     select (select id from c), r.id from (${audience.rows[0]!.clause}) r on conflict do nothing`,
    [audience.rows[0]!.params, [listId]],
  );
}

export async function runSegmentsBench(options: BenchOptions): Promise<BenchResult> {
  const emu = await startEmulator({
    memory: true,
    port: 0,
    dbPort: null,
    mailWebPort: 0,
    mailSmtpPort: 0,
    projectDir: fileURLToPath(new URL('..', import.meta.url)),
  });
  const backend: Backend = emu.db.kind;
  const n = options.samples;
  const measurements: Measurement[] = [];
  const notes: string[] = [];
  // Infinity until measured (a failed case leaves it so, and the goal says 'failed').
  const took = { count: Infinity, fill: Infinity };
  try {
    await fixture(emu, n, options.log);
    const client = await adminClient(emu);
    const lists = await emu.db.query<{ id: string; slug: string }>(
      `select id, slug from public.lists where slug in ('newsletter', 'product-updates')`,
    );
    const list = (slug: string) => lists.rows.find((l) => l.slug === slug)!.id;
    const tenth: RuleGroup = {
      match: 'all',
      rules: [
        {
          field: 'subscription',
          op: 'has',
          value: { list: list('newsletter'), status: 'confirmed' },
        },
        { field: 'attributes.plan', op: 'eq', value: 'pro' },
        { field: 'created_at', op: 'after', value: { days_ago: 90 } },
      ],
    };
    // A saved segment, counted as the editor and the subscribers filter do ({segment in}).
    const saved = await client
      .from('segments')
      .insert({ name: `Ten percent ${randomBytes(3).toString('hex')}`, rules: tenth })
      .select('id')
      .single();
    if (saved.error) throw new Error(`segment: ${saved.error.message}`);
    const byId: RuleGroup = {
      match: 'all',
      rules: [{ field: 'segment', op: 'in', value: (saved.data as { id: string }).id }],
    };
    const times: number[] = [];
    let matched = 0;
    for (let i = 0; i < options.warmup + 3; i++) {
      const t0 = performance.now();
      const count = await client.rpc('count_subscribers_matching', { p_rules: byId });
      const ms = performance.now() - t0;
      if (count.error) throw new Error(`count: ${count.error.message}`);
      matched = Number(count.data);
      if (i >= options.warmup) times.push(ms);
    }
    const countStats = summarize(times);
    took.count = countStats.p50;
    measurements.push({
      case: 'count a 3-condition segment',
      side: 'rpc',
      stats: countStats,
      error: null,
    });
    notes.push(
      `the segment matches ${matched.toLocaleString('en')} of ${n.toLocaleString('en')} (${((matched / n) * 100).toFixed(1)} %)`,
    );

    const half = await client
      .from('segments')
      .insert({
        name: `Half ${randomBytes(3).toString('hex')}`,
        rules: { match: 'all', rules: [{ field: 'attributes.cohort', op: 'eq', value: 'a' }] },
      })
      .select('id')
      .single();
    if (half.error) throw new Error(`segment: ${half.error.message}`);
    const campaign = await emu.db.query<{ id: string }>(
      `insert into public.campaigns (name, subject, body_md) values ('Segment bench', 'Hi', 'Hi') returning id`,
    );
    const campaignId = campaign.rows[0]!.id;
    await emu.db.query(
      `insert into public.campaign_lists (campaign_id, list_id) values ($1, $2);`,
      [campaignId, list('product-updates')],
    );
    await emu.db.query(
      `insert into public.campaign_segments (campaign_id, segment_id, mode) values ($1, $2, 'include')`,
      [campaignId, (half.data as { id: string }).id],
    );
    // As send-campaign calls it: the rendered HTML and the body and subject it rendered from.
    const t0 = performance.now();
    const filled = await emu.db.query<{ n: number }>(
      `select public.start_campaign_send($1, '<p>Hi</p>', 'Hi', 'Hi') as n`,
      [campaignId],
    );
    took.fill = performance.now() - t0;
    measurements.push({
      case: 'fill the queue from a 50 % segment',
      side: 'start_campaign_send',
      stats: summarize([took.fill]),
      error: null,
      throughput: Math.round((Number(filled.rows[0]!.n) / took.fill) * 1000),
    });
    notes.push(`the queue holds ${Number(filled.rows[0]!.n).toLocaleString('en')} deliveries`);
    // After measuring, for the log only: where each statement's time goes.
    if (process.env.BENCH_SEGMENTS_EXPLAIN !== 'off')
      await explain(
        emu,
        byId,
        list('product-updates'),
        half.data as { id: string },
        options.log,
      ).catch((err: unknown) => options.log(`explain failed: ${(err as Error).message}`));
  } finally {
    await emu.stop();
  }
  const judged = backend === 'postgres';
  const countMs = took.count;
  const fillMs = took.fill;
  return {
    backend,
    measurements,
    comparisons: [],
    goals: [
      {
        goal: `count a 3-condition segment: ${n.toLocaleString('en')} subscribers < ${COUNT_GOAL_MS / 1000} s (native Postgres)`,
        met: judged && Number.isFinite(countMs) ? countMs < COUNT_GOAL_MS : null,
        detail: Number.isFinite(countMs) ? `p50 ${(countMs / 1000).toFixed(2)} s` : 'failed',
      },
      {
        goal: `fill the queue from a 50 % segment: ${n.toLocaleString('en')} subscribers < ${FILL_GOAL_MS / 1000} s (native Postgres)`,
        met: judged && Number.isFinite(fillMs) ? fillMs < FILL_GOAL_MS : null,
        detail: Number.isFinite(fillMs) ? `${(fillMs / 1000).toFixed(2)} s` : 'failed',
      },
    ],
    notes,
  };
}

export const segments: Benchmark = {
  name: 'segments',
  description: 'count a 3-condition segment and fill a queue from a 50 % segment (issue 24)',
  defaults: { samples: 1_000_000, warmup: 1 },
  run: runSegmentsBench,
};
