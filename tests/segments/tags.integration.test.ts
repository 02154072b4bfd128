// Tags (20261128100000, 20261128100100) through supabase-js with real tokens: who may read and
// write tags, tagging many subscribers by ids and by a rule set in batches, rename and delete
// everywhere, the subscriber's own export, and deletion taking the tags along.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../functions/kit';
import {
  createTeam,
  startIsolatedEmulator,
  uniqueEmail,
  untyped,
  type Actor,
  type Team,
} from '../rls/team-kit';

let team: Team;
const ids: string[] = [];

async function first<T>(rows: Promise<T[]>): Promise<T> {
  const [row] = await rows;
  if (!row) throw new Error('no row');
  return row;
}

beforeAll(async () => {
  team = await createTeam(await startIsolatedEmulator());
  const rows = await sql<{ id: string }>(
    team.emu,
    `insert into public.subscribers (email, attributes)
     select 'tagged-' || n || '@tags.test', jsonb_build_object('n', n) from generate_series(1, 5) n
     returning id`,
  );
  ids.push(...rows.map((r) => r.id).sort());
  // Batches walk by id, and ids are random: number the subscribers in id order, so `n` and
  // ids[n - 1] name the same subscriber whatever the ids came out as.
  await sql(
    team.emu,
    `update public.subscribers s set attributes = jsonb_build_object('n', o.n)
       from (select id, row_number() over (order by id) as n
               from public.subscribers where email like '%@tags.test') o
      where s.id = o.id`,
  );
}, 120_000);
afterAll(async () => {
  await team?.emu.stop();
});

const rpc = (actor: Actor, fn: string, args: Record<string, unknown>) =>
  untyped(team.client(actor)).rpc(fn, args);

async function tagsOf(id: string): Promise<string[]> {
  const rows = await sql<{ name: string }>(
    team.emu,
    `select t.name from public.subscriber_tags x join public.tags t on t.id = x.tag_id
      where x.subscriber_id = $1 order by lower(t.name)`,
    [id],
  );
  return rows.map((r) => r.name);
}

describe('row-level security', () => {
  it('members read tags; anon and strangers see none', async () => {
    await sql(team.emu, `insert into public.tags (name) values ('Seen') on conflict do nothing`);
    for (const actor of ['viewer', 'editor', 'admin', 'owner'] as const) {
      const { data, error } = await untyped(team.client(actor)).from('tags').select('name');
      expect(error, actor).toBeNull();
      expect(
        (data as Array<{ name: string }>).map((t) => t.name),
        actor,
      ).toContain('Seen');
    }
    for (const actor of ['anon', 'nonMember'] as const) {
      const { data } = await untyped(team.client(actor)).from('tags').select('name');
      expect(data ?? [], actor).toEqual([]);
    }
  });

  it('only admins and owners create tags or tag subscribers', async () => {
    for (const actor of ['viewer', 'editor', 'nonMember', 'anon'] as const) {
      const insert = await untyped(team.client(actor))
        .from('tags')
        .insert({ name: `by-${actor}` });
      expect(insert.error, actor).not.toBeNull();
      const bulk = await rpc(actor, 'tag_subscribers', {
        p_action: 'add',
        p_tags: ['x'],
        p_rules: { match: 'all', rules: [{ field: 'id', op: 'in', value: [ids[0]!] }] },
      });
      expect(bulk.error, actor).not.toBeNull();
      expect([401, 403, 404]).toContain(bulk.status);
    }
    const viewer = await rpc('viewer', 'tag_subscribers', { p_action: 'add', p_tags: ['x'] });
    expect(viewer.status).toBe(403);
    expect(viewer.error?.message).toBe('postbox:forbidden: You do not have permission to do that.');
    for (const actor of ['admin', 'owner'] as const) {
      const insert = await untyped(team.client(actor))
        .from('tags')
        .insert({ name: `by-${actor}` });
      expect(insert.error, actor).toBeNull();
    }
    expect(await tagsOf(ids[0]!)).toEqual([]);
  });

  it('a name is unique ignoring case and has no separators', async () => {
    const dup = await untyped(team.client('admin')).from('tags').insert({ name: 'BY-ADMIN' });
    expect(dup.error?.code).toBe('23505');
    const comma = await untyped(team.client('admin')).from('tags').insert({ name: 'a,b' });
    expect(comma.error?.code).toBe('23514');
  });
});

