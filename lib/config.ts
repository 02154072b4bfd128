// Public, build-time configuration of the static site (SPEC §0): nothing secret may ever live here.

// Next inlines `process.env.NEXT_PUBLIC_*` at build time only when written out literally like this.
const envUrl = process.env.NEXT_PUBLIC_SUPABASE_URL;
const envKey = process.env.NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY;

/** The local stack's well-known publishable key (the Supabase CLI prints the same one). */
export const LOCAL_PUBLISHABLE_KEY = 'sb_publishable_ACJWlzQHlZjBrEguHvfOxg_3BJgxAaH';

/** Supabase project URL without a trailing slash, e.g. `http://127.0.0.1:54321`. */
export const SUPABASE_URL = (envUrl || 'http://127.0.0.1:54321').replace(/\/+$/, '');

/** Publishable key (`sb_publishable_…`) or a legacy anon JWT; both act as the `anon` role. */
export const SUPABASE_PUBLISHABLE_KEY = envKey || LOCAL_PUBLISHABLE_KEY;
