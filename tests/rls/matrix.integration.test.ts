// The SPEC §6 policy test: every cell of tests/rls/matrix.ts, through supabase-js with real
// tokens against an isolated emulator running the real migrations. A refusal is checked on the
// wire (status, SQLSTATE, message) and, for writes, by re-reading as service role.
import { randomUUID } from 'node:crypto';
import type { PostgrestError } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MEDIA,
  RATE_LIMIT_RPC,
  TABLES,
  cells,
  type Outcome,
  type StorageOp,
  type Table,
  type TableOp,
} from './matrix';
import { makeProbes, untyped, type Key, type Probe } from './probes';
import { createTeam, startIsolatedEmulator, type Actor, type Team } from './team-kit';

// A 1×1 PNG: the media bucket accepts images only.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

let team: Team;
let probes: Record<Table, Probe>;

beforeAll(async () => {
  team = await createTeam(await startIsolatedEmulator());
  const { data, error } = await team.service
    .from('lists')
    .insert({ slug: 'rls-matrix', name: 'RLS matrix', visibility: 'private' })
    .select('id')
    .single();
  if (error) throw new Error(error.message);
  probes = makeProbes(team.service, data.id);
}, 120_000);
afterAll(() => team?.emu.stop());

interface Answer {
  status: number;
  error: PostgrestError | null;
}

/** PostgREST maps 42501 to 401 for the anon role and to 403 for any other. */
function expectRefused(answer: Answer, actor: Actor, outcome: Outcome, object: string): void {
  expect(answer.status).toBe(actor === 'anon' ? 401 : 403);
  expect(answer.error?.code).toBe('42501');
  expect(answer.error?.message).toBe(
    outcome === 'rls'
      ? `new row violates row-level security policy for table "${object}"`
      : `permission denied for ${object === 'hit_rate_limit' ? 'function' : 'table'} ${object}`,
  );
}

async function serviceRead(table: Table, key: Key): Promise<Record<string, unknown>[]> {
  const { data, error } = await untyped(team.service).from(table).select('*').match(key);
  if (error) throw new Error(`service read ${table}: ${error.message}`);
  return data;
}

async function selectCase(table: Table, actor: Actor, outcome: Outcome): Promise<void> {
  const db = untyped(team.client(actor));
  const probe = probes[table];
  if (outcome === 'public') {
    if (table === 'lists') {
      await probes.lists.seed(); // public
      await team.service.from('lists').insert({
        slug: `rls-p-${randomUUID().slice(0, 8)}`,
        name: 'Private',
        visibility: 'private',
      });
      const all = await untyped(team.service).from('lists').select('slug, visibility');
      const seen = await db.from('lists').select('slug, visibility').order('slug');
      expect(seen.error).toBeNull();
      const publicSlugs = all
        .data!.filter((l) => l.visibility === 'public')
        .map((l) => l.slug)
        .sort();
      expect(seen.data!.map((l) => l.slug)).toEqual(publicSlugs);
      expect(all.data!.some((l) => l.visibility === 'private')).toBe(true);
      return;
    }
    // settings: the four public columns, and nothing else.
    const seen = await db
      .from('settings')
      .select('site_name, tagline, logo_path, show_subscriber_count');
    expect(seen.error).toBeNull();
    const truth = await untyped(team.service)
      .from('settings')
      .select('site_name, tagline, logo_path, show_subscriber_count');
    expect(seen.data).toEqual(truth.data);
    expect(seen.data).toHaveLength(1);
    expectRefused(await db.from('settings').select('sender_email'), actor, 'no-grant', 'settings');
    expectRefused(await db.from('settings').select('*'), actor, 'no-grant', 'settings');
    return;
  }
  const key = await probe.seed();
  const answer = await db.from(table).select(probe.columns).match(key);
  if (outcome === 'no-grant') return expectRefused(answer, actor, outcome, table);
  expect(answer.error).toBeNull();
  expect(answer.status).toBe(200);
  if (outcome === 'ok') {
    expect(answer.data).toHaveLength(1);
    expect(answer.data).toEqual(await serviceRead(table, key));
  } else {
    expect(outcome).toBe('hidden');
    expect(answer.data).toEqual([]);
    // Not just this row: the whole table reads as empty.
    const everything = await db.from(table).select(probe.columns);
    expect(everything.error).toBeNull();
    expect(everything.data).toEqual([]);
  }
}

