// The service-role client. Every public function validates its own input, signed token or rate
// limit first; the service role is needed because visitors may not read or write subscriber rows.
import { createClient, type SupabaseClient } from './deps.ts';
import { env } from './env.ts';
import { AppError } from './errors.ts';
import { isRefusedToken } from './auth-refusal.ts';

let client: SupabaseClient | null = null;

export function adminClient(): SupabaseClient {
  client ??= createClient(env.supabaseUrl, env.serviceRoleKey(), {
    auth: { persistSession: false, autoRefreshToken: false },
  });
  return client;
}

/**
 * Calls a service-role-only SQL function (each one is a single transaction, so a failure leaves
 * nothing half-written). Errors raised with a `P0001` message of the form `postbox:<code>` become
 * that catalogue error; anything else is logged and becomes `internal`.
 */
export async function rpc<T>(name: string, args: Record<string, unknown>): Promise<T> {
  const { data, error } = await adminClient().rpc(name, args);
  if (error) throw rpcFailure(name, error);
  return data as T;
}

/** The catalogue error a failed SQL function call stands for (see `rpc`). */
export function rpcFailure(name: string, error: { message?: string }): AppError {
  const match = /^postbox:([a-z_]+)(?::\s*(.*))?$/.exec(error.message ?? '');
  if (match) {
    // `invalid_input` names its field first ("lists: choose at least one list"), as invalidInput does.
    const field =
      match[1] === 'invalid_input' ? /^([a-z_][a-z0-9_.]*): /.exec(match[2] ?? '')?.[1] : undefined;
    return new AppError(match[1] as never, match[2] || undefined, { field });
  }
  console.error(`rpc ${name} failed`, error);
  return new AppError('internal');
}

/** The token of `Authorization: Bearer <token>`, or '' without one. */
function bearerOf(req: Request): string {
  return (req.headers.get('authorization') ?? '').replace(/^Bearer\s+/i, '').trim();
}

/**
 * The signed-in user calling, or `unauthenticated` (SPEC §8, with CORS like every answer). The
 * admin functions run with verify_jwt off, so this is the check: Auth verifies the token's signature,
 * expiry and session, and a token without a user (no header, garbage, an expired session, the
 * anon or publishable key, a service-role key) is refused here rather than by the gateway. When
 * Auth cannot answer (network, timeout, 5xx) the call is `internal`: the login may be fine.
 */
export async function callerOf(req: Request): Promise<{ id: string; email: string }> {
  const token = bearerOf(req);
  if (!token) throw new AppError('unauthenticated');
  const { data, error } = await adminClient().auth.getUser(token);
  if (error) {
    if (isRefusedToken(error)) throw new AppError('unauthenticated');
    throw new AppError(
      'internal',
      `auth user lookup failed: ${error.name} ${error.status ?? ''} ${error.message}`,
    );
  }
  if (!data.user) throw new AppError('unauthenticated');
  return { id: data.user.id, email: (data.user.email ?? '').toLowerCase() };
}

/** The project's service-role keys as the platform hands them to functions (legacy JWT, secret keys). */
function serviceKeys(): string[] {
  const keys = [env.serviceRoleKey()];
  try {
    const secrets: unknown = JSON.parse(Deno.env.get('SUPABASE_SECRET_KEYS') ?? '{}');
    if (secrets && typeof secrets === 'object') {
      for (const value of Object.values(secrets)) if (typeof value === 'string') keys.push(value);
    }
  } catch {
    // Not JSON: no secret keys.
  }
  return keys.filter((key) => key.length > 0);
}

/** Compares without an early exit, so the time taken does not tell how much of a key was right. */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** The unverified claims of a JWT, or null for anything else. */
function unverifiedClaims(token: string): Record<string, unknown> | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const claims: unknown = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/')));
    return claims && typeof claims === 'object' ? (claims as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * The bearer is the service role: one of the project's service-role keys, or a JWT claiming
 * `role: service_role` that Auth's admin API accepts (so its signature and expiry are checked
 * there). The gateway checks nothing (verify_jwt is off for the functions that call this), so an
 * unverified claim alone never passes.
 */
export async function isServiceRole(req: Request): Promise<boolean> {
  const token = bearerOf(req);
  if (!token) return false;
  if (serviceKeys().some((key) => sameText(key, token))) return true;
  if (unverifiedClaims(token)?.role !== 'service_role') return false;
  const response = await fetch(`${env.supabaseUrl}/auth/v1/admin/users?page=1&per_page=1`, {
    headers: { Authorization: `Bearer ${token}`, apikey: env.anonKey() },
  });
  await response.body?.cancel();
  // Auth down is not a verdict on the token (callerOf draws the same line).
  if (response.status >= 500 || response.status === 429) {
    throw new AppError('internal', `auth admin check failed: ${response.status}`);
  }
  return response.ok;
}
