// A subscriber's preferences by signed token: read, save changes, unsubscribe from all, export
// everything held on the address, delete it. Writes put the answer in the cache (no refetch).
import { useCallback } from 'react';
import { asQueryResult, type FunctionOutcome } from './functions';
import { invokeFunction } from './invoke';
import {
  parseDeleted,
  parseExport,
  parsePreferences,
  type Preferences,
  type PreferencesChanges,
} from './preferences';
import { usePublicQuery } from './use-public-query';
import { queryKey, type QueryError } from './query';

export function preferencesKey(token: string): string {
  return queryKey('preferences', { token });
}

export interface PreferencesActions {
  save: (changes: PreferencesChanges) => Promise<FunctionOutcome<Preferences>>;
  unsubscribeAll: () => Promise<FunctionOutcome<Preferences>>;
  exportData: () => Promise<FunctionOutcome<{ data: Record<string, unknown> }>>;
  deleteData: () => Promise<FunctionOutcome<{ deleted: true }>>;
}

export function usePreferences(token: string | null): {
  data: Preferences | null | undefined;
  error: QueryError | undefined;
  isLoading: boolean;
} & PreferencesActions {
  const { data, error, isLoading, mutate } = usePublicQuery(
    token ? preferencesKey(token) : null,
    async () =>
      asQueryResult(
        await invokeFunction('preferences', parsePreferences, {
          method: 'GET',
          query: { token: token ?? '' },
        }),
      ),
    // The form holds what the visitor is editing; a refetch on focus must not surprise them.
    { revalidateOnFocus: false, shouldRetryOnError: false },
  );

  const write = useCallback(
    async (body: Record<string, unknown>) => {
      const outcome = await invokeFunction('preferences', parsePreferences, {
        body: { token, ...body },
      });
      if (outcome.ok) await mutate(outcome.data, { revalidate: false });
      return outcome;
    },
    [token, mutate],
  );

  const save = useCallback((changes: PreferencesChanges) => write({ ...changes }), [write]);
  const unsubscribeAll = useCallback(() => write({ action: 'unsubscribe_all' }), [write]);
  const exportData = useCallback(
    () => invokeFunction('preferences', parseExport, { body: { token, action: 'export' } }),
    [token],
  );
  const deleteData = useCallback(
    () => invokeFunction('preferences', parseDeleted, { body: { token, action: 'delete' } }),
    [token],
  );

  return { data, error, isLoading, save, unsubscribeAll, exportData, deleteData };
}
