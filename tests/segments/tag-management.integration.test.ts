// Managing tags (20261201400100) through supabase-js with real tokens: who may create a tag and read
// what uses one, the same name rules as renaming, and deletion refused while a segment or an
// automation (any status, any use) names the tag, by every path; an unused tag's deletion is in
// its subscribers' histories.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../functions/kit';
import { newAutomation } from '../automations/kit';
import { createTeam, startIsolatedEmulator, untyped, type Actor, type Team } from '../rls/team-kit';

let team: Team;
let subscribers: string[] = [];

beforeAll(async () => {
  team = await createTeam(await startIsolatedEmulator());
  const rows = await sql<{ id: string }>(
    team.emu,
    `insert into public.subscribers (email)
     select 'managed-' || n || '@tags.test' from generate_series(1, 3) n returning id`,
  );
  subscribers = rows.map((r) => r.id);
}, 120_000);
afterAll(async () => {
  await team?.emu.stop();
});

const rpc = (actor: Actor, fn: string, args: Record<string, unknown>) =>
  untyped(team.client(actor)).rpc(fn, args);

async function tagId(name: string): Promise<string | null> {
  const rows = await sql<{ id: string }>(team.emu, `select id from public.tags where name = $1`, [
    name,
  ]);
  return rows[0]?.id ?? null;
}

async function newTag(name: string, holders: string[] = []): Promise<string> {
  const [row] = await sql<{ id: string }>(
    team.emu,
    `insert into public.tags (name) values ($1) returning id`,
    [name],
  );
  for (const id of holders) {
    await sql(
      team.emu,
      `insert into public.subscriber_tags (subscriber_id, tag_id) values ($1, $2)`,
      [id, row!.id],
    );
  }
  return row!.id;
}

describe('create_tag', () => {
  it('only admins and owners create; everyone else is refused and nothing is made', async () => {
    for (const actor of ['anon', 'nonMember', 'viewer', 'editor'] as const) {
      const res = await rpc(actor, 'create_tag', { p_name: `made-by-${actor}` });
      expect(res.error, actor).not.toBeNull();
      expect([401, 403, 404], actor).toContain(res.status);
      expect(await tagId(`made-by-${actor}`), actor).toBeNull();
    }
    const viewer = await rpc('viewer', 'create_tag', { p_name: 'x' });
    expect(viewer.status).toBe(403);
    expect(viewer.error?.message).toBe('postbox:forbidden: You do not have permission to do that.');
    for (const actor of ['admin', 'owner'] as const) {
      const res = await rpc(actor, 'create_tag', { p_name: `  made-by-${actor}  ` });
      expect(res.error, actor).toBeNull();
      expect(res.data, actor).toMatchObject({ name: `made-by-${actor}` });
      expect(await tagId(`made-by-${actor}`), actor).not.toBeNull();
    }
  });

  it('refuses a bad name (422) and a name taken ignoring case (409), as renaming does', async () => {
    for (const name of ['', '   ', 'a,b', 'a;b', 'x'.repeat(65), 'tab\there']) {
      const res = await rpc('admin', 'create_tag', { p_name: name });
      expect(res.status, name).toBe(422);
      expect(res.error?.message, name).toMatch(/^postbox:invalid_input: name: /);
    }
    const taken = await rpc('admin', 'create_tag', { p_name: 'MADE-BY-ADMIN' });
    expect(taken.status).toBe(409);
    expect(taken.error?.message).toBe('postbox:conflict: Another tag already has that name.');
    const renamed = await rpc('owner', 'rename_tag', {
      p_tag: await tagId('made-by-owner'),
      p_name: 'Made-By-Admin',
    });
    expect(renamed.status).toBe(409);
  });
});

