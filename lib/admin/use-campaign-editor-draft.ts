// The editor's working copy of a draft: what the user typed lives here, is saved a moment after
// they stop typing (or at once with Save / Ctrl+S), and is never replaced by a failed save.
import { useCallback, useEffect, useRef, useState } from 'react';
import { supabase } from '../supabase';
import { saveCampaign, saveCampaignLists } from './campaign-editor';
import {
  campaignValues,
  hasErrors,
  validateCampaign,
  type CampaignErrors,
  type CampaignForm,
} from './campaign-editor-form';
import { storeCampaignRow } from './use-campaign-editor';

export type SaveState = 'saved' | 'unsaved' | 'saving' | 'error';

/** Long enough not to save on every key, short enough that a closed tab loses little. */
export const AUTOSAVE_DELAY_MS = 1200;

const same = (a: CampaignForm, b: CampaignForm) =>
  JSON.stringify(campaignValues(a)) === JSON.stringify(campaignValues(b));
const sameLists = (a: string[], b: string[]) => [...a].sort().join() === [...b].sort().join();

export function useCampaignDraft(
  id: string,
  initial: { form: CampaignForm; listIds: string[] },
  editable: boolean,
) {
  const [form, setForm] = useState(initial.form);
  const [listIds, setListIds] = useState(initial.listIds);
  const [state, setState] = useState<SaveState>('saved');
  const [errors, setErrors] = useState<CampaignErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [savedAt, setSavedAt] = useState<Date | null>(null);
  // What the database holds, and the latest input (read by the timer and by save()).
  const saved = useRef({ form: initial.form, listIds: initial.listIds });
  const latest = useRef({ form, listIds });
  latest.current = { form, listIds };
  const inFlight = useRef<Promise<boolean> | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const isDirty = useCallback(
    () =>
      !same(latest.current.form, saved.current.form) ||
      !sameLists(latest.current.listIds, saved.current.listIds),
    [],
  );

  /** Saves what is typed now; true when the database then holds it. */
  const save = useCallback(async (): Promise<boolean> => {
    clearTimeout(timer.current);
    // One save at a time; a change made meanwhile is saved right after.
    while (inFlight.current) await inFlight.current;
    if (!isDirty()) {
      setState('saved');
      return true;
    }
    const { form: current, listIds: lists } = latest.current;
    const found = validateCampaign(current);
    setErrors(found);
    if (hasErrors(found)) {
      setState('error');
      setFormError(null);
      return false;
    }
    setState('saving');
    const run = (async () => {
      if (!sameLists(lists, saved.current.listIds)) {
        const result = await saveCampaignLists(supabase, id, lists, saved.current.listIds);
        if (!result.ok) return result;
        saved.current = { ...saved.current, listIds: lists };
      }
      if (!same(current, saved.current.form)) {
        const result = await saveCampaign(supabase, id, current);
        if (!result.ok) return result;
        saved.current = { ...saved.current, form: current };
        await storeCampaignRow(result.campaign);
      }
      return { ok: true as const };
    })();
    const done = run.then(
      (r) => r.ok,
      () => false,
    );
    inFlight.current = done;
    const result = await run.catch(() => ({
      ok: false as const,
      field: null,
      message: 'We could not reach the server. Check your connection and try again.',
    }));
    inFlight.current = null;
    if (!result.ok) {
      setState('error');
      if (result.field) setErrors({ [result.field]: result.message });
      else setFormError(result.message);
      return false;
    }
    setFormError(null);
    setSavedAt(new Date());
    // Typed while saving: that is unsaved, and the timer picks it up.
    if (isDirty()) {
      setState('unsaved');
      timer.current = setTimeout(() => void save(), AUTOSAVE_DELAY_MS);
    } else {
      setState('saved');
    }
    return true;
  }, [id, isDirty]);

  const schedule = useCallback(() => {
    setState('unsaved');
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void save(), AUTOSAVE_DELAY_MS);
  }, [save]);

  const set = useCallback(
    <K extends keyof CampaignForm>(name: K, value: CampaignForm[K]) => {
      if (!editable) return;
      setForm((f) => ({ ...f, [name]: value }));
      setErrors((e) => (e[name] ? { ...e, [name]: undefined } : e));
      schedule();
    },
    [editable, schedule],
  );

  const setLists = useCallback(
    (next: string[]) => {
      if (!editable) return;
      setListIds(next);
      setErrors((e) => (e.lists ? { ...e, lists: undefined } : e));
      schedule();
    },
    [editable, schedule],
  );

  // Closing the tab with unsaved changes asks first; leaving through the admin's own links
  // (the page unmounts) saves at once instead of dropping the pending autosave.
  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (isDirty()) event.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => {
      window.removeEventListener('beforeunload', warn);
      clearTimeout(timer.current);
      if (editable && isDirty()) void save();
    };
  }, [isDirty, save, editable]);

  return {
    form,
    listIds,
    set,
    setLists,
    save,
    state,
    errors,
    setErrors,
    formError,
    savedAt,
  };
}
