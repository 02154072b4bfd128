// Issue 24's automation benchmark: N enrolments due at once (one email step) sent through
// process-queue into the SMTP sink, against a campaign to N measured in the same run (rate limit
// off). Goal: automations at ≥ 90 % of the campaign send rate. Run on its own, e.g.
//   npx tsx bench/automations.ts 2000            (PGlite; the figure is 100000, on native)
//   DATABASE_URL=postgres://… npx tsx bench/automations.ts 100000
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { startEmulator, type RunningEmulator } from '../emulator/index.js';
import { sendCampaign } from './send.js';
import { startSink, type SmtpSink } from './smtp-sink.js';

const GOAL_SHARE = 0.9;
const WORKERS = 4;

async function processQueue(emu: RunningEmulator): Promise<void> {
  const res = await fetch(`${emu.url}/functions/v1/process-queue`, {
    method: 'POST',
    headers: {
      apikey: emu.keys.serviceRole,
      Authorization: `Bearer ${emu.keys.serviceRole}`,
      'Content-Type': 'application/json',
    },
    body: '{}',
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`process-queue answered ${res.status}: ${text}`);
}

/** An active automation with one email step on a new list, then `count` subscribers confirmed on it at once. */
async function sendAutomation(emu: RunningEmulator, sink: SmtpSink, count: number) {
  const tag = `auto-${Math.random().toString(36).slice(2, 8)}`;
  const { rows } = await emu.db.query<{ id: string }>(
    `with l as (insert into public.lists (slug, name, optin) values ($1, $1, 'single') returning id),
          a as (insert into public.automations (name, trigger_kind, trigger_list_id)
                select $1, 'list', id from l returning id),
          st as (insert into public.automation_steps (automation_id, position, kind, subject, body_md)
                 select id, 1, 'email', 'Welcome {{ subscriber.name }}', 'Hello **there**.' from a)
     select id from a`,
    [tag],
  );
  const id = rows[0]!.id;
  await emu.db.query(`update public.automations set status = 'active' where id = $1`, [id]);
  await emu.db.query(
    `with s as (insert into public.subscribers (email, name)
                select $2 || '-' || i || '@example.com', 'Reader ' || i from generate_series(1, $3::int) i
                returning id)
     insert into public.subscriptions (subscriber_id, list_id, status)
     select s.id, (select id from public.lists where slug = $1), 'confirmed' from s`,
    [tag, tag, count],
  );
  await sink.stats({ reset: true });
  const started = performance.now();
  const runs = Array.from({ length: WORKERS }, () => processQueue(emu).catch(String));
  for (;;) {
    const { rows: done } = await emu.db.query<{ n: number }>(
      `select count(*)::int as n from public.automation_enrolments where automation_id = $1 and state = 'completed'`,
      [id],
    );
    if (done[0]!.n === count) break;
    if (performance.now() - started > Math.max(120_000, count * 20))
      throw new Error(`automation of ${count} not done in time`);
    // Runs continue themselves at 500 messages; one more now and then stands in for pg_cron.
    if (Math.random() < 0.05) void processQueue(emu).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 100));
  }
  const ms = performance.now() - started;
  await Promise.all(runs);
  const got = await sink.stats({ reset: true });
  if (got.messages !== count || got.duplicates)
    throw new Error(`not exactly once: sink ${got.messages} messages, ${got.duplicates} twice`);
  return { ms, rate: (count / ms) * 1000 };
}

async function main() {
  const count = Number(process.argv[2] ?? 2000);
  const sink = await startSink();
  process.env.POSTBOX_SEND_RATE = 'unlimited';
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
    // Warm-up: Deno compiles the send path and the SMTP pool connects.
    await sendCampaign(emu, sink, Math.min(500, count), WORKERS);
    await sendAutomation(emu, sink, Math.min(500, count));
    const campaign = await sendCampaign(emu, sink, count, WORKERS);
    const campaignRate = (count / campaign.ms) * 1000;
    const automation = await sendAutomation(emu, sink, count);
    const share = automation.rate / campaignRate;
    console.log(
      JSON.stringify(
        {
          backend: process.env.DATABASE_URL ? 'postgres' : 'pglite',
          count,
          campaign_per_second: Math.round(campaignRate * 10) / 10,
          automation_per_second: Math.round(automation.rate * 10) / 10,
          share: Math.round(share * 1000) / 1000,
          goal: `automations at ≥ ${GOAL_SHARE * 100} % of the campaign rate`,
          met: share >= GOAL_SHARE,
        },
        null,
        2,
      ),
    );
  } finally {
    await emu.stop();
    await sink.stop();
  }
}

void main().catch((error) => {
  console.error(error);
  process.exit(1);
});
