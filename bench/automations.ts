// Issue 24's automation benchmark (rate limit off, the null SMTP sink):
// - throughput: N enrolments due at once (one email step) sent through process-queue, against a
//   campaign to N measured in the same run, with the same body, the same recipients' shape and the
//   same four runs started at once. Goal: automations at ≥ 90 % of the campaign's send rate.
// - the delivery guarantee with 10,000 steps: 5,000 subscribers each due two email steps, four
//   process-queue runs at once, one dying mid-batch (the crash tests' hook, outside the relay's
//   accept window); its stale claims return and every subscriber gets each email exactly once.
//   npm run bench -- automations                 (PGlite)
//   DATABASE_URL=postgres://… npm run bench -- automations   (the figures: native Postgres)
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { startEmulator, type RunningEmulator } from '../emulator/index.js';
import { processQueue as runProcessQueue, sendCampaign } from './send-campaign.js';
import { PLAIN_BODY } from './send-bodies.js';
import { startSink, type SmtpSink } from './smtp-sink.js';
import { summarize } from './stats.js';
import type {
  Backend,
  Benchmark,
  BenchOptions,
  BenchResult,
  Comparison,
  GoalResult,
  Measurement,
} from './types.js';

const GOAL_SHARE = 0.9;
/** process-queue runs started at once, as the send benchmark does (each continues itself at 500). */
const WORKERS = 4;
/** The delivery guarantee: subscribers, each due two email steps (the 10,000 steps). */
const GUARANTEE_STEPS = 2;
const GUARANTEE_SUBSCRIBERS =
  Number(process.env.BENCH_AUTOMATIONS_GUARANTEE_STEPS ?? 10_000) / GUARANTEE_STEPS;
/** The dying run stops after recording this many sends, holding the rest of its claims. */
const ABANDON_AFTER = 30;

interface QueueAnswer {
  automations?: { claimed: number; sent: number };
}

/** One process-queue run (bench/send-campaign.ts), with what it answered. */
const processQueue = async (emu: RunningEmulator, body: Record<string, unknown> = {}) =>
  (await runProcessQueue(emu, body)) as QueueAnswer;

