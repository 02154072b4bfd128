// Row-level security on automations with real tokens (issue 24): viewers read; editors write drafts
// and paused automations and their steps but cannot start one; admins and owners do all; the
// engine's functions and the clock belong to the service role; anon and strangers see nothing.
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { clientFor, signedInClient, sql, startFunctionsEmulator } from '../functions/kit';
import { newAutomation, newList } from './kit';

let emu: RunningEmulator;
const as: Record<string, SupabaseClient> = {};
let listSlug: string;

beforeAll(async () => {
  emu = await startFunctionsEmulator();
  for (const role of ['viewer', 'editor', 'admin', 'owner'] as const)
    as[role] = await signedInClient(emu, role);
  as.stranger = await signedInClient(emu, null);
  as.anon = clientFor(emu, 'publishable');
  listSlug = (await newList(emu, 'rls')).slug;
}, 120_000);
afterAll(async () => {
  await emu?.stop();
});

const email = { kind: 'email', subject: 'Hi', body_md: 'Hello.' } as const;

async function automation(status: 'draft' | 'active' | 'paused'): Promise<string> {
  return newAutomation(emu, { status, trigger: { list: listSlug }, steps: [email] });
}

describe('reading', () => {
  it('members read automations, steps, enrolments, sends and reports; others read nothing', async () => {
    const id = await automation('active');
    for (const role of ['viewer', 'editor', 'admin', 'owner']) {
      for (const table of [
        'automations',
        'automation_steps',
        'automation_report',
        'automation_step_report',
      ]) {
        const column = table === 'automations' ? 'id' : 'automation_id';
        const { data, error } = await as[role]!.from(table).select('*').eq(column, id);
        expect(error, `${role} ${table}`).toBeNull();
        expect(data, `${role} ${table}`).toHaveLength(1);
      }
      for (const table of ['automation_enrolments', 'automation_sends']) {
        const { error } = await as[role]!.from(table).select('*').limit(1);
        expect(error, `${role} ${table}`).toBeNull();
      }
    }
    for (const who of ['stranger', 'anon']) {
      const { data } = await as[who]!.from('automations').select('*');
      expect(data ?? [], who).toEqual([]);
      const steps = await as[who]!.from('automation_steps').select('*');
      expect(steps.data ?? [], who).toEqual([]);
    }
  });
});

describe('writing', () => {
  it('viewers write nothing', async () => {
    const insert = await as
      .viewer!.from('automations')
      .insert({ name: 'No', trigger_kind: 'manual' });
    expect(insert.error?.code).toBe('42501');
    const id = await automation('draft');
    const update = await as
      .viewer!.from('automations')
      .update({ name: 'Renamed' })
      .eq('id', id)
      .select();
    expect(update.data).toEqual([]);
  });

  it('editors write drafts and paused ones and their steps, but not active ones, and cannot start one', async () => {
    const created = await as
      .editor!.from('automations')
      .insert({ name: 'Editor draft', trigger_kind: 'manual' })
      .select('id')
      .single();
    expect(created.error).toBeNull();
    const id = created.data!.id as string;
    const step = await as
      .editor!.from('automation_steps')
      .insert({ automation_id: id, position: 1, ...email })
      .select('id')
      .single();
    expect(step.error).toBeNull();
    const start = await as
      .editor!.from('automations')
      .update({ status: 'active' })
      .eq('id', id)
      .select();
    expect(start.error?.code).toBe('42501');

    const activeInsert = await as
      .editor!.from('automations')
      .insert({ name: 'Live', trigger_kind: 'manual', status: 'active' });
    // Nobody inserts one active (it has no steps yet); an editor cannot even try.
    expect(activeInsert.error).not.toBeNull();

    const active = await automation('active');
    const renamed = await as
      .editor!.from('automations')
      .update({ name: 'X' })
      .eq('id', active)
      .select();
    expect(renamed.data).toEqual([]);
    const stepOfActive = await as
      .editor!.from('automation_steps')
      .insert({ automation_id: active, position: 2, ...email });
    expect(stepOfActive.error?.code).toBe('42501');
    const deleted = await as.editor!.from('automations').delete().eq('id', active).select();
    expect(deleted.data).toEqual([]);

    const paused = await automation('paused');
    const edit = await as
      .editor!.from('automation_steps')
      .update({ subject: 'Edited' })
      .eq('automation_id', paused)
      .select();
    expect(edit.error).toBeNull();
    expect(edit.data).toHaveLength(1);
    const resume = await as
      .editor!.from('automations')
      .update({ status: 'active' })
      .eq('id', paused)
      .select();
    expect(resume.error?.code).toBe('42501');
  });

  it('admins and owners start, pause, edit live automations and enrol by hand', async () => {
    for (const role of ['admin', 'owner']) {
      const id = await automation('draft');
      const start = await as[role]!.from('automations')
        .update({ status: 'active' })
        .eq('id', id)
        .select('status');
      expect(start.data, role).toEqual([{ status: 'active' }]);
      const edit = await as[role]!.from('automation_steps')
        .update({ subject: 'Live edit' })
        .eq('automation_id', id)
        .select();
      expect(edit.data, role).toHaveLength(1);
      const enrol = await as[role]!.rpc('enrol_in_automation', {
        p_automation_id: id,
        p_rules: {
          match: 'all',
          rules: [{ field: 'email', op: 'eq', value: 'nobody@example.com' }],
        },
      });
      expect(enrol.error, role).toBeNull();
      expect(enrol.data, role).toBe(0);
      const pause = await as[role]!.from('automations')
        .update({ status: 'paused' })
        .eq('id', id)
        .select('status');
      expect(pause.data, role).toEqual([{ status: 'paused' }]);
    }
  });

  it('refuses to start an automation without steps', async () => {
    const { data } = await as
      .admin!.from('automations')
      .insert({ name: 'Empty', trigger_kind: 'manual' })
      .select('id')
      .single();
    const start = await as
      .admin!.from('automations')
      .update({ status: 'active' })
      .eq('id', data!.id)
      .select();
    expect(start.error?.message).toContain('add at least one step');
  });

  it('keeps enrolment, the engine and the clock to the service role', async () => {
    const id = await automation('active');
    for (const role of ['viewer', 'editor']) {
      const enrol = await as[role]!.rpc('enrol_in_automation', {
        p_automation_id: id,
        p_rules: null,
      });
      expect(enrol.error?.message, role).toContain('forbidden');
    }
    for (const role of ['admin', 'owner', 'anon']) {
      for (const [fn, args] of [
        ['move_clock', { p_by: '1 day' }],
        ['advance_automations', {}],
        [
          'claim_automation_batch',
          { p_limit: 1, p_claim_timeout: '1 minute', p_claim_token: crypto.randomUUID() },
        ],
        ['release_automation_claims', { p_claim_token: crypto.randomUUID() }],
        ['renew_automation_claims', { p_claim_token: crypto.randomUUID() }],
        ['record_automation_sends', { p_results: [] }],
      ] as const) {
        const { error } = await as[role]!.rpc(fn, args);
        expect(error?.code, `${role} ${fn}`).toBe('42501');
      }
      const write = await as[role]!.from('automation_enrolments').insert({
        automation_id: id,
        subscriber_id: id,
        due_at: new Date().toISOString(),
      });
      expect(write.error, role).not.toBeNull();
    }
    const [clock] = await sql<{ offset_by: unknown }>(emu, `select offset_by from private.clock`);
    expect(String(clock!.offset_by)).toMatch(/^(00:00:00|0)$/);
  });
});
