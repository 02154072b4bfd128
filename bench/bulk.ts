// Issue 23's benchmark: bulk actions on every subscriber matching a filter, as the subscribers page
// runs them (supabase-js with an owner's token → bulk_update_subscribers or tag_subscribers in
// batches of 5,000, under RLS, each batch writing its events set-based; the export through the
// export-subscribers function). Goal on native Postgres: 100,000 subscribers per action in under
// 10 s.
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { startEmulator, type RunningEmulator } from '../emulator/index.js';
import { exportSubscribers } from '../lib/admin/export.js';
import { runBulk, type BulkAction, type BulkOptions } from '../lib/admin/subscriber-bulk.js';
import type { RuleGroup } from '../lib/admin/subscriber-rules.js';
import { summarize } from './stats.js';
import type { Backend, Benchmark, BenchOptions, BenchResult, Measurement } from './types.js';

const GOAL_MS = 10_000;

/** An owner signed in through Auth, as the admin pages are. */
async function ownerClient(emu: RunningEmulator): Promise<SupabaseClient> {
  const email = `bench-bulk-${randomBytes(4).toString('hex')}@example.com`;
  const password = `pw-${randomBytes(8).toString('hex')}`;
  const service = createClient(emu.url, emu.keys.secret, { auth: { persistSession: false } });
  const created = await service.auth.admin.createUser({ email, password, email_confirm: true });
  if (created.error || !created.data.user) throw new Error(`createUser: ${created.error?.message}`);
  await emu.db.query(`insert into public.members (user_id, email, role) values ($1, $2, 'owner')`, [
    created.data.user.id,
    email,
  ]);
  const client = createClient(emu.url, emu.keys.publishable, { auth: { persistSession: false } });
  const signIn = await client.auth.signInWithPassword({ email, password });
  if (signIn.error) throw new Error(`signIn: ${signIn.error.message}`);
  return client;
}

/**
 * `n` subscribers confirmed on the newsletter with an attribute, plus a tenth as many others; all
 * of them pending on a private list of the run's own (what the confirm step confirms).
 */
async function fixture(emu: RunningEmulator, runId: string, n: number): Promise<void> {
  await emu.db.query(
    `insert into public.lists (slug, name, visibility) values ($1, 'Bench pending', 'private')`,
    [`bench-pending-${runId}`],
  );
  await emu.db.query(
    `with s as (
       insert into public.subscribers (email, name, attributes)
       select 'bulk-' || $1 || '-' || i || '@example.com', 'Reader ' || i,
              jsonb_build_object('plan', case when i % 10 = 0 then 'free' else 'pro' end)
         from generate_series(1, $2::int) i
       returning id)
     insert into public.subscriptions (subscriber_id, list_id, status)
     select s.id, l.id, case l.slug when 'newsletter' then 'confirmed' else 'pending' end
       from s, public.lists l where l.slug in ('newsletter', 'bench-pending-' || $1)`,
    [runId, Math.round(n * 1.1)],
  );
  for (const table of ['subscribers', 'subscriptions', 'events']) {
    await emu.db.query(`analyze public.${table}`);
  }
}

