// SPEC §4 and the team rule in SQL, exercised through the API by signed-in members: the last owner
// stays, confirmed never goes back to pending, blocklisting unsubscribes everywhere, every
// subscription transition writes an event, and deleting a subscriber leaves one anonymous trace.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTeam,
  signedInUser,
  startIsolatedEmulator,
  uniqueEmail,
  type Client,
  type Team,
} from './team-kit';

let team: Team;
let admin: Client;
const lists: Record<'a' | 'b' | 'c', { id: string; slug: string }> = {} as never;

beforeAll(async () => {
  team = await createTeam(await startIsolatedEmulator());
  admin = team.users.admin.client;
  for (const name of ['a', 'b', 'c'] as const) {
    const slug = `rules-${name}-${randomUUID().slice(0, 6)}`;
    const { data, error } = await admin
      .from('lists')
      .insert({ slug, name: slug })
      .select('id, slug')
      .single();
    if (error) throw new Error(error.message);
    lists[name] = data;
  }
}, 120_000);
afterAll(() => team?.emu.stop());

async function newSubscriber(status: 'enabled' | 'blocklisted' = 'enabled'): Promise<string> {
  const { data, error } = await admin
    .from('subscribers')
    .insert({ email: uniqueEmail('rules'), status })
    .select('id')
    .single();
  if (error) throw new Error(error.message);
  return data.id;
}

/** The subscriber's history as an admin reads it, oldest first, reduced to what the rules fix. */
async function history(subscriberId: string) {
  const { data, error } = await admin
    .from('events')
    .select('type, data')
    .eq('subscriber_id', subscriberId)
    .order('id');
  if (error) throw new Error(error.message);
  return data.map((e) => {
    const d = e.data as Record<string, unknown>;
    return { type: e.type, list: d.list, from: d.from, to: d.to, source: d.source };
  });
}

async function statusOf(subscriberId: string, listId: string): Promise<string | undefined> {
  const { data } = await team.service
    .from('subscriptions')
    .select('status')
    .match({ subscriber_id: subscriberId, list_id: listId });
  return data?.[0]?.status;
}

