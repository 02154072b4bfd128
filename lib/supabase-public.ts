// The public pages' lean Supabase clients: REST (postgrest-js) and edge functions (functions-js),
// the two parts of supabase-js they use, as the anon role with the publishable key. No Auth and no
// Realtime here: pages that show something live load lib/supabase.ts on demand (onBroadcast).
import { FunctionsClient } from '@supabase/functions-js';
import { PostgrestClient } from '@supabase/postgrest-js';
import type { Database } from './database.types';
import { SUPABASE_PUBLISHABLE_KEY, SUPABASE_URL } from './config';

/** What supabase-js sends: the key as `apikey`, and as a Bearer token only when it is a JWT. */
function anonHeaders(): Record<string, string> {
  const headers: Record<string, string> = { apikey: SUPABASE_PUBLISHABLE_KEY };
  const newKey = /^sb_(publishable|secret)_/.test(SUPABASE_PUBLISHABLE_KEY);
  if (!newKey) headers.Authorization = `Bearer ${SUPABASE_PUBLISHABLE_KEY}`;
  return headers;
}

/** `publicRest.from('lists')…`, `publicRest.rpc('archive_issues', …)` as the anon role. */
export const publicRest = new PostgrestClient<Database>(`${SUPABASE_URL}/rest/v1`, {
  headers: anonHeaders(),
});

/** `publicFunctions.invoke('subscribe', { body })` as the anon role. */
export const publicFunctions = new FunctionsClient(`${SUPABASE_URL}/functions/v1`, {
  headers: anonHeaders(),
});

/**
 * Calls `handler` on every `event` broadcast on the public `topic`; returns the unsubscribe. The
 * Realtime client comes with the full supabase-js client (lib/supabase.ts), loaded on demand as its
 * own chunk, so only pages that show something live ever download it.
 */
export function onBroadcast(topic: string, event: string, handler: () => void): () => void {
  let stopped = false;
  let stop: (() => void) | undefined;
  void import('./supabase').then(({ supabase }) => {
    if (stopped) return;
    const channel = supabase.channel(topic).on('broadcast', { event }, handler).subscribe();
    stop = () => void supabase.removeChannel(channel);
  });
  return () => {
    stopped = true;
    stop?.();
  };
}