describe('tagging many subscribers', () => {
  it('adds by ids, creating missing tags once, and counts only changed subscribers', async () => {
    const byIds = { match: 'all', rules: [{ field: 'id', op: 'in', value: ids.slice(0, 2) }] };
    const added = await rpc('admin', 'tag_subscribers', {
      p_action: 'add',
      p_tags: [' Gold ', 'gold', 'Early'],
      p_rules: byIds,
    });
    expect(added.error).toBeNull();
    expect(added.data).toEqual({ processed: 2, changed: 2, last_id: ids[1]!, done: true });
    expect(await tagsOf(ids[0]!)).toEqual(['Early', 'Gold']);
    const again = await rpc('admin', 'tag_subscribers', {
      p_action: 'add',
      p_tags: ['GOLD'],
      p_rules: byIds,
    });
    expect(again.data).toMatchObject({ processed: 2, changed: 0 });
    const { n } = await first(
      sql<{ n: string }>(
        team.emu,
        `select count(*) as n from public.tags where lower(name) = 'gold'`,
      ),
    );
    expect(Number(n)).toBe(1);
  });

  it('adds and removes on every match of a rule set, in batches walked by id', async () => {
    const rules = {
      match: 'all',
      rules: [{ field: 'email', op: 'ends_with', value: '@tags.test' }],
    };
    const a = await rpc('owner', 'tag_subscribers', {
      p_action: 'add',
      p_tags: ['Batch'],
      p_rules: rules,
      p_limit: 3,
    });
    expect(a.data).toMatchObject({ processed: 3, changed: 3, last_id: ids[2]!, done: false });
    const b = await rpc('owner', 'tag_subscribers', {
      p_action: 'add',
      p_tags: ['Batch'],
      p_rules: rules,
      p_after: ids[2]!,
      p_limit: 3,
    });
    expect(b.data).toMatchObject({ processed: 2, changed: 2, done: true });
    for (const id of ids) expect(await tagsOf(id)).toContain('Batch');

    const { id: tag } = await first(
      sql<{ id: string }>(team.emu, `select id from public.tags where name = 'Batch'`),
    );
    const tagged = {
      match: 'all',
      rules: [
        { field: 'tag', op: 'has', value: tag },
        { field: 'attributes.n', op: 'gt', value: 3 },
      ],
    };
    const r = await rpc('admin', 'tag_subscribers', {
      p_action: 'remove',
      p_tags: ['batch', 'no-such-tag'],
      p_rules: tagged,
    });
    expect(r.data).toMatchObject({ processed: 2, changed: 2, done: true });
    const count = await rpc('viewer', 'count_subscribers_matching', {
      p_rules: { match: 'all', rules: [{ field: 'tag', op: 'has', value: tag }] },
    });
    expect(count.data).toBe(3);
  });

  it('refuses bad tag names and actions with invalid_input', async () => {
    const bad = await rpc('admin', 'tag_subscribers', { p_action: 'add', p_tags: ['a;b'] });
    expect(bad.status).toBe(422);
    expect(bad.error?.message).toBe(
      'postbox:invalid_input: tags: a tag has 1 to 64 characters and no comma or semicolon',
    );
    const none = await rpc('admin', 'tag_subscribers', { p_action: 'add', p_tags: [] });
    expect(none.error?.message).toBe('postbox:invalid_input: tags: name between 1 and 20 tags');
    const action = await rpc('admin', 'tag_subscribers', { p_action: 'drop', p_tags: ['x'] });
    expect(action.error?.message).toBe('postbox:invalid_input: action: must be add or remove');
  });
});

describe('rename and delete everywhere', () => {
  it('renames a tag (conflict when taken), then deletes it from everyone', async () => {
    const { id: gold } = await first(
      sql<{ id: string }>(team.emu, `select id from public.tags where name = 'Gold'`),
    );
    const taken = await rpc('admin', 'rename_tag', { p_tag: gold, p_name: 'early' });
    expect(taken.status).toBe(409);
    expect(taken.error?.message).toBe('postbox:conflict: Another tag already has that name.');
    const byEditor = await rpc('editor', 'rename_tag', { p_tag: gold, p_name: 'Platinum' });
    expect(byEditor.status).toBe(403);
    const renamed = await rpc('admin', 'rename_tag', { p_tag: gold, p_name: 'Platinum' });
    expect(renamed.error).toBeNull();
    expect(await tagsOf(ids[0]!)).toContain('Platinum');

    const gone = await rpc('admin', 'delete_tag', { p_tag: gold });
    expect(gone.data).toBe(2);
    expect(await tagsOf(ids[0]!)).not.toContain('Platinum');
    const missing = await rpc('admin', 'delete_tag', { p_tag: gold });
    expect(missing.status).toBe(404);
    expect(missing.error?.message).toBe('postbox:not_found: That tag does not exist.');
  });
});

describe("the subscriber's own data", () => {
  it('the own export lists the tags; deleting the subscriber removes them', async () => {
    const { data, error } = await team.service.rpc(
      'export_subscriber' as never,
      {
        p_subscriber: ids[0]!,
      } as never,
    );
    expect(error).toBeNull();
    const exported = data as unknown as { tags: string[]; subscriber: { source: string } };
    expect(exported.tags).toEqual(['Batch', 'Early']);
    expect(exported.subscriber.source).toBe('api');
    await sql(team.emu, `delete from public.subscribers where id = $1`, [ids[0]!]);
    const { n } = await first(
      sql<{ n: string }>(
        team.emu,
        `select count(*) as n from public.subscriber_tags where subscriber_id = $1`,
        [ids[0]!],
      ),
    );
    expect(Number(n)).toBe(0);
  });

  it('a subscriber a team member adds is recorded as from the team', async () => {
    const email = uniqueEmail('team-added');
    const { data, error } = await untyped(team.client('admin'))
      .from('subscribers')
      .insert({ email })
      .select('signup_source')
      .single();
    expect(error).toBeNull();
    expect(data).toEqual({ signup_source: 'team' });
  });
});