describe('subscription rules, as an admin through the API', () => {
  it('every transition writes exactly one events row naming the list, the states and the source', async () => {
    const id = await newSubscriber();
    const sub = { subscriber_id: id, list_id: lists.a.id };
    const step = async (status: 'pending' | 'confirmed' | 'unsubscribed') => {
      const { error, status: http } = await admin
        .from('subscriptions')
        .update({ status })
        .match(sub);
      expect(error).toBeNull();
      expect(http).toBe(204);
    };
    expect((await admin.from('subscriptions').insert(sub)).error).toBeNull();
    await step('confirmed');
    await step('confirmed'); // no change, no event
    await step('unsubscribed');
    await step('confirmed');
    await step('unsubscribed');
    await step('pending');
    // A subscription created confirmed (single opt-in) is subscribed and confirmed at once.
    expect(
      (
        await admin
          .from('subscriptions')
          .insert({ subscriber_id: id, list_id: lists.b.id, status: 'confirmed' })
      ).error,
    ).toBeNull();
    const a = lists.a.slug;
    const b = lists.b.slug;
    expect(await history(id)).toEqual([
      { type: 'subscribed', list: a, from: null, to: 'pending', source: 'admin' },
      { type: 'confirmed', list: a, from: 'pending', to: 'confirmed', source: 'admin' },
      { type: 'unsubscribed', list: a, from: 'confirmed', to: 'unsubscribed', source: 'admin' },
      { type: 'resubscribed', list: a, from: 'unsubscribed', to: 'confirmed', source: 'admin' },
      { type: 'unsubscribed', list: a, from: 'confirmed', to: 'unsubscribed', source: 'admin' },
      { type: 'resubscribed', list: a, from: 'unsubscribed', to: 'pending', source: 'admin' },
      { type: 'subscribed', list: b, from: null, to: 'confirmed', source: 'admin' },
      { type: 'confirmed', list: b, from: null, to: 'confirmed', source: 'admin' },
    ]);
  });

  it('refuses confirmed → pending (400, 23514) and leaves the subscription confirmed', async () => {
    const id = await newSubscriber();
    const sub = { subscriber_id: id, list_id: lists.a.id, status: 'confirmed' as const };
    expect((await admin.from('subscriptions').insert(sub)).error).toBeNull();
    const before = await history(id);
    const answer = await admin
      .from('subscriptions')
      .update({ status: 'pending' })
      .match({ subscriber_id: id, list_id: lists.a.id });
    expect(answer.status).toBe(400);
    expect(answer.error).toMatchObject({
      code: '23514',
      message: 'A confirmed subscription cannot go back to pending.',
    });
    expect(await statusOf(id, lists.a.id)).toBe('confirmed');
    expect(await history(id)).toEqual(before);
  });

  it('refuses to subscribe a blocklisted subscriber, by insert or by update', async () => {
    const id = await newSubscriber('blocklisted');
    for (const status of ['pending', 'confirmed'] as const) {
      const answer = await admin
        .from('subscriptions')
        .insert({ subscriber_id: id, list_id: lists.a.id, status });
      expect(answer.status).toBe(400);
      expect(answer.error).toMatchObject({
        code: '23514',
        message: 'A blocklisted subscriber cannot be subscribed.',
      });
    }
    expect(await statusOf(id, lists.a.id)).toBeUndefined();
    // An unsubscribed row may exist (history kept); it cannot be switched back on.
    const parked = { subscriber_id: id, list_id: lists.b.id, status: 'unsubscribed' as const };
    expect((await admin.from('subscriptions').insert(parked)).error).toBeNull();
    const answer = await admin
      .from('subscriptions')
      .update({ status: 'confirmed' })
      .match({ subscriber_id: id, list_id: lists.b.id });
    expect(answer.error).toMatchObject({ code: '23514' });
    expect(await statusOf(id, lists.b.id)).toBe('unsubscribed');
  });

  it('blocklisting unsubscribes from every list, with one event per subscription that changed', async () => {
    const id = await newSubscriber();
    const rows = [
      { subscriber_id: id, list_id: lists.a.id, status: 'pending' as const },
      { subscriber_id: id, list_id: lists.b.id, status: 'confirmed' as const },
      { subscriber_id: id, list_id: lists.c.id, status: 'unsubscribed' as const },
    ];
    expect((await admin.from('subscriptions').insert(rows)).error).toBeNull();
    const before = (await history(id)).length;
    const answer = await admin.from('subscribers').update({ status: 'blocklisted' }).eq('id', id);
    expect(answer.error).toBeNull();
    for (const list of [lists.a, lists.b, lists.c]) {
      expect(await statusOf(id, list.id)).toBe('unsubscribed');
    }
    const added = (await history(id)).slice(before);
    expect(added).toEqual(
      expect.arrayContaining([
        {
          type: 'unsubscribed',
          list: lists.a.slug,
          from: 'pending',
          to: 'unsubscribed',
          source: 'admin',
        },
        {
          type: 'unsubscribed',
          list: lists.b.slug,
          from: 'confirmed',
          to: 'unsubscribed',
          source: 'admin',
        },
      ]),
    );
    // One unsubscribe per subscription that changed, and the edit itself (enabled → blocklisted).
    expect(added.filter((e) => e.type === 'unsubscribed')).toHaveLength(2);
    expect(added.filter((e) => e.type === 'updated')).toHaveLength(1);
    expect(added).toHaveLength(3);
  });

  it("deleting a subscriber (owner) removes their history and leaves one anonymous 'deleted' event", async () => {
    const owner = team.users.owner.client;
    const id = await newSubscriber();
    await admin
      .from('subscriptions')
      .insert({ subscriber_id: id, list_id: lists.a.id, status: 'confirmed' });
    expect((await history(id)).length).toBeGreaterThan(0);
    const deletedEvents = async () =>
      (
        await admin
          .from('events')
          .select('id, subscriber_id, data')
          .eq('type', 'deleted')
          .order('id')
      ).data!;
    const before = await deletedEvents();
    const answer = await owner.from('subscribers').delete().eq('id', id);
    expect(answer.error).toBeNull();
    expect(answer.status).toBe(204);
    expect((await team.service.from('subscribers').select('id').eq('id', id)).data).toEqual([]);
    expect(await history(id)).toEqual([]);
    const after = await deletedEvents();
    expect(after).toHaveLength(before.length + 1);
    expect(after.at(-1)).toMatchObject({ subscriber_id: null, data: { source: 'admin' } });
    expect(JSON.stringify(after.at(-1))).not.toContain(id);
  });
});

