// The service-role client. Every public function validates its own input, signed token or rate
// limit first; the service role is needed because visitors may not read or write subscriber rows.
import { createClient, type SupabaseClient } from './deps.ts';
import { env } from './env.ts';
import { AppError } from './errors.ts';

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
  if (match) return new AppError(match[1] as never, match[2] || undefined);
  console.error(`rpc ${name} failed`, error);
  return new AppError('internal');
}

/** The signed-in caller of a JWT-verified function, or `unauthenticated`. */
export async function callerOf(req: Request): Promise<{ id: string; email: string }> {
  const token = (req.headers.get('authorization') ?? '').replace(/^Bearer\s+/i, '');
  if (!token) throw new AppError('unauthenticated');
  const { data, error } = await adminClient().auth.getUser(token);
  if (error || !data.user) throw new AppError('unauthenticated');
  return { id: data.user.id, email: (data.user.email ?? '').toLowerCase() };
}

/** The bearer is the service-role key, or a JWT whose role claim is service_role (verify_jwt checked its signature). */
export function isServiceRole(req: Request): boolean {
  const token = (req.headers.get('authorization') ?? '').replace(/^Bearer\s+/i, '');
  if (!token) return false;
  if (env.serviceRoleKey() && token === env.serviceRoleKey()) return true;
  const payload = token.split('.')[1];
  if (!payload) return false;
  try {
    const claims = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/')));
    return claims?.role === 'service_role';
  } catch {
    return false;
  }
}