/** An emulator whose process-queue sends to `sink` with `env` set (Deno reads it at its start). */
async function withEmulator<T>(
  sink: SmtpSink,
  env: Record<string, string>,
  body: (emu: RunningEmulator) => Promise<T>,
): Promise<T> {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    const emu = await startEmulator({
      memory: true,
      port: 0,
      dbPort: null,
      mailWebPort: 0,
      mailSmtpPort: 0,
      functionsSmtp: { host: sink.host, port: sink.port },
      projectDir: fileURLToPath(new URL('..', import.meta.url)),
    });
    try {
      return await body(emu);
    } finally {
      await emu.stop();
    }
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/**
 * An active automation on a new single opt-in list with `steps` email steps (the send benchmark's
 * plain newsletter), then `count` subscribers confirmed on the list in one statement (every other
 * one named, as the campaign's are): the statement trigger enrols them all, due now.
 */
async function enrolled(
  emu: RunningEmulator,
  tag: string,
  count: number,
  steps: number,
): Promise<string> {
  const { rows } = await emu.db.query<{ id: string }>(
    `with l as (insert into public.lists (slug, name, optin) values ($1, $1, 'single') returning id)
     insert into public.automations (name, trigger_kind, trigger_list_id)
     select $1, 'list', id from l returning id`,
    [tag],
  );
  const id = rows[0]!.id;
  await emu.db.query(
    `insert into public.automation_steps (automation_id, position, kind, subject, body_md)
     select $1, p, 'email', $2 || case when p > 1 then ' (' || p || ')' else '' end, $3
       from generate_series(1, $4::int) p`,
    [id, PLAIN_BODY.subject, PLAIN_BODY.body_md, steps],
  );
  await emu.db.query(`update public.automations set status = 'active' where id = $1`, [id]);
  await emu.db.query(
    `with s as (insert into public.subscribers (email, name)
                select $1 || '-' || i || '@example.com', case when i % 2 = 0 then 'Reader ' || i end
                  from generate_series(1, $2::int) i
                returning id)
     insert into public.subscriptions (subscriber_id, list_id, status)
     select s.id, (select id from public.lists where slug = $1), 'confirmed' from s`,
    [tag, count],
  );
  const { rows: due } = await emu.db.query<{ n: number }>(
    `select count(*)::int as n from public.automation_enrolments
      where automation_id = $1 and state = 'active'`,
    [id],
  );
  if (due[0]!.n !== count) throw new Error(`${due[0]!.n} of ${count} enrolments due`);
  return id;
}

/** Enrolments of the automation by state. */
async function states(emu: RunningEmulator, id: string): Promise<Record<string, number>> {
  const { rows } = await emu.db.query<{ state: string; n: number }>(
    `select state, count(*)::int as n from public.automation_enrolments where automation_id = $1 group by state`,
    [id],
  );
  return Object.fromEntries(rows.map((r) => [r.state, r.n]));
}

/**
 * Sends `count` enrolments due at once: `WORKERS` runs at once (they continue themselves; the
 * emulator's pg_cron adds one every 10 s), timed until every enrolment is completed — as the
 * campaign is timed until it is `sent`. The sink is watched first (no query on the database while
 * it sends, as the campaign's watch reads one row), then the enrolments.
 */
async function sendAutomation(emu: RunningEmulator, sink: SmtpSink, count: number) {
  const tag = `auto-${randomBytes(3).toString('hex')}`;
  const id = await enrolled(emu, tag, count, 1);
  await sink.stats({ reset: true });
  const started = performance.now();
  const timeoutMs = Math.max(120_000, count * 20);
  const runs = Array.from({ length: WORKERS }, () =>
    processQueue(emu).then(
      () => null,
      (e: unknown) => String(e),
    ),
  );
  const late = () => performance.now() - started > timeoutMs;
  while ((await sink.stats()).messages < count) {
    if (late()) throw new Error(`automation of ${count} not sent after ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
  while ((await states(emu, id)).completed !== count) {
    if (late()) throw new Error(`automation of ${count} not completed after ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const ms = performance.now() - started;
  const failedRuns = (await Promise.all(runs)).filter((e) => e !== null);
  const got = await sink.stats({ reset: true, addresses: count <= 20_000 });
  const { rows } = await emu.db.query<{ n: number; messages: number }>(
    `select count(*)::int as n, count(distinct message_id)::int as messages
       from public.automation_sends where automation_id = $1 and status = 'sent'`,
    [id],
  );
  if (got.messages !== count || got.recipients !== count || got.duplicates || rows[0]!.n !== count)
    throw new Error(
      `not exactly once: ${rows[0]!.n} sends recorded, sink ${got.messages} messages to ${got.recipients} addresses, ${got.duplicates} twice`,
    );
  if (got.addresses?.some(([address]) => !address.startsWith(`${tag}-`)))
    throw new Error('the sink received mail for someone outside the automation');
  return { ms, failedRuns };
}

interface Guarantee {
  ms: number;
  steps: number;
  deadClaimed: number;
  deadSent: number;
  /** Runs it took after the first four. */
  rounds: number;
}

/**
 * SPEC §4's guarantee over `GUARANTEE_SUBSCRIBERS` × `GUARANTEE_STEPS` due steps, as
 * tests/automations/exactly-once.integration.test.ts checks it over 2,000: four runs at once, one
 * abandoning its claims after `ABANDON_AFTER` sends; then four at a time until every enrolment is
 * completed (stale claims return after the 5 s claim timeout). Each address must get each step's
 * email once: `GUARANTEE_STEPS` messages in the sink, one recorded send per step.
 */
async function deliveryGuarantee(emu: RunningEmulator, sink: SmtpSink): Promise<Guarantee> {
  const tag = `once-${randomBytes(3).toString('hex')}`;
  const n = GUARANTEE_SUBSCRIBERS;
  const steps = n * GUARANTEE_STEPS;
  const id = await enrolled(emu, tag, n, GUARANTEE_STEPS);
  await sink.stats({ reset: true });
  const started = performance.now();
  // The dying run is asked first, so it has a batch to die with; the others join at once.
  const dying = processQueue(emu, { abandon_after: ABANDON_AFTER });
  const first = await Promise.all([dying, processQueue(emu), processQueue(emu), processQueue(emu)]);
  const dead = first[0]!.automations ?? { claimed: 0, sent: 0 };
  if (dead.sent >= dead.claimed)
    throw new Error(`the dying run sent all it claimed (${JSON.stringify(dead)}): it did not die`);
  let rounds = 0;
  const deadline = started + 600_000;
  while ((await states(emu, id)).completed !== n) {
    if (performance.now() > deadline) throw new Error(`${steps} steps not done after 600 s`);
    const runs = await Promise.all(Array.from({ length: WORKERS }, () => processQueue(emu)));
    rounds += 1;
    if (runs.every((r) => (r.automations?.claimed ?? 0) === 0))
      await new Promise((r) => setTimeout(r, 1000));
  }
  const ms = performance.now() - started;
  const got = await sink.stats({ reset: true, addresses: true });
  const wrong = (got.addresses ?? []).filter(
    ([address, m]) => !address.startsWith(`${tag}-`) || m !== GUARANTEE_STEPS,
  );
  if (got.messages !== steps || got.recipients !== n || wrong.length)
    throw new Error(
      `not exactly once: sink ${got.messages} messages to ${got.recipients} addresses; ${wrong.length} addresses with another count, e.g. ${JSON.stringify(wrong.slice(0, 3))}`,
    );
  const { rows } = await emu.db.query<{
    n: number;
    messages: number;
    keys: number;
    claimed: number;
  }>(
    `select count(*)::int as n, count(distinct message_id)::int as messages,
            count(distinct (step_id, subscriber_id))::int as keys,
            (select count(*)::int from public.automation_enrolments
              where automation_id = $1 and claim_token is not null) as claimed
       from public.automation_sends where automation_id = $1 and status = 'sent'`,
    [id],
  );
  const r = rows[0]!;
  if (r.n !== steps || r.messages !== steps || r.keys !== steps || r.claimed !== 0)
    throw new Error(`not exactly once in the database: ${JSON.stringify(r)}`);
  return { ms, steps, deadClaimed: dead.claimed, deadSent: dead.sent, rounds };
}

const rate = (count: number, ms: number) => (count / ms) * 1000;

export async function runAutomationsBench(options: BenchOptions): Promise<BenchResult> {
  let backend: Backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';
  const count = options.samples;
  const warmup = Math.min(options.warmup, count);
  const measurements: Measurement[] = [];
  const goals: GoalResult[] = [];
  const notes: string[] = [];
  const comparisons: Comparison[] = [];
  const sink = await startSink();
  try {
    // Set inside the emulator's callback (an object, so TypeScript does not narrow them to null).
    const took: { campaign: number | null; automation: number | null; error: string | null } = {
      campaign: null,
      automation: null,
      error: null,
    };
    await withEmulator(sink, { POSTBOX_SEND_RATE: 'unlimited' }, async (emu) => {
      backend = emu.db.kind;
      try {
        if (warmup > 0) {
          // Deno compiles both send paths, REST prepares their statements, the SMTP pool connects.
          options.log(`warm-up: a campaign and an automation of ${warmup} each`);
          await sendCampaign(emu, sink, warmup, WORKERS, PLAIN_BODY);
          await sendAutomation(emu, sink, warmup);
        }
        options.log(`campaign to ${count.toLocaleString('en')}`);
        const campaign = await sendCampaign(emu, sink, count, WORKERS, PLAIN_BODY);
        took.campaign = campaign.ms;
        if (campaign.failedRuns.length)
          notes.push(`campaign: failed runs: ${campaign.failedRuns.join('; ')}`);
        options.log(
          `campaign: ${(campaign.ms / 1000).toFixed(1)} s; automation of ${count.toLocaleString('en')}`,
        );
        const automation = await sendAutomation(emu, sink, count);
        took.automation = automation.ms;
        if (automation.failedRuns.length)
          notes.push(`automation: failed runs: ${automation.failedRuns.join('; ')}`);
        options.log(`automation: ${(automation.ms / 1000).toFixed(1)} s`);
      } catch (err) {
        took.error = (err as Error).message;
        options.log(`throughput failed: ${took.error}`);
      }
    });
    const caseName = `${count.toLocaleString('en')} due at once`;
    const side = (label: string, ms: number | null): Measurement => ({
      case: caseName,
      side: label,
      stats: ms === null ? null : summarize([ms]),
      error: ms === null ? (took.error ?? 'not measured') : null,
      throughput: ms === null ? null : Math.round(rate(count, ms) * 10) / 10,
    });
    measurements.push(side('campaign', took.campaign), side('automation', took.automation));
    const share =
      took.campaign === null || took.automation === null ? null : took.campaign / took.automation;
    if (took.campaign !== null && took.automation !== null)
      comparisons.push({
        case: caseName,
        numerator: 'automation',
        denominator: 'campaign',
        p50Ratio: took.automation / took.campaign,
        p99Ratio: took.automation / took.campaign,
        p50DeltaMs: took.automation - took.campaign,
      });
    goals.push({
      goal: `${caseName}: automation sends at ≥ ${GOAL_SHARE * 100} % of the campaign send rate (rate limit off)`,
      met: share === null ? null : share >= GOAL_SHARE,
      detail: share === null ? (took.error ?? 'failed') : `${(share * 100).toFixed(1)} %`,
    });
    notes.push(
      `same run, same emulator: a campaign to ${count.toLocaleString('en')} and then an automation enrolling ${count.toLocaleString('en')} (one email step), each after a warm-up of ${warmup}; both the send benchmark's plain newsletter, every other recipient named, ${WORKERS} process-queue runs started at once`,
    );

    options.log(
      `delivery guarantee: ${(GUARANTEE_SUBSCRIBERS * GUARANTEE_STEPS).toLocaleString('en')} steps, one run dying`,
    );
    const checked: { guarantee: Guarantee | null; error: string | null } = {
      guarantee: null,
      error: null,
    };
    await withEmulator(
      sink,
      {
        POSTBOX_SEND_RATE: 'unlimited',
        POSTBOX_QUEUE_TEST_HOOKS: 'on',
        POSTBOX_CLAIM_TIMEOUT_SECONDS: '5',
        POSTBOX_QUEUE_BUDGET_MS: '20000',
      },
      async (emu) => {
        try {
          checked.guarantee = await deliveryGuarantee(emu, sink);
        } catch (err) {
          checked.error = (err as Error).message;
        }
      },
    );
    const g = checked.guarantee;
    const guaranteeError = checked.error;
    const guaranteeCase = `delivery guarantee, ${(GUARANTEE_SUBSCRIBERS * GUARANTEE_STEPS).toLocaleString('en')} steps`;
    measurements.push({
      case: guaranteeCase,
      side: 'automation',
      stats: g ? summarize([g.ms]) : null,
      error: g ? null : guaranteeError,
      throughput: g ? Math.round(rate(g.steps, g.ms) * 10) / 10 : null,
    });
    goals.push({
      goal: `${guaranteeCase}: ${WORKERS} runs, one dying mid-batch, each email sent once`,
      met: g ? true : guaranteeError ? false : null,
      detail: g
        ? `every one of ${GUARANTEE_SUBSCRIBERS.toLocaleString('en')} subscribers got each of ${GUARANTEE_STEPS} emails once; the dying run claimed ${g.deadClaimed} and sent ${g.deadSent}; ${g.rounds} rounds of ${WORKERS} runs after the first`
        : (guaranteeError ?? 'failed'),
    });
  } finally {
    await sink.stop();
  }
  return { backend, measurements, comparisons, goals, notes };
}

export const automations: Benchmark = {
  name: 'automations',
  description: 'automation sends vs a campaign in the same run; the delivery guarantee (issue 24)',
  // samples: enrolments (and campaign recipients); warmup: each side's unmeasured first send.
  defaults: { samples: 100_000, warmup: 2_000 },
  run: runAutomationsBench,
};
