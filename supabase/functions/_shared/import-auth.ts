// Who may import and export subscribers (SPEC §6): admins and owners, by their members row; the
// service role too, so an import can hand itself on to a fresh run.
import { adminClient, callerOf } from './db.ts';
import { env } from './env.ts';
import { AppError } from './errors.ts';

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

/** Passes for an admin or owner; `unauthenticated` without a user, `forbidden` for anyone else. */
export async function requireAdmin(req: Request): Promise<{ id: string; email: string }> {
  const caller = await callerOf(req);
  const { data, error } = await adminClient()
    .from('members')
    .select('role')
    .eq('user_id', caller.id)
    .maybeSingle();
  if (error) throw new AppError('internal');
  if (data?.role !== 'admin' && data?.role !== 'owner') throw new AppError('forbidden');
  return caller;
}
