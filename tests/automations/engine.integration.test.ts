// The automation engine through the real API (issue 24): enrolment at confirmation (once, even with
// triggers at the same moment), a wait step passed by moving the database's clock, exits, pausing,
// deleting a step and a condition step — all run by process-queue with the service role's key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { clientFor, createSubscriber, mailFor, sql, waitForMail } from '../functions/kit';
import { sourceHeaders, startCampaignEmulator } from '../campaigns/kit';
import { drainAutomations, enrolmentStates, moveClock, newAutomation, newList } from './kit';

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startCampaignEmulator({ POSTBOX_SEND_RATE: 'unlimited' });
}, 120_000);
afterAll(async () => {
  await emu?.stop();
});

const THREE_DAYS = 3 * 24 * 3600;

function twoStep(list: string) {
  return newAutomation(emu, {
    trigger: { list },
    steps: [
      {
        kind: 'email',
        subject: 'Welcome {{ subscriber.first_name }}',
        body_md: 'Hello **there**.',
      },
      { kind: 'wait', wait_seconds: THREE_DAYS },
      { kind: 'email', subject: 'Day three', body_md: 'Still here, {{ subscriber.email }}?' },
    ],
  });
}

describe('a two-step automation', () => {
  it('sends the welcome at once and the second email only after the clock passes the wait', async () => {
    const list = await newList(emu, 'welcome');
    const id = await twoStep(list.slug);
    const ann = await createSubscriber(emu, { [list.slug]: 'confirmed' }, { name: 'Ann Lee' });
    await drainAutomations(emu);
    const first = await waitForMail(emu, ann.email, 1);
    expect(first[0]!.subject).toBe('Welcome Ann');
    expect(first[0]!.html).toContain('<strong>there</strong>');
    const headers = await sourceHeaders(emu, first[0]!.id);
    expect(headers['list-unsubscribe']).toContain('/unsubscribe');
    expect(headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(headers['list-id']).toBe(`<${list.slug}.127.0.0.1>`);

    await moveClock(emu, '2 days 23 hours');
    await drainAutomations(emu);
    expect(await mailFor(emu, ann.email)).toHaveLength(1);

    await moveClock(emu, '2 hours');
    await drainAutomations(emu);
    const both = await waitForMail(emu, ann.email, 2);
    expect(both.map((m) => m.subject)).toEqual(['Welcome Ann', 'Day three']);
    expect(both[1]!.text).toContain(`Still here, ${ann.email}?`);
    expect(await enrolmentStates(emu, id)).toEqual({ completed: 1 });
    const [report] = await sql(
      emu,
      `select * from public.automation_report where automation_id = $1`,
      [id],
    );
    expect(report).toMatchObject({ active: 0, completed: 1, exited: 0, sent: 2, failed: 0 });
  });

  it('enrols a double opt-in subscriber at confirmation, not at sign-up', async () => {
    const list = await newList(emu, 'double', 'double');
    const id = await twoStep(list.slug);
    const bo = await createSubscriber(emu, { [list.slug]: 'pending' });
    await drainAutomations(emu);
    expect(await enrolmentStates(emu, id)).toEqual({});
    await sql(
      emu,
      `update public.subscriptions set status = 'confirmed' where subscriber_id = $1`,
      [bo.id],
    );
    await drainAutomations(emu);
    expect(await enrolmentStates(emu, id)).toEqual({ active: 1 });
    expect((await waitForMail(emu, bo.email, 1))[0]!.subject).toBe('Welcome Test');
  });

  it('enrols each subscriber once when a confirmation and two manual enrolments come at once', async () => {
    const list = await newList(emu, 'race', 'double');
    const id = await twoStep(list.slug);
    await sql(
      emu,
      `with s as (insert into public.subscribers (email)
                  select 'race-' || i || '-' || $2 || '@example.com' from generate_series(1, 200) i returning id)
       insert into public.subscriptions (subscriber_id, list_id, status) select s.id, $1, 'pending' from s`,
      [list.id, list.slug],
    );
    const service = clientFor(emu, 'service');
    const rules = { match: 'all', rules: [{ field: 'email', op: 'starts_with', value: 'race-' }] };
    // Half confirmed first, so the manual enrolments have someone to take; then all at once.
    await sql(
      emu,
      `update public.subscriptions set status = 'confirmed'
        where list_id = $1 and subscriber_id in (select subscriber_id from public.subscriptions
                                                  where list_id = $1 order by subscriber_id limit 100)`,
      [list.id],
    );
    const [confirm, enrolA, enrolB] = await Promise.all([
      service
        .from('subscriptions')
        .update({ status: 'confirmed' })
        .eq('list_id', list.id)
        .eq('status', 'pending'),
      service.rpc('enrol_in_automation', { p_automation_id: id, p_rules: rules }),
      service.rpc('enrol_in_automation', { p_automation_id: id, p_rules: rules }),
    ]);
    expect(confirm.error).toBeNull();
    expect(enrolA.error).toBeNull();
    expect(enrolB.error).toBeNull();
    const [rows] = await sql<{ n: number; subscribers: number; rounds: number }>(
      emu,
      `select count(*)::int as n, count(distinct subscriber_id)::int as subscribers, max(round) as rounds
         from public.automation_enrolments where automation_id = $1`,
      [id],
    );
    expect(rows).toEqual({ n: 200, subscribers: 200, rounds: 1 });
    await drainAutomations(emu);
    const [sent] = await sql<{ n: number }>(
      emu,
      `select count(*)::int as n from public.automation_sends where automation_id = $1 and status = 'sent'`,
      [id],
    );
    expect(sent!.n).toBe(200);
  });
});

describe('exits, pause and edits', () => {
  it('ends enrolments on unsubscribe, blocklist and goal; the rest go on', async () => {
    const list = await newList(emu, 'exits');
    const id = await newAutomation(emu, {
      trigger: { list: list.slug },
      goal_rules: { match: 'all', rules: [{ field: 'attributes.plan', op: 'eq', value: 'paid' }] },
      steps: [
        { kind: 'wait', wait_seconds: 3600 },
        { kind: 'email', subject: 'Later', body_md: 'Later.' },
      ],
    });
    const [leaves, blocked, goal, stays] = await Promise.all(
      [0, 1, 2, 3].map(() => createSubscriber(emu, { [list.slug]: 'confirmed' })),
    );
    await sql(
      emu,
      `update public.subscriptions set status = 'unsubscribed' where subscriber_id = $1`,
      [leaves!.id],
    );
    await sql(emu, `update public.subscribers set status = 'blocklisted' where id = $1`, [
      blocked!.id,
    ]);
    await sql(emu, `update public.subscribers set attributes = '{"plan":"paid"}' where id = $1`, [
      goal!.id,
    ]);
    // Unsubscribe and blocklist end at once; the goal is checked when the next step is due.
    expect(await enrolmentStates(emu, id)).toEqual({ active: 2, exited: 2 });
    await moveClock(emu, '61 minutes');
    await drainAutomations(emu);
    const states = await sql<{ subscriber_id: string; state: string; exit_reason: string | null }>(
      emu,
      `select subscriber_id, state, exit_reason from public.automation_enrolments where automation_id = $1`,
      [id],
    );
    const by = new Map(states.map((s) => [s.subscriber_id, [s.state, s.exit_reason]]));
    expect(by.get(leaves!.id)).toEqual(['exited', 'unsubscribed']);
    expect(by.get(blocked!.id)).toEqual(['exited', 'blocklisted']);
    expect(by.get(goal!.id)).toEqual(['exited', 'goal']);
    expect(by.get(stays!.id)).toEqual(['completed', null]);
    await waitForMail(emu, stays!.email, 1);
    for (const s of [leaves!, blocked!, goal!]) expect(await mailFor(emu, s.email)).toEqual([]);
  });

  it('holds enrolments while paused; deleting the wait moves its subscribers to the next step', async () => {
    const list = await newList(emu, 'pause');
    const id = await twoStep(list.slug);
    const cy = await createSubscriber(emu, { [list.slug]: 'confirmed' });
    await drainAutomations(emu);
    await waitForMail(emu, cy.email, 1);
    await sql(emu, `update public.automations set status = 'paused' where id = $1`, [id]);
    // Deleting the wait (position 2) while paused: Cy moves on to the last email, due now.
    await sql(
      emu,
      `delete from public.automation_steps where automation_id = $1 and position = 2`,
      [id],
    );
    const [at] = await sql<{ position: number }>(
      emu,
      `select st.position from public.automation_enrolments e join public.automation_steps st on st.id = e.step_id
        where e.automation_id = $1`,
      [id],
    );
    expect(at!.position).toBe(3);
    await drainAutomations(emu);
    expect(await mailFor(emu, cy.email)).toHaveLength(1);
    expect(await enrolmentStates(emu, id)).toEqual({ active: 1 });
    await sql(emu, `update public.automations set status = 'active' where id = $1`, [id]);
    await drainAutomations(emu);
    expect((await waitForMail(emu, cy.email, 2))[1]!.subject).toBe('Day three');
  });

  it('runs tag, list and condition steps in SQL and enrols a tag trigger once', async () => {
    const list = await newList(emu, 'steps');
    const extra = await newList(emu, 'extra');
    const [tag] = await sql<{ id: string }>(
      emu,
      `insert into public.tags (name) values ('vip-' || $1) returning id`,
      [list.slug],
    );
    const tagged = await newAutomation(emu, {
      trigger: { tag: tag!.id },
      steps: [{ kind: 'email', subject: 'You are VIP', body_md: 'Yes.' }],
    });
    const id = await newAutomation(emu, {
      trigger: { list: list.slug },
      steps: [
        { kind: 'tag_add', tag_id: tag!.id },
        { kind: 'list_add', list_id: extra.id },
        {
          kind: 'condition',
          rules: { match: 'all', rules: [{ field: 'attributes.country', op: 'eq', value: 'NZ' }] },
        },
        { kind: 'email', subject: 'Kia ora', body_md: 'Hi.' },
      ],
    });
    const nz = await createSubscriber(
      emu,
      { [list.slug]: 'confirmed' },
      { attributes: { country: 'NZ' } },
    );
    const fr = await createSubscriber(
      emu,
      { [list.slug]: 'confirmed' },
      { attributes: { country: 'FR' } },
    );
    await drainAutomations(emu);
    const subjects = async (email: string) =>
      (await mailFor(emu, email)).map((m) => m.subject).sort();
    await waitForMail(emu, nz.email, 2);
    expect(await subjects(nz.email)).toEqual(['Kia ora', 'You are VIP']);
    await waitForMail(emu, fr.email, 1);
    expect(await subjects(fr.email)).toEqual(['You are VIP']);
    const [extraRows] = await sql<{ n: number }>(
      emu,
      `select count(*)::int as n from public.subscriptions where list_id = $1 and status = 'confirmed'`,
      [extra.id],
    );
    expect(extraRows!.n).toBe(2);
    expect(await enrolmentStates(emu, id)).toEqual({ completed: 1, exited: 1 });
    expect(await enrolmentStates(emu, tagged)).toEqual({ completed: 2 });
  });
});
