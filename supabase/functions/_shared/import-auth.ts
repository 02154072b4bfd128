// Who may import and export subscribers (SPEC §6): admins and owners, by their members row; the
// service role too, so an import can hand itself on to a fresh run.
import { adminClient, callerOf } from './db.ts';
import { AppError } from './errors.ts';

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
