// The one browser Supabase client of the site, created once (components reach it through hooks only).
import { createClient } from '@supabase/supabase-js';
import { SUPABASE_PUBLISHABLE_KEY, SUPABASE_URL } from './config';

export const supabase = createClient(SUPABASE_URL, SUPABASE_PUBLISHABLE_KEY, {
  auth: {
    // Static pages, one origin: keep the team session in localStorage and pick up
    // magic-link redirects (`/auth/callback/`) from the URL.
    persistSession: true,
    autoRefreshToken: true,
    detectSessionInUrl: true,
  },
});
