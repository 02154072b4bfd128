// Creating an auth.users row on behalf of an endpoint: trigger failures become GoTrue's 500.
import type { Queryable } from '../db/types.js';
import type { AuthContext } from './context.js';
import { AuthError } from './errors.js';
import { markCreated } from './hook-outbox.js';
import { insertUser, type NewUser } from './users.js';

/**
 * Inserts the user in the caller's transaction. Any database error (typically a trigger a
 * migration put on auth.users, e.g. handle_new_user) aborts with 500 unexpected_failure
 * "Database error saving new user", as upstream.
 */
export async function createUserOrFail(
  ctx: AuthContext,
  q: Queryable,
  user: NewUser,
  // The admin API words it differently (admin.go adminUserCreate).
  message = 'Database error saving new user',
): Promise<string> {
  try {
    const id = await insertUser(q, user);
    markCreated(q, id);
    return id;
  } catch (err) {
    ctx.log('[auth] inserting into auth.users failed', err);
    throw new AuthError(500, 'unexpected_failure', message);
  }
}
