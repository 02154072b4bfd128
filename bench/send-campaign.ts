// One campaign sent through process-queue for the send benchmark (bench/send.ts) and the
// automations benchmark: its list and draft prepared the same way for every send, the runs started,
// timed until the campaign is sent, and checked to have reached every recipient exactly once.
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { RunningEmulator } from '../emulator/index.js';
import { functionCpuMs, PLAIN_BODY, type CampaignBody } from './send-bodies.js';
import type { SinkStats, SmtpSink } from './smtp-sink.js';

/** An error's message, with fetch()'s hidden `cause` (why the connection failed). */
export const errorText = (err: unknown): string => {
  if (!(err instanceof Error)) return String(err);
  // fetch() hides why the connection failed in `cause`.
  const cause = (err as { cause?: unknown }).cause;
  return cause ? `${err.message} (${errorText(cause)})` : err.message;
};

/**
 * A list of `count` confirmed subscribers (every other one named, as a real list is) and a draft
 * campaign of `body` to it. Workers compile body_md (issue 21). The names are "Reader <i>", so every
 * named reader's first name is "Reader"; `BENCH_SEND_NAMES=distinct` makes them "Reader<i> Smith",
 * a first name of their own, as a real list has (a personalised subject then differs per reader).
 */
async function preparedCampaign(
  emu: RunningEmulator,
  tag: string,
  count: number,
  body: CampaignBody,
): Promise<string> {
  const slug = `${tag}-list`;
  await emu.db.query(
    `with l as (insert into public.lists (slug, name, optin) values ($1, $1, 'single') returning id),
          s as (insert into public.subscribers (email, name)
                select $2 || '-' || i || '@example.com', case when i % 2 = 0 then
                  case when $4 then 'Reader' || i || ' Smith' else 'Reader ' || i end end
                from generate_series(1, $3::int) i returning id)
     insert into public.subscriptions (subscriber_id, list_id, status)
     select s.id, l.id, 'confirmed' from s cross join l`,
    [slug, tag, count, process.env.BENCH_SEND_NAMES === 'distinct'],
  );
  const { rows } = await emu.db.query<{ id: string }>(
    `insert into public.campaigns (name, subject, body_md) values ($1, $2, $3) returning id`,
    [tag, body.subject, body.body_md],
  );
  const id = rows[0]!.id;
  await emu.db.query(
    `insert into public.campaign_lists (campaign_id, list_id) select $1, id from public.lists where slug = $2`,
    [id, slug],
  );
  // Every send starts from the same state: the tables the worker's queries read vacuumed and
  // analysed after this fixture's inserts and the previous sends' updates, so neither side runs on
  // stale planner statistics or meets autovacuum catching up half-way (issue 21).
  if (process.env.BENCH_SEND_VACUUM !== 'off')
    await emu.db.query(
      'vacuum (analyze) public.deliveries, public.subscribers, public.subscriptions, public.campaigns',
    );
  return id;
}

/** Queues the campaign's deliveries: from here any process-queue run (pg_cron's too) may send. */
async function startSend(emu: RunningEmulator, id: string, body: CampaignBody): Promise<void> {
  // The archive's copy is not what is measured: the workers render every message from body_md.
  await emu.db.query('select public.start_campaign_send($1, $2, $3, $4)', [
    id,
    '',
    body.body_md,
    body.subject,
  ]);
}

