// Hook behind the signup form: sends one subscribe request at a time and reports its real outcome.
// The request's code (the checks, the function call, reading its answer) is its own chunk, fetched
// when the visitor first focuses the form (`preload`) or at the latest on submit.
import { useCallback, useRef, useState } from 'react';
import type { SubscribeInput, SubscribeOutcome } from './subscribe';
import { MESSAGES } from './subscribe-messages';

let request: Promise<typeof import('./subscribe-request')> | undefined;

/** Starts loading the request's code; cheap to call again. */
export function preloadSubscribe(): void {
  request ??= import('./subscribe-request');
  // A failed load (offline) is tried again on the next call rather than remembered.
  request.catch(() => {
    request = undefined;
  });
}

async function loadSubscribe(): Promise<typeof import('./subscribe-request')> {
  preloadSubscribe();
  return request!;
}

export function useSubscribe(): {
  subscribe: (input: SubscribeInput) => Promise<SubscribeOutcome>;
  pending: boolean;
  preload: () => void;
} {
  const [pending, setPending] = useState(false);
  const inFlight = useRef<Promise<SubscribeOutcome> | null>(null);

  const subscribe = useCallback((input: SubscribeInput) => {
    // A double click or a second Enter joins the request already on its way.
    if (inFlight.current) return inFlight.current;
    const current = (async (): Promise<SubscribeOutcome> => {
      try {
        let sendSubscribe;
        try {
          ({ sendSubscribe } = await loadSubscribe());
        } catch {
          // The code could not be fetched: as unreachable as the function itself.
          return { ok: false, code: 'unreachable', field: null, message: MESSAGES.unreachable };
        }
        return await sendSubscribe(input, () => setPending(true));
      } finally {
        inFlight.current = null;
        setPending(false);
      }
    })();
    inFlight.current = current;
    return current;
  }, []);

  return { subscribe, pending, preload: preloadSubscribe };
}