describe('nobody raises their own role', () => {
  it.each(['viewer', 'editor', 'admin'] as const)(
    'a %s cannot make themself owner (204, nothing changes)',
    async (role) => {
      const me = team.users[role];
      const answer = await me.client.from('members').update({ role: 'owner' }).eq('user_id', me.id);
      expect(answer.error).toBeNull();
      expect(answer.status).toBe(204);
      const { data } = await team.service.from('members').select('role').eq('user_id', me.id);
      expect(data).toEqual([{ role }]);
    },
  );

  it('a signed-in stranger cannot enrol themself (403, 42501)', async () => {
    const me = team.users.nonMember;
    const answer = await me.client
      .from('members')
      .insert({ user_id: me.id, email: me.email, role: 'owner' });
    expect(answer.status).toBe(403);
    expect(answer.error).toMatchObject({
      code: '42501',
      message: 'new row violates row-level security policy for table "members"',
    });
    const { data } = await team.service.from('members').select('role').eq('user_id', me.id);
    expect(data).toEqual([]);
  });

  it('a removed member loses access at once, with the same session', async () => {
    const leaver = await signedInUser(team.emu, team.service, 'viewer');
    expect((await leaver.client.from('subscribers').select('id')).data?.length).toBeGreaterThan(0);
    const removed = await team.users.owner.client.from('members').delete().eq('user_id', leaver.id);
    expect(removed.error).toBeNull();
    expect((await leaver.client.from('subscribers').select('id')).data).toEqual([]);
    expect((await leaver.client.from('settings').select('sender_email')).data).toEqual([]);
  });
});

describe('the team keeps an owner', () => {
  it('the last owner can neither demote nor remove themself (400, 23514)', async () => {
    const owner = team.users.owner;
    const refused = { code: '23514', message: 'The team must keep at least one owner.' };
    const demote = await owner.client
      .from('members')
      .update({ role: 'admin' })
      .eq('user_id', owner.id);
    expect(demote.status).toBe(400);
    expect(demote.error).toMatchObject(refused);
    const leave = await owner.client.from('members').delete().eq('user_id', owner.id);
    expect(leave.status).toBe(400);
    expect(leave.error).toMatchObject(refused);
    // Not even the service role breaks the rule.
    const forced = await team.service.from('members').delete().eq('user_id', owner.id);
    expect(forced.error).toMatchObject(refused);
    const { data } = await team.service.from('members').select('role').eq('user_id', owner.id);
    expect(data).toEqual([{ role: 'owner' }]);
  });

  it('with a second owner the first may step down, and then the second is the last', async () => {
    const first = await signedInUser(team.emu, team.service, 'owner');
    // The team now has two owners (the shared one and `first`): hand over, then try to leave.
    const second = team.users.owner;
    expect(
      (await first.client.from('members').update({ role: 'admin' }).eq('user_id', first.id)).error,
    ).toBeNull();
    const { data } = await team.service.from('members').select('role').eq('user_id', first.id);
    expect(data).toEqual([{ role: 'admin' }]);
    const leave = await second.client.from('members').delete().eq('user_id', second.id);
    expect(leave.error).toMatchObject({ code: '23514' });
  });

  // Last on purpose: it removes the shared owner, the only owner left after the test above.
  it('deleting the last owner’s account (auth admin API) cascades: nobody is left to protect', async () => {
    const owner = team.users.owner;
    const owners = await team.service.from('members').select('user_id').eq('role', 'owner');
    expect(owners.data).toEqual([{ user_id: owner.id }]);
    const gone = await team.service.auth.admin.deleteUser(owner.id);
    expect(gone.error).toBeNull();
    const left = await team.service.from('members').select('user_id').eq('user_id', owner.id);
    expect(left.data).toEqual([]);
  });
});