export async function runBulkBench(options: BenchOptions): Promise<BenchResult> {
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
  const runId = randomBytes(3).toString('hex');
  const measurements: Measurement[] = [];
  const notes: string[] = [];
  try {
    options.log(`fixture: ${Math.round(n * 1.1).toLocaleString('en')} subscribers`);
    await fixture(emu, runId, n);
    const client = await ownerClient(emu);
    const lists = await emu.db.query<{ id: string; slug: string }>(
      `select id, slug from public.lists where slug in ('newsletter', 'product-updates', $1)`,
      [`bench-pending-${runId}`],
    );
    const list = (slug: string) => lists.rows.find((l) => l.slug === slug)!.id;
    // Three conditions: the run's addresses, confirmed on the newsletter, plan = pro; 90 % of
    // the fixture's 110 % match, so exactly n subscribers (one in ten is on the free plan).
    const rules: RuleGroup = {
      match: 'all',
      rules: [
        { field: 'email', op: 'starts_with', value: `bulk-${runId}-` },
        {
          field: 'subscription',
          op: 'has',
          value: { list: list('newsletter'), status: 'confirmed' },
        },
        { field: 'attributes.plan', op: 'eq', value: 'pro' },
      ],
    };
    const started = performance.now();
    const count = await client.rpc('count_subscribers_matching', { p_rules: rules });
    const countMs = performance.now() - started;
    if (count.error) throw new Error(`count: ${count.error.message}`);
    measurements.push({
      case: 'count matches',
      side: 'rpc',
      stats: summarize([countMs]),
      error: null,
    });
    notes.push(`${Number(count.data).toLocaleString('en')} subscribers match the filter`);

    // Every action the subscribers page offers on a filter's matches (issue 23's list, and issue
    // 24's tags), in an order where each finds all n to change; the export after the tags.
    const steps: Array<[string, BulkAction | 'export', BulkOptions]> = [
      ['add to a list', 'add', { list: list('product-updates') }],
      ['remove from a list', 'remove', { list: list('product-updates') }],
      ['confirm pending subscriptions', 'confirm', { list: list(`bench-pending-${runId}`) }],
      ['add a tag', 'tag', { tag: `bench-${runId}` }],
      ['remove the tag', 'untag', { tag: `bench-${runId}` }],
      ['export CSV', 'export', {}],
      ['unsubscribe from the newsletter', 'unsubscribe', { list: list('newsletter') }],
      ['blocklist', 'blocklist', {}],
      ['delete (owner)', 'delete', {}],
    ];
    // After unsubscribing, "confirmed on the newsletter" no longer matches: the last two steps
    // take the run's addresses on the pro plan instead, the same subscribers.
    const after: RuleGroup = { match: 'all', rules: [rules.rules[0]!, rules.rules[2]!] };
    for (const [name, action, opts] of steps) {
      const target = action === 'blocklist' || action === 'delete' ? after : rules;
      const t0 = performance.now();
      // The export is the export-subscribers function writing the CSV to Storage, until it
      // answers the signed URL; the others the batches of runBulk, as the page runs them.
      const side = action === 'export' ? 'export-subscribers' : 'bulk_update_subscribers';
      try {
        const done =
          action === 'export'
            ? { changed: (await exportSubscribers(client, target)).rows }
            : await runBulk(client, action, target, opts);
        const ms = performance.now() - t0;
        const verb = action === 'export' ? 'written' : 'changed';
        options.log(`${name}: ${done.changed} ${verb} in ${(ms / 1000).toFixed(2)} s`);
        if (done.changed !== Number(count.data)) {
          throw new Error(`changed ${done.changed}, expected ${count.data}`);
        }
        measurements.push({
          case: name,
          side,
          stats: summarize([ms]),
          error: null,
          throughput: Math.round((done.changed / ms) * 1000),
        });
      } catch (error) {
        measurements.push({
          case: name,
          side,
          stats: null,
          error: String(error),
        });
      }
    }
    const events = await emu.db.query<{ type: string; n: number }>(
      `select type, count(*)::int as n from public.events group by type order by type`,
    );
    notes.push(`events now: ${events.rows.map((r) => `${r.type} ${r.n}`).join(', ')}`);
  } finally {
    await emu.stop();
  }
  const worst = Math.max(
    ...measurements.filter((m) => m.side !== 'rpc').map((m) => m.stats?.p50 ?? Infinity),
  );
  return {
    backend,
    measurements,
    comparisons: [],
    goals: [
      {
        goal: `each bulk action on ${n.toLocaleString('en')} matching subscribers < ${GOAL_MS / 1000} s (native Postgres)`,
        met: backend === 'postgres' && Number.isFinite(worst) ? worst < GOAL_MS : null,
        detail: Number.isFinite(worst)
          ? `slowest ${(worst / 1000).toFixed(2)} s`
          : 'an action failed',
      },
    ],
    notes,
  };
}

export const bulk: Benchmark = {
  name: 'bulk',
  description: 'bulk actions on every subscriber matching a three-condition filter (issue 23)',
  defaults: { samples: 100_000, warmup: 0 },
  run: runBulkBench,
};
