// Reads and writes of automations for /admin/automations/ (issue 24), taking the client so hooks
// pass the browser's and tests a member's; plus the words the UI uses for triggers and steps.
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database, Json, Tables } from '../database.types';
import type { SupabaseResult } from '../use-query';
import { toQueryError } from '../use-query';
import { countsOf, ZERO, type Counts } from './automation-report';
import type { RuleGroup } from './subscriber-rules';

type Client = SupabaseClient<Database>;

export type AutomationRow = Tables<'automations'>;
export type StepRow = Tables<'automation_steps'>;
export type StepKind =
  'email' | 'wait' | 'condition' | 'tag_add' | 'tag_remove' | 'list_add' | 'list_remove';
export type AutomationStatus = 'draft' | 'active' | 'paused';

export type AutomationWithCounts = AutomationRow & { counts: Counts };

/** Every automation, newest first, with its enrolment and send counts. */
export async function listAutomations(
  client: Client,
): Promise<SupabaseResult<AutomationWithCounts[]>> {
  const [rows, report] = await Promise.all([
    client.from('automations').select('*').order('created_at', { ascending: false }),
    client.from('automation_report').select('*'),
  ]);
  if (rows.error) return { data: null, error: rows.error, status: rows.status };
  if (report.error) return { data: null, error: report.error, status: report.status };
  const byId = new Map((report.data ?? []).map((r) => [r.automation_id, r]));
  return {
    data: (rows.data ?? []).map((a) => {
      const r = byId.get(a.id);
      return { ...a, counts: r ? countsOf(r) : ZERO };
    }),
    error: null,
  };
}

export interface WelcomeAutomation {
  id: string;
  name: string;
  status: string;
  listName: string | null;
}

/**
 * The welcome automations (seeded per public list, issue 24), oldest first, with their list's name:
 * what Settings → Emails links to now that the welcome is edited there.
 */
export async function listWelcomeAutomations(
  client: Client,
): Promise<SupabaseResult<WelcomeAutomation[]>> {
  const { data, error, status } = await client
    .from('automations')
    .select('id, name, status, lists!automations_trigger_list_id_fkey(name)')
    .eq('welcome', true)
    .order('created_at')
    .order('id');
  if (error) return { data: null, error, status };
  return {
    data: (data ?? []).map((a) => ({
      id: a.id,
      name: a.name,
      status: a.status,
      listName: a.lists?.name ?? null,
    })),
    error: null,
  };
}

export interface AutomationDetail {
  automation: AutomationRow;
  steps: StepRow[];
}

/**
 * One automation with its steps in order; null data when it does not exist. Its numbers are the
 * report's (automation-report.ts), read and refreshed apart.
 */
export async function getAutomation(
  client: Client,
  id: string,
): Promise<SupabaseResult<AutomationDetail | null>> {
  const [row, steps] = await Promise.all([
    client.from('automations').select('*').eq('id', id).maybeSingle(),
    client.from('automation_steps').select('*').eq('automation_id', id).order('position'),
  ]);
  for (const r of [row, steps])
    if (r.error) return { data: null, error: r.error, status: r.status };
  if (!row.data) return { data: null, error: null };
  return { data: { automation: row.data, steps: steps.data ?? [] }, error: null };
}

export type WriteResult<T = null> = { ok: true; data: T } | { ok: false; message: string };

function failed<T>(error: unknown, status?: number): WriteResult<T> {
  return { ok: false, message: toQueryError(error, status).message };
}

/** The label of a seeded welcome (the list and the editor show it beside the name). */
export const WELCOME_LABEL = 'Welcome';

export async function createAutomation(client: Client, name: string): Promise<WriteResult<string>> {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > 100)
    return { ok: false, message: 'Name: must be 1 to 100 characters.' };
  const { data, error, status } = await client
    .from('automations')
    .insert({ name: trimmed, trigger_kind: 'list' })
    .select('id')
    .single();
  return error || !data ? failed(error, status) : { ok: true, data: data.id };
}

export type AutomationChanges = Database['public']['Tables']['automations']['Update'];

export async function updateAutomation(
  client: Client,
  id: string,
  changes: AutomationChanges,
): Promise<WriteResult> {
  const { data, error, status } = await client
    .from('automations')
    .update(changes)
    .eq('id', id)
    .select('id');
  if (error) return failed(error, status);
  if (!data?.length) return { ok: false, message: 'You do not have permission to do that.' };
  return { ok: true, data: null };
}

export type StepValues = Database['public']['Tables']['automation_steps']['Update'];

/** Adds a step after the last one. */
export async function addStep(
  client: Client,
  automationId: string,
  steps: Pick<StepRow, 'position'>[],
  values: StepValues & { kind: StepKind },
): Promise<WriteResult> {
  const position = steps.reduce((max, s) => Math.max(max, s.position), 0) + 1;
  const { error, status } = await client
    .from('automation_steps')
    .insert({ ...values, automation_id: automationId, position });
  return error ? failed(error, status) : { ok: true, data: null };
}

