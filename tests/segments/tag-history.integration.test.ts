// Tags in the subscriber's history (20261201400000) through the real functions and database, by
// every path that tags: the subscriber page and the bulk bar (tag_subscribers, with real tokens),
// an import's `tags` column, an automation's tag steps (process-queue), Let in; one event per
// subscriber whose tags changed, naming the tag, where it came from and who did it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { drainAutomations, newAutomation, newList } from '../automations/kit';
import { createSubscriber, sql, startFunctionsEmulator } from '../functions/kit';
import { address, importCsv } from '../imports/kit';
import { createTeam, untyped, type Team } from '../rls/team-kit';

let emu: RunningEmulator;
let team: Team;

beforeAll(async () => {
  process.env.POSTBOX_IMPORT_TEST_HOOKS = 'on';
  emu = await startFunctionsEmulator();
  team = await createTeam(emu);
}, 180_000);
afterAll(async () => {
  await emu?.stop();
});

interface TagEvent {
  type: string;
  tag: string;
  source: string;
  actor: string | null;
  automation: string | null;
}

async function tagEvents(subscriberId: string): Promise<TagEvent[]> {
  return sql<TagEvent>(
    emu,
    `select type, data->>'tag' as tag, data->>'source' as source, data->'actor'->>'email' as actor,
            data->'automation'->>'name' as automation
       from public.events where subscriber_id = $1 and type in ('tagged', 'untagged') order by id`,
    [subscriberId],
  );
}

const byIds = (ids: string[]) => ({ match: 'all', rules: [{ field: 'id', op: 'in', value: ids }] });

describe('team members tagging', () => {
  it("one subscriber's page: added and removed, by whom", async () => {
    const one = await createSubscriber(emu);
    const admin = untyped(team.client('admin'));
    await admin.rpc('tag_subscribers', {
      p_action: 'add',
      p_tags: ['Page'],
      p_rules: byIds([one.id]),
    });
    await admin.rpc('tag_subscribers', {
      p_action: 'remove',
      p_tags: ['page'],
      p_rules: byIds([one.id]),
    });
    const who = team.users.admin.email;
    expect(await tagEvents(one.id)).toEqual([
      { type: 'tagged', tag: 'Page', source: 'admin', actor: who, automation: null },
      { type: 'untagged', tag: 'Page', source: 'admin', actor: who, automation: null },
    ]);
  });

  it('in bulk: one event per subscriber whose tags changed, none for those who had it', async () => {
    const people = await Promise.all([1, 2, 3, 4].map(() => createSubscriber(emu)));
    const owner = untyped(team.client('owner'));
    await owner.rpc('tag_subscribers', {
      p_action: 'add',
      p_tags: ['Bulk'],
      p_rules: byIds([people[0]!.id]),
    });
    const res = await owner.rpc('tag_subscribers', {
      p_action: 'add',
      p_tags: ['Bulk', 'Second'],
      p_rules: byIds(people.map((p) => p.id)),
      p_limit: 3,
    });
    expect(res.data).toMatchObject({ processed: 3, done: false });
    await owner.rpc('tag_subscribers', {
      p_action: 'add',
      p_tags: ['Bulk', 'Second'],
      p_rules: byIds(people.map((p) => p.id)),
      p_after: res.data.last_id,
    });
    for (const p of people) {
      const events = await tagEvents(p.id);
      expect(events.map((e) => `${e.type} ${e.tag}`).sort()).toEqual([
        'tagged Bulk',
        'tagged Second',
      ]);
      expect(new Set(events.map((e) => e.actor))).toEqual(new Set([team.users.owner.email]));
    }
  });

  it('a viewer changes nothing and records nothing', async () => {
    const one = await createSubscriber(emu);
    const res = await untyped(team.client('viewer')).rpc('tag_subscribers', {
      p_action: 'add',
      p_tags: ['Nope'],
      p_rules: byIds([one.id]),
    });
    expect(res.status).toBe(403);
    expect(await tagEvents(one.id)).toEqual([]);
  });
});

describe('other paths', () => {
  it("an import's tags column, naming who started the import", async () => {
    const email = address('tag-history');
    const { data } = await team.users.admin.client.auth.getSession();
    const result = await importCsv(
      emu,
      data.session!.access_token,
      `email,tags\r\n${email},"Imported; Also"\r\n`,
      { lists: ['product-updates'] },
    );
    expect(result).toMatchObject({ status: 'done', inserted: 1 });
    const [row] = await sql<{ id: string }>(
      emu,
      `select id from public.subscribers where email = $1`,
      [email],
    );
    const events = await tagEvents(row!.id);
    expect(events.map((e) => e.tag).sort()).toEqual(['Also', 'Imported']);
    for (const e of events) {
      expect(e).toMatchObject({ type: 'tagged', source: 'import', actor: team.users.admin.email });
    }
  });

  it("an automation's tag steps, credited to the automation", async () => {
    const list = await newList(emu, 'tag-steps');
    const [tag] = await sql<{ id: string }>(
      emu,
      `insert into public.tags (name) values ('Step tag') returning id`,
    );
    await newAutomation(emu, {
      name: 'Tagger',
      trigger: { list: list.slug },
      steps: [
        { kind: 'tag_add', tag_id: tag!.id },
        { kind: 'wait', wait_seconds: 60 },
        { kind: 'tag_remove', tag_id: tag!.id },
      ],
    });
    const one = await createSubscriber(emu, { [list.slug]: 'confirmed' });
    await drainAutomations(emu);
    await sql(emu, `select public.move_clock(interval '2 minutes')`);
    await drainAutomations(emu);
    expect(await tagEvents(one.id)).toEqual([
      { type: 'tagged', tag: 'Step tag', source: 'automation', actor: null, automation: 'Tagger' },
      {
        type: 'untagged',
        tag: 'Step tag',
        source: 'automation',
        actor: null,
        automation: 'Tagger',
      },
    ]);
  });

  it('Let in with an access email tags the people let in', async () => {
    const [waitlist, target] = await Promise.all([
      newList(emu, 'tag-line'),
      newList(emu, 'tag-in'),
    ]);
    await sql(emu, `update public.lists set waitlist = true where id = $1`, [waitlist.id]);
    const one = await createSubscriber(emu, { [waitlist.slug]: 'confirmed' });
    const res = await untyped(team.client('admin')).rpc('let_in_from_waitlist', {
      p_list: waitlist.id,
      p_target: target.id,
      p_top: 1,
      p_access_email: true,
    });
    expect(res.error).toBeNull();
    const events = await tagEvents(one.id);
    expect(events).toEqual([
      {
        type: 'tagged',
        tag: expect.stringMatching(/^Let in: /),
        source: 'let-in',
        actor: team.users.admin.email,
        automation: null,
      },
    ]);
  });

  it('deleting a subscriber with tags records nothing for them and fails nothing', async () => {
    const one = await createSubscriber(emu);
    await untyped(team.client('admin')).rpc('tag_subscribers', {
      p_action: 'add',
      p_tags: ['Leaving'],
      p_rules: byIds([one.id]),
    });
    const res = await untyped(team.client('owner')).from('subscribers').delete().eq('id', one.id);
    expect(res.error).toBeNull();
    expect(await tagEvents(one.id)).toEqual([]);
  });
});
