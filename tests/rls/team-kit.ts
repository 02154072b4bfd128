// Test kit for anything that acts as a team member: an isolated emulator on the real supabase/
// folder, real auth users (admin API) with a members row per role, and signed-in supabase-js clients.
import { randomUUID } from 'node:crypto';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { startEmulator, type RunningEmulator } from '../../emulator/index';
import { stopScheduler } from '../functions/kit';
import type { Database } from '../../lib/database.types';
import type { Role } from '../../lib/roles';

export type Client = SupabaseClient<Database>;

/** Everyone the policies tell apart: the public, a stranger with an account, each role, the server. */
export type Actor = 'anon' | 'nonMember' | Role | 'service';

export const ACTORS: readonly Actor[] = [
  'anon',
  'nonMember',
  'viewer',
  'editor',
  'admin',
  'owner',
  'service',
];

export interface TeamUser {
  id: string;
  email: string;
  password: string;
  client: Client;
}

export interface Team {
  emu: RunningEmulator;
  /** The secret key: role service_role, bypasses RLS. Used to arrange and to check state. */
  service: Client;
  /** The publishable key without a session, as a visitor's browser. */
  anon: Client;
  /** Signed-in users; `nonMember` has an account but no members row. */
  users: Record<Exclude<Actor, 'anon' | 'service'>, TeamUser>;
  /** The client an actor uses. */
  client(actor: Actor): Client;
}

/**
 * Starts an in-memory emulator (free ports, no wire server) with migrations and seed applied, and
 * without the process-queue job, which would move the probes' campaigns on its own.
 */
export async function startIsolatedEmulator(): Promise<RunningEmulator> {
  const emu = await startEmulator({
    memory: true,
    port: 0,
    dbPort: null,
    mailWebPort: 0,
    mailSmtpPort: 0,
  });
  await stopScheduler(emu);
  return emu;
}

/** A unique, valid address for test data that must not collide between cases or runs. */
export function uniqueEmail(label: string): string {
  return `${label}-${randomUUID().slice(0, 8)}@example.com`;
}

function newClient(emu: RunningEmulator, key: string): Client {
  return createClient<Database>(emu.url, key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });
}

/** The untyped view of a client, for code that names tables at run time (the RLS matrix). */
export function untyped(client: Client): SupabaseClient {
  return client as unknown as SupabaseClient;
}

export function serviceClient(emu: RunningEmulator): Client {
  return newClient(emu, emu.keys.secret);
}

export function anonClient(emu: RunningEmulator): Client {
  return newClient(emu, emu.keys.publishable);
}

/** Creates a confirmed auth user through the admin API (no password: it never signs in). */
export async function createAuthUser(
  service: Client,
  email = uniqueEmail('user'),
): Promise<string> {
  const { data, error } = await service.auth.admin.createUser({ email, email_confirm: true });
  if (error || !data.user) throw new Error(`createUser ${email}: ${error?.message}`);
  return data.user.id;
}

/** Adds `userId` to the team as service role (what invite-member and claim-owner do). */
export async function addMember(
  service: Client,
  userId: string,
  email: string,
  role: Role,
): Promise<void> {
  const { error } = await service.from('members').insert({ user_id: userId, email, role });
  if (error) throw new Error(`members insert ${email}: ${error.message}`);
}

/**
 * Creates a user with a password, makes them a member with `role` (none: a signed-in stranger),
 * and signs them in with the password on their own client, as the admin pages do.
 */
export async function signedInUser(
  emu: RunningEmulator,
  service: Client,
  role: Role | null,
  email = uniqueEmail(role ?? 'stranger'),
): Promise<TeamUser> {
  const password = `pw-${randomUUID()}`;
  const { data, error } = await service.auth.admin.createUser({
    email,
    password,
    email_confirm: true,
  });
  if (error || !data.user) throw new Error(`createUser ${email}: ${error?.message}`);
  if (role) await addMember(service, data.user.id, email, role);
  const client = anonClient(emu);
  const signIn = await client.auth.signInWithPassword({ email, password });
  if (signIn.error) throw new Error(`signIn ${email}: ${signIn.error.message}`);
  return { id: data.user.id, email, password, client };
}

/** One user per role plus a signed-in non-member, created once per emulator. */
export async function createTeam(emu: RunningEmulator): Promise<Team> {
  const service = serviceClient(emu);
  const anon = anonClient(emu);
  // One after another: bcrypt and PGlite share the test's two cores anyway.
  const nonMember = await signedInUser(emu, service, null);
  const viewer = await signedInUser(emu, service, 'viewer');
  const editor = await signedInUser(emu, service, 'editor');
  const admin = await signedInUser(emu, service, 'admin');
  const owner = await signedInUser(emu, service, 'owner');
  const users = { nonMember, viewer, editor, admin, owner };
  return {
    emu,
    service,
    anon,
    users,
    client(actor) {
      if (actor === 'anon') return anon;
      if (actor === 'service') return service;
      return users[actor].client;
    },
  };
}
