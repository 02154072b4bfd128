// Hook behind the signup form: sends one subscribe request at a time and reports its real outcome.
import { useCallback, useRef, useState } from 'react';
import {
  prepareSubscribe,
  readSubscribeResult,
  type SubscribeInput,
  type SubscribeOutcome,
} from './subscribe';
import { publicFunctions } from './supabase-public';

export function useSubscribe(): {
  subscribe: (input: SubscribeInput) => Promise<SubscribeOutcome>;
  pending: boolean;
} {
  const [pending, setPending] = useState(false);
  const inFlight = useRef<Promise<SubscribeOutcome> | null>(null);

  const subscribe = useCallback((input: SubscribeInput) => {
    // A double click or a second Enter joins the request already on its way.
    if (inFlight.current) return inFlight.current;
    const prepared = prepareSubscribe(input);
    if (!prepared.ok) return Promise.resolve(prepared);
    setPending(true);
    const request = (async () => {
      try {
        return await readSubscribeResult(
          await publicFunctions.invoke('subscribe', { body: prepared.body }),
        );
      } finally {
        inFlight.current = null;
        setPending(false);
      }
    })();
    inFlight.current = request;
    return request;
  }, []);

  return { subscribe, pending };
}
