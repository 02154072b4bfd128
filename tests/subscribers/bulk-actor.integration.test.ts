// Subscription events name who made the change (issue 23): a bulk add, confirm and unsubscribe by an
// admin, and a single change on a subscriber's page by the owner, leave `actor` {id, email} in each
// subscription event, as the 'updated' and 'removed' events do; a visitor's own subscribe leaves
// none.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBulk } from '../../lib/admin/subscriber-bulk';
import type { RuleGroup } from '../../lib/admin/subscriber-rules';
import { sql } from '../functions/kit';
import { createTeam, startIsolatedEmulator, untyped, type Team } from '../rls/team-kit';

let team: Team;
const tag = `actor${randomUUID().slice(0, 6)}`;
const mine: RuleGroup = { match: 'all', rules: [{ field: 'search', op: 'contains', value: tag }] };
const lists: Record<string, string> = {};

beforeAll(async () => {
  team = await createTeam(await startIsolatedEmulator());
  for (const row of await sql<{ id: string; slug: string }>(
    team.emu,
    `select id, slug from public.lists`,
  ))
    lists[row.slug] = row.id;
  await sql(
    team.emu,
    `insert into public.subscribers (email)
     select $1 || '-' || i || '@example.com' from generate_series(1, 5) i`,
    [tag],
  );
}, 120_000);
afterAll(async () => {
  await team?.emu.stop();
});

async function eventsSince(since: Date) {
  return sql<{ type: string; data: { list: string; actor: unknown; source: string } }>(
    team.emu,
    `select e.type, e.data from public.events e
      join public.subscribers s on s.id = e.subscriber_id
     where s.email like $1 || '-%' and e.created_at >= $2 order by e.id`,
    [tag, since],
  );
}

describe('subscription events carry the actor', () => {
  it('names the admin on every event of a bulk add, confirm and unsubscribe', async () => {
    const admin = { id: team.users.admin.id, email: team.users.admin.email };
    const client = untyped(team.client('admin'));
    const since = new Date();
    await runBulk(client, 'add', mine, { list: lists.newsletter, status: 'pending' });
    await runBulk(client, 'confirm', mine, { list: lists.newsletter });
    await runBulk(client, 'unsubscribe', mine, { list: lists.newsletter });
    const events = await eventsSince(since);
    expect(events.map((e) => e.type).sort()).toEqual(
      [
        ...Array(5).fill('subscribed'),
        ...Array(5).fill('confirmed'),
        ...Array(5).fill('unsubscribed'),
      ].sort(),
    );
    for (const event of events) {
      expect(event.data).toMatchObject({ list: 'newsletter', source: 'admin', actor: admin });
    }
  });

  it('names the owner on a single change made on the subscriber page', async () => {
    const [one] = await sql<{ id: string }>(
      team.emu,
      `select id from public.subscribers where email = $1`,
      [`${tag}-1@example.com`],
    );
    const since = new Date();
    const { error } = await untyped(team.client('owner'))
      .from('subscriptions')
      .update({ status: 'confirmed' })
      .eq('subscriber_id', one!.id)
      .eq('list_id', lists.newsletter);
    expect(error).toBeNull();
    const events = await eventsSince(since);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'resubscribed',
      data: { actor: { id: team.users.owner.id, email: team.users.owner.email } },
    });
  });

  it('leaves it empty for changes nobody on the team made', async () => {
    const since = new Date();
    await sql(
      team.emu,
      `update public.subscriptions set status = 'unsubscribed'
        where subscriber_id in (select id from public.subscribers where email like $1 || '-%')
          and status = 'confirmed'`,
      [tag],
    );
    const events = await eventsSince(since);
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) expect(event.data.actor).toBeNull();
  });
});
