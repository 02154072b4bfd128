// Exactly once for automations (issue 24, SPEC §9's guarantee): two email steps due for every
// subscriber at once, four process-queue runs side by side, one of them dying mid-batch; its stale
// claims come back and every subscriber gets each email once — one automation_sends row per step
// and subscriber, and one message per step in MailDev.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { sql } from '../functions/kit';
import { mailSummaries, processQueue, sleep, startCampaignEmulator } from '../campaigns/kit';
import { enrolmentStates, newAutomation, newList } from './kit';

/** Subscribers; each has two email steps due, so twice as many due steps. */
const SUBSCRIBERS = process.env.DATABASE_URL ? 1000 : 500;

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startCampaignEmulator({
    POSTBOX_SEND_RATE: 'unlimited',
    POSTBOX_CLAIM_TIMEOUT_SECONDS: '5',
    POSTBOX_QUEUE_BUDGET_MS: '20000',
  });
}, 120_000);
afterAll(async () => {
  await emu?.stop();
});

describe('four workers over automation steps, one dying mid-batch', () => {
  it(`sends each of ${SUBSCRIBERS} subscribers each of two emails once`, async () => {
    const tag = `auto${Date.now()}`;
    const list = await newList(emu, tag);
    const id = await newAutomation(emu, {
      trigger: { list: list.slug },
      steps: [
        { kind: 'email', subject: 'First', body_md: 'One.' },
        { kind: 'email', subject: 'Second', body_md: 'Two.' },
      ],
    });
    // One statement: the statement-level trigger enrols them all.
    await sql(
      emu,
      `with s as (insert into public.subscribers (email)
                  select $2 || '-' || i || '@example.com' from generate_series(1, $3::int) i returning id)
       insert into public.subscriptions (subscriber_id, list_id, status) select s.id, $1, 'confirmed' from s`,
      [list.id, tag, SUBSCRIBERS],
    );
    expect(await enrolmentStates(emu, id)).toEqual({ active: SUBSCRIBERS });

    const first = await Promise.all([
      processQueue(emu),
      processQueue(emu),
      processQueue(emu),
      processQueue(emu, { abandon_after: 30 }),
    ]);
    for (const run of first) expect(run.status, run.text).toBe(200);
    const dead = first[3]!.body.automations;
    expect(dead.claimed, JSON.stringify(first.map((r) => r.body))).toBe(100);
    expect(dead.sent).toBeGreaterThanOrEqual(30);
    expect(dead.sent).toBeLessThan(100);

    const deadline = Date.now() + 240_000;
    while ((await enrolmentStates(emu, id)).completed !== SUBSCRIBERS) {
      expect(Date.now()).toBeLessThan(deadline);
      const runs = await Promise.all(Array.from({ length: 4 }, () => processQueue(emu)));
      for (const run of runs) expect(run.status, run.text).toBe(200);
      if (runs.every((r) => (r.body.automations?.claimed ?? 0) === 0)) await sleep(1000);
    }

    const [sends] = await sql<{ n: number; messages: number }>(
      emu,
      `select count(*)::int as n, count(distinct message_id)::int as messages
         from public.automation_sends where automation_id = $1 and status = 'sent'`,
      [id],
    );
    expect(sends).toEqual({ n: 2 * SUBSCRIBERS, messages: 2 * SUBSCRIBERS });
    // The dead run's unsent rows were claimed again once stale (attempts went back to 0 on release).
    const [open] = await sql<{ n: number }>(
      emu,
      `select count(*)::int as n from public.automation_enrolments where automation_id = $1 and claim_token is not null`,
      [id],
    );
    expect(open!.n).toBe(0);

    const counts = new Map<string, number>();
    for (const mail of await mailSummaries(emu))
      for (const to of mail.to)
        if (to.address.startsWith(`${tag}-`)) {
          const k = `${to.address}/${mail.subject}`;
          counts.set(k, (counts.get(k) ?? 0) + 1);
        }
    expect(counts.size).toBe(2 * SUBSCRIBERS);
    expect([...counts.values()].filter((n) => n !== 1)).toEqual([]);
  }, 300_000);
});
