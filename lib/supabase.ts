// The one browser Supabase client of the site, created once (components reach it through hooks only).
import { createClient } from '@supabase/supabase-js';
import type { Database } from './database.types';
import { SUPABASE_PUBLISHABLE_KEY, SUPABASE_URL } from './config';

export const supabase = createClient<Database>(SUPABASE_URL, SUPABASE_PUBLISHABLE_KEY, {
  auth: {
    // Static pages, one origin: keep the team session in localStorage.
    persistSession: true,
    autoRefreshToken: true,
    // Magic links use PKCE: the emailed link only works in the browser that asked for it, and the
    // tokens never appear in the URL. `/auth/callback/` exchanges the code itself (lib/use-session.ts),
    // so no other page (e.g. `/waitlist/?code=<referral>`) is ever mistaken for a sign-in callback.
    flowType: 'pkce',
    detectSessionInUrl: false,
  },
});
