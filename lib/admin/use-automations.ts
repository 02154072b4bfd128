// Hooks of /admin/automations/: the list with counts, one automation with its steps, its report,
// and writes that revalidate them afterwards. Live through the private topic team:automations
// (migration 20261202100000): a message naming an automation re-reads what the page shows of it;
// only while the channel is down do the pages poll (every 10 s) instead.
import { useCallback, useEffect, useState } from 'react';
import { mutate } from 'swr';
import { supabase } from '../supabase';
import { queryKey, useQuery } from '../use-query';
import { concerns, debounced, listenTeam } from '../realtime/team-channel';
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
import { getAutomationReport } from './automation-report';
import type { LiveStatus } from './live-channel';

/** Polling while Realtime is down (a missed message is read at the next join anyway). */
const FALLBACK_MS = 10_000;
/** A send records results in groups: the report is read again at most this often. */
const LIVE_DELAY_MS = 300;

const fallback = (live: LiveStatus) => (live === 'offline' ? FALLBACK_MS : 0);

const LIST = queryKey('admin/automations');
const oneKey = (id: string) => queryKey('admin/automations/one', { id });
const reportKey = (id: string) => queryKey('admin/automations/report', { id });

function revalidate(): Promise<unknown> {
  return mutate((key) => typeof key === 'string' && key.startsWith('admin/automations'));
}

/** The list, or one automation and its report, read again (not the tags the editor offers). */
function revalidateLive(id: string | null): Promise<unknown> {
  if (!id) return mutate(LIST);
  return Promise.all([mutate(LIST), mutate(oneKey(id)), mutate(reportKey(id))]);
}

export function useAutomations(live: LiveStatus) {
  return useQuery(LIST, () => listAutomations(supabase), { refreshInterval: fallback(live) });
}

export function useAutomation(id: string | null, live: LiveStatus) {
  return useQuery(id ? oneKey(id) : null, () => getAutomation(supabase, id!), {
    refreshInterval: fallback(live),
  });
}

/** The report per automation and per step (automation-report.ts). */
export function useAutomationReport(id: string | null, live: LiveStatus) {
  return useQuery(id ? reportKey(id) : null, () => getAutomationReport(supabase, id!), {
    refreshInterval: fallback(live),
    keepPreviousData: true,
  });
}

/**
 * Listens to team:automations while mounted: every message (the list, `id` null) or those naming
 * `id` re-read the page's queries, debounced; each join re-reads too (what changed while the
 * socket was down sent this tab nothing). Answers the channel's status for the page to show.
 */
export function useLiveAutomations(id: string | null): LiveStatus {
  const [status, setStatus] = useState<LiveStatus>('connecting');
  useEffect(() => {
    const changed = debounced(() => void revalidateLive(id), LIVE_DELAY_MS);
    const stop = listenTeam('team:automations', {
      onMessage: (message) => {
        if (id === null || concerns(message, id)) changed();
      },
      onJoin: () => void revalidateLive(id),
      onStatus: setStatus,
    });
    return () => {
      stop();
      changed.cancel();
    };
  }, [id]);
  return status;
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