describe('tag_usage and deleting a tag in use', () => {
  it('members read what uses a tag; the public and strangers are refused', async () => {
    const tag = await newTag('usage-read', subscribers.slice(0, 2));
    for (const actor of ['viewer', 'editor', 'admin', 'owner'] as const) {
      const res = await rpc(actor, 'tag_usage', { p_tag: tag });
      expect(res.error, actor).toBeNull();
      expect(res.data, actor).toEqual({
        id: tag,
        name: 'usage-read',
        subscribers: 2,
        segments: [],
        automations: [],
      });
    }
    for (const actor of ['anon', 'nonMember'] as const) {
      const res = await rpc(actor, 'tag_usage', { p_tag: tag });
      expect(res.error, actor).not.toBeNull();
      expect(res.data ?? null, actor).toBeNull();
    }
    const missing = await rpc('viewer', 'tag_usage', {
      p_tag: '00000000-0000-4000-8000-000000000000',
    });
    expect(missing.status).toBe(404);
  });

  it('names the segments and automations (every use, every status) and refuses to delete', async () => {
    const tag = await newTag('in-use', subscribers);
    const other = await newTag('in-use-other');
    const byTag = (id: string, op = 'has') => ({ field: 'tag', op, value: id });
    await sql(
      team.emu,
      `insert into public.segments (name, rules) values
         ('Zeta has it', $1), ('alpha nested', $2), ('Unrelated', $3)`,
      [
        JSON.stringify({ match: 'all', rules: [byTag(tag)] }),
        JSON.stringify({
          match: 'any',
          rules: [byTag(other), { match: 'all', rules: [byTag(tag.toUpperCase(), 'has_not')] }],
        }),
        JSON.stringify({ match: 'all', rules: [byTag(other)] }),
      ],
    );
    const started = await newAutomation(team.emu, {
      name: 'Started by it',
      trigger: { tag },
      steps: [{ kind: 'wait', wait_seconds: 3600 }],
    });
    const steps = await newAutomation(team.emu, {
      name: 'Draft with steps',
      status: 'draft',
      trigger: 'manual',
      goal_rules: { match: 'all', rules: [byTag(tag)] },
      steps: [
        { kind: 'wait', wait_seconds: 3600 },
        { kind: 'tag_remove', tag_id: tag },
        { kind: 'condition', rules: { match: 'all', rules: [byTag(tag, 'has_not')] } },
        { kind: 'tag_add', tag_id: other },
      ],
    });
    await newAutomation(team.emu, {
      name: 'Paused, other tag',
      status: 'paused',
      trigger: { tag: other },
      steps: [{ kind: 'tag_add', tag_id: other }],
    });

    const usage = await rpc('viewer', 'tag_usage', { p_tag: tag });
    expect(usage.error).toBeNull();
    expect(usage.data).toMatchObject({
      subscribers: 3,
      segments: [{ name: 'alpha nested' }, { name: 'Zeta has it' }],
      automations: [
        {
          id: steps,
          name: 'Draft with steps',
          status: 'draft',
          uses: [{ use: 'tag_remove', step: 2 }, { use: 'condition', step: 3 }, { use: 'goal' }],
        },
        { id: started, name: 'Started by it', status: 'active', uses: [{ use: 'trigger' }] },
      ],
    });

    const refused =
      'postbox:conflict: The tag “in-use” is used by 2 segments and 2 automations; change or delete them first.';
    const viaRpc = await rpc('admin', 'delete_tag', { p_tag: tag });
    expect(viaRpc.status).toBe(409);
    expect(viaRpc.error?.message).toBe(refused);
    const viaRest = await untyped(team.client('owner')).from('tags').delete().eq('id', tag);
    expect(viaRest.error?.message).toBe(refused);
    // Not even the service role: nothing saved may name a tag that is gone.
    const viaService = await untyped(team.service).from('tags').delete().eq('id', tag);
    expect(viaService.error?.message).toBe(refused);
    expect(await tagId('in-use')).toBe(tag);
    const [held] = await sql<{ n: number }>(
      team.emu,
      `select count(*)::int as n from public.subscriber_tags where tag_id = $1`,
      [tag],
    );
    expect(held!.n).toBe(3);

    // Once nothing names it, it goes.
    await sql(
      team.emu,
      `delete from public.segments where name in ('Zeta has it', 'alpha nested')`,
    );
    await sql(team.emu, `delete from public.automations where id in ($1, $2)`, [started, steps]);
    const gone = await rpc('admin', 'delete_tag', { p_tag: tag });
    expect(gone.error).toBeNull();
    expect(gone.data).toBe(3);
  });

  it('one segment alone is named in the singular', async () => {
    const tag = await newTag('in-one-segment');
    await sql(team.emu, `insert into public.segments (name, rules) values ('Just one', $1)`, [
      JSON.stringify({ match: 'all', rules: [{ field: 'tag', op: 'has', value: tag }] }),
    ]);
    const res = await rpc('owner', 'delete_tag', { p_tag: tag });
    expect(res.error?.message).toBe(
      'postbox:conflict: The tag “in-one-segment” is used by 1 segment; change or delete it first.',
    );
  });

  it('viewers and editors cannot delete a tag, used or not', async () => {
    const tag = await newTag('kept', subscribers.slice(0, 1));
    for (const actor of ['viewer', 'editor'] as const) {
      const res = await rpc(actor, 'delete_tag', { p_tag: tag });
      expect(res.status, actor).toBe(403);
      const rest = await untyped(team.client(actor)).from('tags').delete().eq('id', tag).select();
      expect(rest.data ?? [], actor).toEqual([]);
    }
    expect(await tagId('kept')).toBe(tag);
  });
});

describe('deleting an unused tag', () => {
  it('takes it off every subscriber; their histories keep what was recorded, the deletion adds nothing', async () => {
    const [first, second] = [subscribers[0]!, subscribers[1]!];
    const tag = await newTag('short-lived');
    const add = await rpc('admin', 'tag_subscribers', {
      p_action: 'add',
      p_tags: ['short-lived'],
      p_rules: { match: 'all', rules: [{ field: 'id', op: 'in', value: [first, second] }] },
    });
    expect(add.data).toMatchObject({ changed: 2 });
    // Removed from one first (in bulk, batched): that removal is in their history.
    await rpc('admin', 'tag_subscribers', {
      p_action: 'remove',
      p_tags: ['short-lived'],
      p_rules: { match: 'all', rules: [{ field: 'id', op: 'in', value: [first] }] },
    });
    const res = await rpc('owner', 'delete_tag', { p_tag: tag });
    expect(res.error).toBeNull();
    expect(res.data).toBe(1);
    const [left] = await sql<{ n: number }>(
      team.emu,
      `select count(*)::int as n from public.subscriber_tags where tag_id = $1`,
      [tag],
    );
    expect(left!.n).toBe(0);
    const events = await sql<{
      subscriber_id: string;
      type: string;
      data: Record<string, unknown>;
    }>(
      team.emu,
      `select subscriber_id, type, data from public.events
        where type in ('tagged', 'untagged') and data->>'tag_id' = $1 order by id`,
      [tag],
    );
    const admin = { id: team.users.admin.id, email: team.users.admin.email };
    const recorded = { tag_id: tag, tag: 'short-lived', source: 'admin', actor: admin };
    expect(events.map((e) => `${e.type} ${e.subscriber_id}`).sort()).toEqual(
      [`tagged ${first}`, `tagged ${second}`, `untagged ${first}`].sort(),
    );
    expect(events.find((e) => e.type === 'untagged')!.data).toEqual(recorded);
  });
});