async function writeCase(table: Table, actor: Actor, op: TableOp, outcome: Outcome): Promise<void> {
  const db = untyped(team.client(actor));
  const probe = probes[table];
  if (op === 'insert') {
    if (outcome === 'ok') await probe.beforeAllowedInsert?.();
    const { row, key } = await probe.newRow();
    const before = await serviceRead(table, key);
    const answer = await db.from(table).insert(row);
    const after = await serviceRead(table, key);
    if (outcome === 'ok') {
      expect(answer.error).toBeNull();
      expect(answer.status).toBe(201);
      expect(before).toEqual([]);
      expect(after).toHaveLength(1);
      expect(after[0]).toMatchObject(row);
    } else {
      expectRefused(answer, actor, outcome, table);
      expect(after).toEqual(before);
    }
    return;
  }
  const key = await probe.seed();
  const before = await serviceRead(table, key);
  expect(before).toHaveLength(1);
  const change = probe.change();
  const answer =
    op === 'update'
      ? await db.from(table).update(change).match(key)
      : await db.from(table).delete().match(key);
  const after = await serviceRead(table, key);
  if (outcome === 'no-grant') {
    expectRefused(answer, actor, outcome, table);
    expect(after).toEqual(before);
    return;
  }
  // Allowed or filtered alike: 204 and no error. Only a re-read tells them apart.
  expect(answer.error).toBeNull();
  expect(answer.status).toBe(204);
  if (outcome === 'noop') {
    expect(after).toEqual(before);
    // Asked to return what it changed (Prefer: return=representation), the API says: nothing.
    const returned =
      op === 'update'
        ? await db.from(table).update(change).match(key).select()
        : await db.from(table).delete().match(key).select();
    expect(returned.error).toBeNull();
    expect(returned.status).toBe(200);
    expect(returned.data).toEqual([]);
    expect(await serviceRead(table, key)).toEqual(before);
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

describe.each(Object.keys(TABLES) as Table[])('table %s', (table) => {
  it.each(cells(TABLES[table]))('$actor $op → $outcome', async ({ actor, op, outcome }) => {
    if (op === 'select') await selectCase(table, actor, outcome);
    else await writeCase(table, actor, op, outcome);
  });
});

async function mediaFolder(folder: string): Promise<string[]> {
  const { data, error } = await team.service.storage.from('media').list(folder);
  if (error) throw new Error(`service list ${folder}: ${error.message}`);
  return data.map((o) => o.name);
}

/** Size in bytes of a stored file, as the service role lists it. */
async function mediaSize(path: string): Promise<number> {
  const [folder, name] = path.split('/');
  const { data, error } = await team.service.storage.from('media').list(folder);
  if (error) throw new Error(`service list ${folder}: ${error.message}`);
  const file = data.find((o) => o.name === name);
  return (file?.metadata as { size?: number } | undefined)?.size ?? -1;
}

async function seedMedia(): Promise<{ folder: string; path: string }> {
  const folder = `rls-${randomUUID().slice(0, 8)}`;
  const path = `${folder}/logo.png`;
  const { error } = await team.service.storage
    .from('media')
    .upload(path, PNG, { contentType: 'image/png' });
  if (error) throw new Error(`seed media: ${error.message}`);
  return { folder, path };
}

async function mediaCase(actor: Actor, op: StorageOp, outcome: Outcome): Promise<void> {
  const media = team.client(actor).storage.from('media');
  if (op === 'upload') {
    const folder = `rls-${randomUUID().slice(0, 8)}`;
    const path = `${folder}/logo.png`;
    const answer = await media.upload(path, PNG, { contentType: 'image/png' });
    if (outcome === 'ok') {
      expect(answer.error).toBeNull();
      expect(answer.data?.path).toBe(path);
      expect(await mediaFolder(folder)).toEqual(['logo.png']);
    } else {
      expect(outcome).toBe('rls');
      // Storage answers HTTP 400 and puts the real status in the body.
      expect(answer.error).toMatchObject({ status: 400, statusCode: '403' });
      expect(answer.error?.message).toMatch(/row-level security/);
      expect(await mediaFolder(folder)).toEqual([]);
    }
    return;
  }
  const { folder, path } = await seedMedia();
  if (op === 'replace') {
    const bigger = Buffer.concat([PNG, Buffer.alloc(64)]);
    const answer = await media.upload(path, bigger, { contentType: 'image/png', upsert: true });
    if (outcome === 'ok') {
      expect(answer.error).toBeNull();
      expect(await mediaSize(path)).toBe(bigger.length);
    } else {
      expect(outcome).toBe('rls');
      expect(answer.error).toMatchObject({ status: 400, statusCode: '403' });
      expect(await mediaSize(path)).toBe(PNG.length);
    }
    return;
  }
  if (op === 'list') {
    const answer = await media.list(folder);
    expect(answer.error).toBeNull();
    expect(answer.data?.map((o) => o.name)).toEqual(outcome === 'ok' ? ['logo.png'] : []);
    if (outcome !== 'ok') expect(outcome).toBe('hidden');
    return;
  }
  const answer = await media.remove([path]);
  expect(answer.error).toBeNull();
  if (outcome === 'ok') {
    expect(answer.data?.map((o) => o.name)).toEqual([path]);
    expect(await mediaFolder(folder)).toEqual([]);
  } else {
    // Rows the caller may not delete are skipped silently: an empty answer, the file stays.
    expect(outcome).toBe('noop');
    expect(answer.data).toEqual([]);
    expect(await mediaFolder(folder)).toEqual(['logo.png']);
  }
}

describe('storage bucket media', () => {
  it.each(cells(MEDIA))('$actor $op → $outcome', async ({ actor, op, outcome }) => {
    await mediaCase(actor, op, outcome);
  });
});

describe('rpc hit_rate_limit', () => {
  it.each(cells({ execute: RATE_LIMIT_RPC }))(
    '$actor $op → $outcome',
    async ({ actor, outcome }) => {
      const key = randomUUID();
      const call = (who: Actor, limit: number) =>
        untyped(team.client(who)).rpc('hit_rate_limit', {
          p_bucket: 'rls-matrix',
          p_key: key,
          p_limit: limit,
          p_window_seconds: 3600,
        });
      const answer = await call(actor, 5);
      if (outcome === 'ok') {
        expect(answer.error).toBeNull();
        expect(answer.data).toBe(0);
        // The hit counted: with a limit of 1 the next one must wait.
        expect((await call('service', 1)).data).toBeGreaterThan(0);
      } else {
        expectRefused(answer, actor, outcome, 'hit_rate_limit');
        // Nothing was counted: the first real hit with a limit of 1 still passes.
        expect((await call('service', 1)).data).toBe(0);
      }
    },
  );
});
