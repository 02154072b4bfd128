// Per-table fixtures for the RLS matrix: how to arrange a target row as service role, what an
// insert or update by the caller looks like, and how to find the row again.
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { expectRefused } from './cases';
import type { Table } from './matrix';
import type { Probe } from './probe-types';
import { createAuthUser, uniqueEmail, untyped, type Client } from './team-kit';

export type { Key, Probe } from './probe-types';

export async function one<R extends { data: unknown; error: { message: string } | null }>(
  promise: PromiseLike<R>,
  what: string,
): Promise<NonNullable<R['data']>> {
  const { data, error } = await promise;
  if (error || data === null || data === undefined) {
    throw new Error(`${what}: ${error?.message ?? 'no data'}`);
  }
  return data as NonNullable<R['data']>;
}

/** Builds the probes over one service client and a private list used for subscriptions. */
export function makeProbes(serviceClient: Client, listId: string): Record<Table, Probe> {
  const service = untyped(serviceClient);
  const newSubscriber = async () =>
    (
      await one(
        serviceClient
          .from('subscribers')
          .insert({ email: uniqueEmail('sub') })
          .select('id')
          .single(),
        'seed subscriber',
      )
    ).id;
  const newMember = async () => {
    const email = uniqueEmail('member');
    const userId = await createAuthUser(serviceClient, email);
    return { user_id: userId, email, role: 'viewer' };
  };
  let savedSettings: Record<string, unknown> | null = null;

  return {
    settings: {
      table: 'settings',
      columns: '*',
      seed: async () => ({ id: true }),
      newRow: async () => ({
        row: { id: true, site_name: 'Inserted', sender_email: 'inserted@example.com' },
        key: { id: true },
      }),
      change: () => ({ tagline: `changed ${randomUUID()}` }),
      async beforeAllowedInsert() {
        savedSettings = await one(service.from('settings').select('*').single(), 'read settings');
        await one(service.from('settings').delete().eq('id', true).select(), 'clear settings');
      },
      // The four public columns, and nothing else: any other column is a missing grant.
      async checkPublic(db, actor) {
        const columns = 'site_name, tagline, logo_path, show_subscriber_count';
        const seen = await db.from('settings').select(columns);
        expect(seen.error).toBeNull();
        expect(seen.data).toHaveLength(1);
        expect(seen.data).toEqual((await service.from('settings').select(columns)).data);
        expectRefused(
          await db.from('settings').select('sender_email'),
          actor,
          'no-grant',
          'settings',
        );
        expectRefused(await db.from('settings').select('*'), actor, 'no-grant', 'settings');
      },
      async afterAllowedDelete() {
        await one(
          service
            .from('settings')
            .upsert(savedSettings ?? { id: true })
            .select(),
          'restore settings',
        );
      },
    },
    members: {
      table: 'members',
      columns: '*',
      async seed() {
        const row = await newMember();
        await one(service.from('members').insert(row).select(), 'seed member');
        return { user_id: row.user_id };
      },
      async newRow() {
        const row = await newMember();
        return { row, key: { user_id: row.user_id } };
      },
      change: () => ({ role: 'editor' }),
    },
    lists: {
      table: 'lists',
      columns: '*',
      async seed() {
        const slug = `rls-${randomUUID().slice(0, 8)}`;
        await one(service.from('lists').insert({ slug, name: slug }).select(), 'seed list');
        return { slug };
      },
      async newRow() {
        const slug = `rls-new-${randomUUID().slice(0, 8)}`;
        return { row: { slug, name: 'New list', visibility: 'private' }, key: { slug } };
      },
      change: () => ({ name: `Renamed ${randomUUID().slice(0, 8)}` }),
      // Every public list and no private one (a fresh one of each, so neither set is empty).
      async checkPublic(db) {
        for (const visibility of ['public', 'private']) {
          const slug = `rls-${visibility}-${randomUUID().slice(0, 8)}`;
          await one(
            service.from('lists').insert({ slug, name: slug, visibility }).select(),
            'seed',
          );
        }
        const all = await one(service.from('lists').select('slug, visibility'), 'all lists');
        const seen = await db.from('lists').select('slug, visibility');
        expect(seen.error).toBeNull();
        const slugs = (rows: { slug: string; visibility: string }[], only?: string) =>
          rows
            .filter((l) => !only || l.visibility === only)
            .map((l) => l.slug)
            .sort();
        expect(slugs(seen.data!)).toEqual(slugs(all, 'public'));
        expect(slugs(all, 'private').length).toBeGreaterThan(0);
      },
    },
    subscribers: {
      table: 'subscribers',
      columns: '*',
      seed: async () => ({ id: await newSubscriber() }),
      async newRow() {
        const email = uniqueEmail('new');
        return { row: { email, name: 'New' }, key: { email } };
      },
      change: () => ({ name: `Renamed ${randomUUID().slice(0, 8)}` }),
    },
    subscriptions: {
      table: 'subscriptions',
      columns: '*',
      async seed() {
        const subscriberId = await newSubscriber();
        await one(
          service
            .from('subscriptions')
            .insert({ subscriber_id: subscriberId, list_id: listId })
            .select(),
          'seed subscription',
        );
        return { subscriber_id: subscriberId, list_id: listId };
      },
      async newRow() {
        const subscriberId = await newSubscriber();
        const key = { subscriber_id: subscriberId, list_id: listId };
        return { row: { ...key, status: 'pending' }, key };
      },
      change: () => ({ status: 'confirmed' }),
    },
    events: {
      table: 'events',
      columns: '*',
      async seed() {
        const probe = randomUUID();
        await one(
          service.from('events').insert({ type: 'imported', data: { probe } }).select(),
          'seed event',
        );
        return { 'data->>probe': probe };
      },
      async newRow() {
        const probe = randomUUID();
        return { row: { type: 'imported', data: { probe } }, key: { 'data->>probe': probe } };
      },
      change: () => ({ type: 'exported' }),
    },
  };
}