/** One process-queue run with `body`, as pg_cron starts it; resolves to its JSON answer. */
export async function processQueue(
  emu: RunningEmulator,
  body: Record<string, unknown> = {},
  attempt = 1,
): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(`${emu.url}/functions/v1/process-queue`, {
      method: 'POST',
      headers: {
        apikey: emu.keys.serviceRole,
        Authorization: `Bearer ${emu.keys.serviceRole}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify(body),
    });
  } catch (err) {
    // A kept-alive socket the server closed while idle (between cases) fails the request before it
    // is sent; one more run is harmless, so try once more on a fresh connection.
    if (attempt === 1) return processQueue(emu, body, 2);
    throw err;
  }
  const text = await res.text();
  if (res.status !== 200) throw new Error(`process-queue answered ${res.status}: ${text}`);
  return JSON.parse(text);
}

export interface SendRun {
  ms: number;
  sink: SinkStats;
  /** Deliveries by status when the campaign was done. */
  deliveries: Record<string, number>;
  /** Errors of the first runs, if any failed. */
  failedRuns: string[];
  /** CPU milliseconds the process-queue Deno processes used per message, when /proc tells. */
  cpuMsPerMessage: number | null;
  /** Seconds from the first POST until the first, 10th, 50th, 90th percentile and last sent_at. */
  timeline: number[];
  /** The 1-minute load average when the send ended. */
  load: number;
}

/**
 * Sends a campaign to `count` new subscribers: `workers` process-queue runs at once (they continue
 * themselves; pg_cron adds one every 10 s), timed until the campaign is `sent`.
 */
export async function sendCampaign(
  emu: RunningEmulator,
  sink: SmtpSink,
  count: number,
  workers: number,
  body: CampaignBody = PLAIN_BODY,
): Promise<SendRun> {
  const tag = `send-${randomBytes(3).toString('hex')}`;
  const id = await preparedCampaign(emu, tag, count, body);
  // The sink is reset before the deliveries are queued: a run still alive from the last send, or
  // pg_cron's, may start on them at once.
  await sink.stats({ reset: true });
  const cpuBefore = await functionCpuMs('process-queue');
  await startSend(emu, id, body);
  const { rows: clock } = await emu.db.query<{ t: Date }>('select clock_timestamp() as t');
  const started = performance.now();
  const timeoutMs = Math.max(120_000, count * 20);
  // A run that fails is reported, not fatal: the others, their successors and pg_cron carry on.
  const runs = Array.from({ length: workers }, () => processQueue(emu).then(() => null, errorText));
  for (;;) {
    const { rows } = await emu.db.query<{ status: string }>(
      'select status from public.campaigns where id = $1',
      [id],
    );
    if (rows[0]!.status === 'sent') break;
    if (performance.now() - started > timeoutMs)
      throw new Error(`campaign of ${count} not sent after ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const ms = performance.now() - started;
  const failedRuns = (await Promise.all(runs)).filter((e) => e !== null);
  const cpuAfter = await functionCpuMs('process-queue');
  const cpuMsPerMessage =
    cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) / count;
  const got = await sink.stats({ reset: true, addresses: count <= 20_000 });
  const { rows } = await emu.db.query<{ status: string; n: number }>(
    'select status, count(*)::int as n from public.deliveries where campaign_id = $1 group by status',
    [id],
  );
  const deliveries = Object.fromEntries(rows.map((r) => [r.status, r.n]));
  // When the messages went out (deliveries.sent_at): a slow start or tail against a steady rate.
  const { rows: spread } = await emu.db.query<{ s: number[] }>(
    `select array[min(t), percentile_cont(0.1) within group (order by t),
                  percentile_cont(0.5) within group (order by t),
                  percentile_cont(0.9) within group (order by t), max(t)]::float8[] as s
       from (select extract(epoch from sent_at - $2::timestamptz) as t
               from public.deliveries where campaign_id = $1 and sent_at is not null) d`,
    [id, clock[0]!.t],
  );
  const timeline = (spread[0]?.s ?? []).map((t) => Math.round(Number(t) * 100) / 100);
  if (deliveries.sent !== count || got.messages !== count || got.recipients !== count)
    throw new Error(
      `not exactly once: ${JSON.stringify(deliveries)}, sink ${got.messages} messages to ${got.recipients} addresses`,
    );
  if (got.duplicates) throw new Error(`${got.duplicates} recipients got more than one message`);
  if (got.addresses?.some(([address]) => !address.startsWith(`${tag}-`)))
    throw new Error('the sink received mail for someone outside the campaign');
  return {
    ms,
    sink: { ...got, addresses: undefined },
    deliveries,
    failedRuns,
    cpuMsPerMessage,
    timeline,
    load: Math.round(loadavg()[0]! * 10) / 10,
  };
}
