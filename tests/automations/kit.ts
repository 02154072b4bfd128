// Test kit for automations (issue 24): automations with steps made in SQL, the engine's clock moved
// through the service role's API, process-queue run until nothing is due, and enrolment states.
import type { RunningEmulator } from '../../emulator/index';
import { clientFor, sql } from '../functions/kit';
import { processQueue } from '../campaigns/kit';

export interface StepSpec {
  kind: 'email' | 'wait' | 'condition' | 'tag_add' | 'tag_remove' | 'list_add' | 'list_remove';
  subject?: string;
  body_md?: string;
  wait_seconds?: number;
  wait_weekday?: number;
  wait_hour?: number;
  rules?: unknown;
  tag_id?: string;
  list_id?: string;
}

export interface AutomationSpec {
  name?: string;
  status?: 'draft' | 'active' | 'paused';
  trigger: { list: string } | { tag: string } | 'manual';
  goal_rules?: unknown;
  re_entry?: boolean;
  steps: StepSpec[];
}

/** An automation with its steps (positions 1, 2, …), started when `status` is active (default). */
export async function newAutomation(emu: RunningEmulator, spec: AutomationSpec): Promise<string> {
  const trigger = spec.trigger;
  const [row] = await sql<{ id: string }>(
    emu,
    `insert into public.automations (name, trigger_kind, trigger_list_id, trigger_tag_id, goal_rules, re_entry)
     values ($1, $2, (select id from public.lists where slug = $3), $4, $5, $6) returning id`,
    [
      spec.name ?? 'Test automation',
      trigger === 'manual' ? 'manual' : 'list' in trigger ? 'list' : 'tag',
      typeof trigger === 'object' && 'list' in trigger ? trigger.list : null,
      typeof trigger === 'object' && 'tag' in trigger ? trigger.tag : null,
      spec.goal_rules === undefined ? null : JSON.stringify(spec.goal_rules),
      spec.re_entry ?? false,
    ],
  );
  const id = row!.id;
  let position = 0;
  for (const step of spec.steps) {
    position += 1;
    await sql(
      emu,
      `insert into public.automation_steps (automation_id, position, kind, subject, body_md,
         wait_seconds, wait_weekday, wait_hour, rules, tag_id, list_id)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        id,
        position,
        step.kind,
        step.subject ?? null,
        step.body_md ?? null,
        step.wait_seconds ?? null,
        step.wait_weekday ?? null,
        step.wait_hour ?? null,
        step.rules === undefined ? null : JSON.stringify(step.rules),
        step.tag_id ?? null,
        step.list_id ?? null,
      ],
    );
  }
  const status = spec.status ?? 'active';
  if (status !== 'draft')
    await sql(emu, `update public.automations set status = $2 where id = $1`, [id, status]);
  return id;
}

/** Moves the engine's clock (postbox_now) forward through the API, as the service role. */
export async function moveClock(emu: RunningEmulator, by: string): Promise<void> {
  const { error } = await clientFor(emu, 'service').rpc('move_clock', { p_by: by });
  if (error) throw new Error(`move_clock: ${error.message}`);
}

/** Runs process-queue until a run finds nothing to advance or send. */
export async function drainAutomations(emu: RunningEmulator, maxRuns = 50): Promise<void> {
  for (let i = 0; i < maxRuns; i++) {
    const run = await processQueue(emu, { budget_ms: 10_000 });
    if (run.status !== 200) throw new Error(`process-queue ${run.status}: ${run.text}`);
    // The answer names automation counts only when the run advanced or claimed any.
    if (!run.body.automations) return;
  }
  throw new Error('the automation queue did not drain');
}

/** Enrolment states of an automation, e.g. {active: 2, exited: 1}. */
export async function enrolmentStates(
  emu: RunningEmulator,
  automationId: string,
): Promise<Record<string, number>> {
  const rows = await sql<{ state: string; n: number }>(
    emu,
    `select state, count(*)::int as n from public.automation_enrolments where automation_id = $1 group by state`,
    [automationId],
  );
  return Object.fromEntries(rows.map((r) => [r.state, r.n]));
}

/** A list with this slug-prefix and opt-in; answers its slug and id. */
export async function newList(
  emu: RunningEmulator,
  prefix: string,
  optin: 'single' | 'double' = 'single',
): Promise<{ slug: string; id: string }> {
  const slug = `${prefix}-${Math.random().toString(36).slice(2, 8)}`;
  const [row] = await sql<{ id: string }>(
    emu,
    `insert into public.lists (slug, name, optin) values ($1, $1, $2) returning id`,
    [slug, optin],
  );
  return { slug, id: row!.id };
}