export async function updateStep(
  client: Client,
  id: string,
  values: StepValues,
): Promise<WriteResult> {
  const { data, error, status } = await client
    .from('automation_steps')
    .update(values)
    .eq('id', id)
    .select('id');
  if (error) return failed(error, status);
  if (!data?.length) return { ok: false, message: 'You do not have permission to do that.' };
  return { ok: true, data: null };
}

/** Deletes a step; whoever waits at it moves on to the next (the database does that). */
export async function deleteStep(client: Client, id: string): Promise<WriteResult> {
  const { data, error, status } = await client
    .from('automation_steps')
    .delete()
    .eq('id', id)
    .select('id');
  if (error) return failed(error, status);
  if (!data?.length) return { ok: false, message: 'You do not have permission to do that.' };
  return { ok: true, data: null };
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/**
 * "In the segment `id`" as a condition step or a goal stores it: the segment's rules are compiled
 * in place when the step is due, so editing the segment changes who continues or reaches the goal.
 */
export function segmentRules(id: string): Json {
  const group = {
    match: 'all',
    rules: [{ field: 'segment', op: 'in', value: id }],
  } satisfies RuleGroup;
  return group;
}

/** The segment a stored condition or goal names, when it is exactly "in one segment"; else null. */
export function segmentOf(rules: unknown): string | null {
  if (typeof rules !== 'object' || rules === null) return null;
  const group = rules as { match?: unknown; rules?: unknown };
  if (!Array.isArray(group.rules) || group.rules.length !== 1) return null;
  const rule = group.rules[0] as { field?: unknown; op?: unknown; value?: unknown } | null;
  return rule?.field === 'segment' && rule.op === 'in' && typeof rule.value === 'string'
    ? rule.value
    : null;
}

/** "3 days", "2 hours", "1 day 6 hours", "90 minutes". */
export function durationLabel(seconds: number): string {
  const days = Math.floor(seconds / 86400);
  const hours = Math.floor((seconds % 86400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const part = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
  const parts = [
    days ? part(days, 'day') : '',
    hours ? part(hours, 'hour') : '',
    minutes && !days ? part(minutes, 'minute') : '',
  ].filter(Boolean);
  return parts.join(' ') || part(0, 'minute');
}

/** One line saying what a step does, for the timeline. */
export function stepSummary(
  step: Pick<
    StepRow,
    | 'kind'
    | 'subject'
    | 'wait_seconds'
    | 'wait_weekday'
    | 'wait_hour'
    | 'tag_id'
    | 'list_id'
    | 'rules'
  >,
  names: {
    tags?: Map<string, string>;
    lists?: Map<string, string>;
    segments?: Map<string, string>;
  } = {},
): string {
  const tag = (step.tag_id && names.tags?.get(step.tag_id)) || 'a tag';
  const list = (step.list_id && names.lists?.get(step.list_id)) || 'a list';
  switch (step.kind) {
    case 'email':
      return `Send “${step.subject ?? ''}”`;
    case 'wait':
      if (step.wait_seconds !== null) return `Wait ${durationLabel(step.wait_seconds)}`;
      return `Wait until ${WEEKDAYS[step.wait_weekday ?? 0]} ${String(step.wait_hour ?? 0).padStart(2, '0')}:00 UTC`;
    case 'condition': {
      const segment = segmentOf(step.rules);
      const name = segment && names.segments?.get(segment);
      if (name) return `Continue only if in the segment ${name}`;
      return segment ? 'Continue only if in a segment' : 'Continue only if the rules match';
    }
    case 'tag_add':
      return `Add the tag ${tag}`;
    case 'tag_remove':
      return `Remove the tag ${tag}`;
    case 'list_add':
      return `Add to ${list}`;
    case 'list_remove':
      return `Remove from ${list}`;
    default:
      return step.kind;
  }
}

export const STEP_KINDS: { kind: StepKind; label: string }[] = [
  { kind: 'email', label: 'Send an email' },
  { kind: 'wait', label: 'Wait' },
  { kind: 'condition', label: 'Continue only if in a segment' },
  { kind: 'list_add', label: 'Add to a list' },
  { kind: 'list_remove', label: 'Remove from a list' },
  { kind: 'tag_add', label: 'Add a tag' },
  { kind: 'tag_remove', label: 'Remove a tag' },
];

/** Who may change it: admins always; editors while it is a draft or paused (the RLS rule). */
export function mayEdit(role: string, status: string): boolean {
  if (role === 'admin' || role === 'owner') return true;
  return role === 'editor' && (status === 'draft' || status === 'paused');
}
