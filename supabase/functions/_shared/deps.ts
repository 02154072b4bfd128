// Third-party modules of the edge functions, pinned in one place (npm: specifiers work on hosted
// Supabase and under the emulator's Deno alike).
export { createClient, type SupabaseClient } from 'npm:@supabase/supabase-js@2.119.1';
export { default as nodemailer } from 'npm:nodemailer@10.6.0';
