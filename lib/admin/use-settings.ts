// Hooks of the settings page: the settings row, and the owner's save (revalidating it afterwards).
import { useCallback, useState } from 'react';
import { mutate } from 'swr';
import { supabase } from '../supabase';
import { queryKey, toQueryError, useQuery } from '../use-query';
import {
  getSettings,
  saveErrorFor,
  saveSettings,
  type Settings,
  type SettingsField,
  type SettingsForm,
} from './settings';

export const SETTINGS_KEY = queryKey('admin/settings');

export function useSettings() {
  return useQuery<Settings>(SETTINGS_KEY, async () => ({
    data: await getSettings(supabase),
    error: null,
  }));
}

export type SaveOutcome =
  { ok: true; settings: Settings } | { ok: false; field: SettingsField | 'form'; message: string };

export function useSaveSettings() {
  const [pending, setPending] = useState(false);
  const save = useCallback(async (form: Partial<SettingsForm>): Promise<SaveOutcome> => {
    setPending(true);
    try {
      const settings = await saveSettings(supabase, form);
      await mutate(SETTINGS_KEY, settings, { revalidate: false });
      return { ok: true, settings };
    } catch (error) {
      return { ok: false, ...saveErrorFor(toQueryError(error)) };
    } finally {
      setPending(false);
    }
  }, []);
  return { save, pending };
}
