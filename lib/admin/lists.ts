// Reads and writes of the lists table for /admin/lists/ and the dashboard; they take the client so
// the hooks pass the browser's and tests may pass a member's.
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '../database.types';
import type { SupabaseResult } from '../use-query';
import {
  listValues,
  listWriteError,
  type ListForm,
  type ListRow,
  type ListWriteError,
} from './list-form';

type Client = SupabaseClient<Database>;

export interface ListCounts {
  pending: number;
  confirmed: number;
  unsubscribed: number;
}

export type ListWithCounts = ListRow & { counts: ListCounts };

const ZERO: ListCounts = { pending: 0, confirmed: 0, unsubscribed: 0 };

/** Every list the caller may read, oldest first (then by name), each with its subscription counts. */
export async function listLists(client: Client): Promise<SupabaseResult<ListWithCounts[]>> {
  const [lists, counts] = await Promise.all([
    client.from('lists').select('*').order('created_at').order('name').order('id'),
    client.rpc('list_subscription_counts'),
  ]);
  if (lists.error) return { data: null, error: lists.error, status: lists.status };
  if (counts.error) return { data: null, error: counts.error, status: counts.status };
  const byList = new Map(
    (counts.data ?? []).map((c) => [
      c.list_id,
      {
        pending: Number(c.pending),
        confirmed: Number(c.confirmed),
        unsubscribed: Number(c.unsubscribed),
      },
    ]),
  );
  return {
    data: (lists.data ?? []).map((list) => ({ ...list, counts: byList.get(list.id) ?? ZERO })),
    error: null,
  };
}

export type ListWriteResult = { ok: true; list: ListRow } | ({ ok: false } & ListWriteError);

const REFUSED: ListWriteError = {
  field: null,
  message: 'You do not have permission to do that.',
};

export async function createList(client: Client, form: ListForm): Promise<ListWriteResult> {
  const { data, error } = await client.from('lists').insert(listValues(form)).select().single();
  if (error) return { ok: false, ...listWriteError(error) };
  return { ok: true, list: data };
}

export async function updateList(
  client: Client,
  id: string,
  form: ListForm,
): Promise<ListWriteResult> {
  const { data, error } = await client.from('lists').update(listValues(form)).eq('id', id).select();
  if (error) return { ok: false, ...listWriteError(error) };
  // RLS hides a refused update: no error, no row. The list may also have been deleted meanwhile.
  const row = data?.[0];
  if (!row)
    return {
      ok: false,
      ...REFUSED,
      message: 'This list could not be saved: it was deleted, or you may not edit lists.',
    };
  return { ok: true, list: row };
}

export async function deleteList(
  client: Client,
  id: string,
): Promise<{ ok: true } | ({ ok: false } & ListWriteError)> {
  const { data, error } = await client.from('lists').delete().eq('id', id).select('id');
  if (error) return { ok: false, ...listWriteError(error) };
  if (!data?.length) {
    return {
      ok: false,
      field: null,
      message: 'This list could not be deleted: it is already gone, or you may not delete lists.',
    };
  }
  return { ok: true };
}
