// Hooks of /admin/automations/: the list with counts, one automation with its steps, and writes that
// revalidate both afterwards. Counts refresh every 10 s while a page is open.
import { useCallback } from 'react';
import { mutate } from 'swr';
import { supabase } from '../supabase';
import { queryKey, useQuery } from '../use-query';
import {
  addStep,
  createAutomation,
  deleteStep,
  getAutomation,
  listAutomations,
  updateAutomation,
  updateStep,
  type AutomationChanges,
  type StepKind,
  type StepRow,
  type StepValues,
  type WriteResult,
} from './automations';

const REFRESH_MS = 10_000;

function revalidate(): Promise<unknown> {
  return mutate((key) => typeof key === 'string' && key.startsWith('admin/automations'));
}

export function useAutomations() {
  return useQuery(queryKey('admin/automations'), () => listAutomations(supabase), {
    refreshInterval: REFRESH_MS,
  });
}

export function useAutomation(id: string | null) {
  return useQuery(
    id ? queryKey('admin/automations/one', { id }) : null,
    () => getAutomation(supabase, id!),
    { refreshInterval: REFRESH_MS },
  );
}

/** Runs a write and, when it worked, revalidates every automation query. */
function after<T>(result: Promise<WriteResult<T>>): Promise<WriteResult<T>> {
  return result.then(async (r) => {
    if (r.ok) await revalidate().catch(() => undefined);
    return r;
  });
}

export function useAutomationWrites() {
  return {
    create: useCallback((name: string) => after(createAutomation(supabase, name)), []),
    update: useCallback(
      (id: string, changes: AutomationChanges) => after(updateAutomation(supabase, id, changes)),
      [],
    ),
    addStep: useCallback(
      (id: string, steps: Pick<StepRow, 'position'>[], values: StepValues & { kind: StepKind }) =>
        after(addStep(supabase, id, steps, values)),
      [],
    ),
    updateStep: useCallback(
      (id: string, values: StepValues) => after(updateStep(supabase, id, values)),
      [],
    ),
    deleteStep: useCallback((id: string) => after(deleteStep(supabase, id)), []),
  };
}

/** Tags a trigger or step may name (the tags table is the tags feature's; only read here). */
export function useAutomationTags() {
  return useQuery(queryKey('admin/automations/tags'), async () => {
    const result = await supabase.from('tags').select('id, name').order('name');
    return result;
  });
}
