// Fixtures for the storage integration tests: an emulator per file and supabase-js clients per role.
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { startEmulator, type RunningEmulator } from '../index.js';
import { signJwt } from '../keys.js';

export function startTestEmulator(): Promise<RunningEmulator> {
  return startEmulator({ memory: true, port: 0, dbPort: null, mailWebPort: 0, mailSmtpPort: 0 });
}

export function client(emu: RunningEmulator, key: string, accessToken?: string): SupabaseClient {
  return createClient(emu.url, key, {
    auth: { persistSession: false, autoRefreshToken: false },
    global: accessToken ? { headers: { Authorization: `Bearer ${accessToken}` } } : {},
  });
}

/** A user access token as auth would issue it (contract §7.2), for RLS tests. */
export function userToken(sub: string, expiresIn = 3600): Promise<string> {
  const iat = Math.floor(Date.now() / 1000);
  return signJwt({
    sub,
    role: 'authenticated',
    aud: 'authenticated',
    iat,
    exp: iat + expiresIn,
  });
}

/** Runs setup SQL as a migration would (policies, bucket rows). */
export async function migrate(emu: RunningEmulator, sql: string): Promise<void> {
  await emu.db.exec(sql);
}
