// Hooks of /admin/lists/: the lists with their counts, and create/edit/delete that revalidate the
// lists and the dashboard afterwards.
import { useCallback } from 'react';
import { mutate } from 'swr';
import { supabase } from '../supabase';
import { queryKey, useQuery } from '../use-query';
import type { ListForm } from './list-form';
import { createList, deleteList, listLists, updateList } from './lists';

export const LISTS_KEY = queryKey('admin/lists');

/** Lists and every count that depends on them (dashboard totals, subscriber filters). */
export function revalidateLists(): Promise<unknown> {
  return mutate(
    (key) =>
      typeof key === 'string' &&
      (key.startsWith('admin/lists') ||
        key.startsWith('admin/dashboard') ||
        key.startsWith('admin/subscribers')),
  );
}

export function useLists() {
  return useQuery(LISTS_KEY, () => listLists(supabase));
}

export function useListWrites() {
  const create = useCallback(async (form: ListForm) => {
    const result = await createList(supabase, form);
    if (result.ok) await revalidateLists().catch(() => undefined);
    return result;
  }, []);
  const update = useCallback(async (id: string, form: ListForm) => {
    const result = await updateList(supabase, id, form);
    if (result.ok) await revalidateLists().catch(() => undefined);
    return result;
  }, []);
  const remove = useCallback(async (id: string) => {
    const result = await deleteList(supabase, id);
    if (result.ok) await revalidateLists().catch(() => undefined);
    return result;
  }, []);
  return { create, update, remove };
}
