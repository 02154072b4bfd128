// The editor's working copy of a draft: what the user typed lives here, is saved a moment after
// they stop typing (or at once with Save / Ctrl+S), and is never replaced by a failed save. A new
// campaign (id null) exists only from its first save, so opening New campaign leaves no orphan.
// A paused campaign saves only its content (name, subject, preheader, body).
import { useCallback, useEffect, useRef, useState } from 'react';
import { supabase } from '../supabase';
import { createCampaign, saveCampaign, saveCampaignLists } from './campaign-editor';
import {
  type CampaignRow,
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
  id: string | null,
  initial: { form: CampaignForm; listIds: string[] },
  editable: boolean,
  options: { paused?: boolean; onCreated?: (row: CampaignRow) => void } = {},
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
  // The campaign's id once it exists (a new one gets it at its first save).
  const idRef = useRef(id);
  const [currentId, setCurrentId] = useState(id);
  const optionsRef = useRef(options);
  optionsRef.current = options;
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
    // A Save (or a send) of a new campaign creates it even when nothing was typed.
    if (!isDirty() && idRef.current) {
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
      let known = idRef.current;
      if (!known) {
        // The row first, then its lists as for any draft (a refused list then sits at the picker
        // of a campaign that exists, and is not created twice).
        const result = await createCampaign(supabase, current, []);
        if (!result.ok) return result;
        known = result.campaign.id;
        idRef.current = known;
        setCurrentId(known);
        saved.current = { form: current, listIds: [] };
        optionsRef.current.onCreated?.(result.campaign);
      }
      if (!optionsRef.current.paused && !sameLists(lists, saved.current.listIds)) {
        const result = await saveCampaignLists(supabase, known, lists, saved.current.listIds);
        if (!result.ok) return result;
        saved.current = { ...saved.current, listIds: lists };
      }
      if (!same(current, saved.current.form)) {
        const status = optionsRef.current.paused ? 'paused' : 'draft';
        const result = await saveCampaign(supabase, known, current, status);
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
  }, [isDirty]);

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
    /** The campaign's id: null until a new campaign's first save. */
    id: currentId,
    /** The id now, for an action that runs right after a save (state lags a render behind). */
    currentId: useCallback(() => idRef.current, []),
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
