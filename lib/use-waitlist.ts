// A waitlist place by referral code, kept live: the database announces confirmations on the public
// broadcast topic `waitlist:<slug>` (event 'positions', no personal data) and the page re-asks.
import { useEffect, useRef } from 'react';
import { asQueryResult } from './functions';
import { invokeFunction } from './invoke';
import { onBroadcast } from './supabase-public';
import { usePublicQuery } from './use-public-query';
import { queryKey, type QueryError } from './query';
import { parseWaitlistStanding, type WaitlistStanding } from './waitlist';

// Confirmations can come in bursts (an import, a busy launch): ask at most this often.
const REFETCH_DELAY_MS = 300;

export function waitlistKey(code: string, list?: string | null): string {
  return queryKey('waitlist', { code, list: list || undefined });
}

export function useWaitlist(
  code: string | null,
  list?: string | null,
): {
  data: WaitlistStanding | null | undefined;
  error: QueryError | undefined;
  isLoading: boolean;
  isValidating: boolean;
  refresh: () => Promise<unknown>;
} {
  const { data, error, isLoading, isValidating, mutate } = usePublicQuery(
    code ? waitlistKey(code, list) : null,
    async () =>
      asQueryResult(
        await invokeFunction('waitlist', parseWaitlistStanding, {
          method: 'GET',
          query: { code: code ?? '', list: list || undefined },
        }),
      ),
    { shouldRetryOnError: false },
  );
  useWaitlistUpdates(data?.list.slug ?? null, () => void mutate());
  return { data, error, isLoading, isValidating, refresh: () => mutate() };
}

/** Calls `onChange` (debounced) whenever positions on the waitlist `slug` may have moved. */
export function useWaitlistUpdates(slug: string | null, onChange: () => void): void {
  const latest = useRef(onChange);
  useEffect(() => {
    latest.current = onChange;
  });
  useEffect(() => {
    if (!slug) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = onBroadcast(`waitlist:${slug}`, 'positions', () => {
      clearTimeout(timer);
      timer = setTimeout(() => latest.current(), REFETCH_DELAY_MS);
    });
    return () => {
      clearTimeout(timer);
      stop();
    };
  }, [slug]);
}
