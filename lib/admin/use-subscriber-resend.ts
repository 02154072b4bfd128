// Hooks of the confirmation resend: starting one (the subscriber page's button, the bulk dialog)
// and watching a send's progress row until it is done (a short poll: the row moves only while the
// function mails, and nothing else on the page listens for it).
import { useCallback, useState } from 'react';
import { supabase } from '../supabase';
import { queryKey, toQueryError, useQuery, type QueryError } from '../use-query';
import {
  getImportSend,
  getSend,
  startResend,
  type ConfirmationSend,
  type ResendTarget,
} from './subscriber-resend';

const POLL_MS = 1000;
/**
 * SWR asks for the interval when the key is set, before the first answer (undefined), and then
 * after each answer. A stable function that said 0 for "no answer yet" never polled at all: the
 * page stayed at "0 of 1 sent" while the send finished.
 */
const polling = (send: ConfirmationSend | null | undefined) =>
  send === undefined || (send !== null && send.status !== 'done') ? POLL_MS : 0;

/** The send `id`, re-read every second until it is done (null: none yet). */
export function useConfirmationSend(id: string | null) {
  return useQuery(
    id ? queryKey('admin/confirmation-sends/one', { id }) : null,
    async () => ({ data: await getSend(supabase, id!), error: null }),
    { refreshInterval: polling },
  );
}

/** The send an import's option queued (null: none, or no import yet). */
export function useImportConfirmationSend(importId: string | null) {
  return useQuery(
    importId ? queryKey('admin/confirmation-sends/import', { importId }) : null,
    async () => ({ data: await getImportSend(supabase, importId!), error: null }),
    { refreshInterval: (send) => (send === null ? POLL_MS : polling(send)) },
  );
}

/** Starts sends one at a time; the latest one's id is watched by `useConfirmationSend`. */
export function useResendConfirmation() {
  const [sendId, setSendId] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<QueryError | null>(null);
  const send = useConfirmationSend(sendId);
  const start = useCallback(async (target: ResendTarget): Promise<boolean> => {
    setStarting(true);
    setError(null);
    try {
      const started = await startResend(supabase, target);
      setSendId(started.id);
      return true;
    } catch (err) {
      setError(toQueryError(err));
      return false;
    } finally {
      setStarting(false);
    }
  }, []);
  const reset = useCallback(() => {
    setSendId(null);
    setError(null);
  }, []);
  return { start, reset, starting, error, send: send.data ?? null, sendError: send.error ?? null };
}
