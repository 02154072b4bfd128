// Hook of the "Export CSV" buttons: runs export-subscribers for a rule set (the page's filter or a
// selection), hears the rows written so far on a Realtime topic of its own while it runs, and keeps
// the answer (the signed URL and the row count) or the error to show beside the button.
import type { RealtimeChannel } from '@supabase/supabase-js';
import { useCallback, useEffect, useRef, useState } from 'react';
import { supabase } from '../supabase';
import { randomUuid } from '../uuid';
import { toQueryError } from '../use-query';
import { exportProgressTopic } from '../export-progress-topic';
import { exportSubscribers, withReportedRows, type ExportResult, type ExportState } from './export';
import type { RuleGroup } from './subscriber-rules';

/** How long the export waits for its progress channel: without Realtime it runs all the same. */
const JOIN_WAIT_MS = 2_000;

/** Joins `channel`, resolving once it is joined, failed, or JOIN_WAIT_MS have passed. */
function joinBriefly(channel: RealtimeChannel): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, JOIN_WAIT_MS);
    channel.subscribe((status) => {
      if (status === 'SUBSCRIBED' || status === 'CHANNEL_ERROR' || status === 'TIMED_OUT') {
        clearTimeout(timer);
        resolve();
      }
    });
  });
}

export function useExportSubscribers() {
  const [state, setState] = useState<ExportState>({ status: 'idle' });
  const channel = useRef<RealtimeChannel | null>(null);
  const leave = useCallback(() => {
    if (channel.current) void supabase.removeChannel(channel.current);
    channel.current = null;
  }, []);
  useEffect(() => leave, [leave]);

  const run = useCallback(
    async (rules: () => RuleGroup): Promise<ExportResult | null> => {
      setState({ status: 'pending', rows: null });
      leave();
      let chosen: RuleGroup;
      try {
        chosen = rules();
      } catch (error) {
        setState({ status: 'error', message: toQueryError(error).message });
        return null;
      }
      const progress = randomUuid();
      const listening = supabase
        .channel(exportProgressTopic(progress))
        .on('broadcast', { event: 'progress' }, ({ payload }) =>
          setState((now) => withReportedRows(now, payload)),
        );
      channel.current = listening;
      try {
        await joinBriefly(listening);
        const result = await exportSubscribers(supabase, chosen, progress);
        setState({ status: 'ready', result });
        return result;
      } catch (error) {
        setState({ status: 'error', message: toQueryError(error).message });
        return null;
      } finally {
        if (channel.current === listening) leave();
      }
    },
    [leave],
  );
  const reset = useCallback(() => setState({ status: 'idle' }), []);
  return { state, run, reset };
}
