// Realtime for the public pages: only supabase-js's Realtime client (its re-export of realtime-js),
// without Auth, PostgREST, Storage and Functions, which a visitor's page never uses. Loaded on
// demand by onBroadcast (lib/supabase-public.ts): about a quarter of the full client's code to
// evaluate, and no auth client starting up (session storage, locks, timers) on a phone's first load.
import { RealtimeClient } from '@supabase/supabase-js';
import { SUPABASE_PUBLISHABLE_KEY, SUPABASE_URL } from './config';

/** `ws(s)://<project>/realtime/v1`, as createClient() builds it. */
function realtimeUrl(): string {
  const url = new URL(
    'realtime/v1',
    SUPABASE_URL.endsWith('/') ? SUPABASE_URL : `${SUPABASE_URL}/`,
  );
  url.protocol = url.protocol.replace('http', 'ws');
  return url.href;
}

/**
 * The anon role's connection, as createClient() makes it for a visitor without a session: the key
 * as `apikey` and as the access token.
 */
export const publicRealtime = new RealtimeClient(realtimeUrl(), {
  params: { apikey: SUPABASE_PUBLISHABLE_KEY },
  accessToken: async () => SUPABASE_PUBLISHABLE_KEY,
});
