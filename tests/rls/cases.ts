// Runs one table cell of the RLS matrix: the caller's request through supabase-js, the wire answer
// PostgREST gives, and for writes a service-role re-read proving what did or did not change.
import type { PostgrestError } from '@supabase/supabase-js';
import { expect } from 'vitest';
import type { Outcome, TableOp } from './matrix';
import type { Key, Probe } from './probe-types';
import { untyped, type Actor, type Team } from './team-kit';

export interface Answer {
  status: number;
  error: PostgrestError | null;
}

/**
 * A 42501 refusal. PostgREST answers 401 when the request ran as the anon role and 403 otherwise
 * (Error.hs: `if authed then status403 else status401`, authed = role /= db-anon-role).
 */
export function expectRefused(
  answer: Answer,
  actor: Actor,
  outcome: Outcome,
  object: string,
  kind: 'table' | 'function' = 'table',
): void {
  expect(answer.status).toBe(actor === 'anon' ? 401 : 403);
  expect(answer.error?.code).toBe('42501');
  expect(answer.error?.message).toBe(
    outcome === 'rls'
      ? `new row violates row-level security policy for table "${object}"`
      : `permission denied for ${kind} ${object}`,
  );
}

async function serviceRead(team: Team, probe: Probe, key: Key) {
  const { data, error } = await untyped(team.service).from(probe.table).select('*').match(key);
  if (error) throw new Error(`service read ${probe.table}: ${error.message}`);
  return data as Record<string, unknown>[];
}

async function selectCase(team: Team, probe: Probe, actor: Actor, outcome: Outcome) {
  const db = untyped(team.client(actor));
  if (outcome === 'public') {
    if (!probe.checkPublic) throw new Error(`${probe.table} has no public view`);
    return probe.checkPublic(db, actor);
  }
  const key = await probe.seed();
  const answer = await db.from(probe.table).select(probe.columns).match(key);
  if (outcome === 'no-grant') return expectRefused(answer, actor, outcome, probe.table);
  expect(answer.error).toBeNull();
  expect(answer.status).toBe(200);
  if (outcome === 'ok') {
    expect(answer.data).toHaveLength(1);
    expect(answer.data).toEqual(await serviceRead(team, probe, key));
  } else {
    expect(outcome).toBe('hidden');
    expect(answer.data).toEqual([]);
    // Not just this row: the whole table reads as empty.
    const everything = await db.from(probe.table).select(probe.columns);
    expect(everything.error).toBeNull();
    expect(everything.data).toEqual([]);
  }
}

async function insertCase(team: Team, probe: Probe, actor: Actor, outcome: Outcome) {
  const db = untyped(team.client(actor));
  if (outcome === 'ok') await probe.beforeAllowedInsert?.();
  const { row, key } = await probe.newRow();
  const before = await serviceRead(team, probe, key);
  const answer = await db.from(probe.table).insert(row);
  const after = await serviceRead(team, probe, key);
  if (outcome === 'ok') {
    expect(answer.error).toBeNull();
    expect(answer.status).toBe(201);
    expect(before).toEqual([]);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject(row);
  } else {
    expectRefused(answer, actor, outcome, probe.table);
    expect(after).toEqual(before);
  }
}

async function changeCase(
  team: Team,
  probe: Probe,
  actor: Actor,
  op: 'update' | 'delete',
  outcome: Outcome,
) {
  const db = untyped(team.client(actor));
  const key = await probe.seed();
  const before = await serviceRead(team, probe, key);
  expect(before).toHaveLength(1);
  const change = probe.change();
  const request = () =>
    op === 'update'
      ? db.from(probe.table).update(change).match(key)
      : db.from(probe.table).delete().match(key);
  const answer = await request();
  const after = await serviceRead(team, probe, key);
  if (outcome === 'no-grant') {
    expectRefused(answer, actor, outcome, probe.table);
    expect(after).toEqual(before);
    return;
  }
  // Allowed or filtered alike: 204 and no error. Only a re-read tells them apart.
  expect(answer.error).toBeNull();
  expect(answer.status).toBe(204);
  if (outcome === 'noop') {
    expect(after).toEqual(before);
    // Asked to return what it changed (Prefer: return=representation), the API says: nothing.
    const returned = await request().select();
    expect(returned.error).toBeNull();
    expect(returned.status).toBe(200);
    expect(returned.data).toEqual([]);
    expect(await serviceRead(team, probe, key)).toEqual(before);
  } else if (op === 'update') {
    expect(outcome).toBe('ok');
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject(change);
  } else {
    expect(outcome).toBe('ok');
    expect(after).toEqual([]);
    await probe.afterAllowedDelete?.();
  }
}

/** One cell: `actor` does `op` on the probe's target and gets exactly `outcome`. */
export function runTableCell(
  team: Team,
  probe: Probe,
  actor: Actor,
  op: TableOp,
  outcome: Outcome,
): Promise<void> {
  if (op === 'select') return selectCase(team, probe, actor, outcome);
  if (op === 'insert') return insertCase(team, probe, actor, outcome);
  return changeCase(team, probe, actor, op, outcome);
}
