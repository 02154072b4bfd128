// Send Email Hook calls of an Auth request, made once the transaction that issued their token
// has committed; a failed call undoes what it issued before the error goes to the client.
//
// Hosted Auth calls the hook inside its transaction and rolls back on failure. Here that would
// deadlock on PGlite: the hook (an edge function) reads the database through the gateway, and
// PGlite has one session, held by the open transaction. So the call waits for the commit, and a
// failure restores the user's token columns (or deletes a user the request created), which leaves
// the same state a rollback would.
import type { Db, Queryable } from '../db/types.js';
import type { AuthContext } from './context.js';
import type { IssuedToken } from './issued-token.js';
import { callSendEmailHook, type EmailData } from './send-email-hook.js';
import { SQL } from './queries.js';
import { loadUserJson, type UserRow } from './users.js';

interface Pending {
  payload: unknown;
  undo: (q: Queryable) => Promise<void>;
}

const outboxes = new WeakMap<Queryable, Pending[]>();
const createdIn = new WeakMap<Queryable, Set<string>>();

/** Notes that `userId` was inserted by the transaction `q` (a failed hook call deletes it again). */
export function markCreated(q: Queryable, userId: string): void {
  createdIn.get(q)?.add(userId);
}

/** `db` whose transactions make their queued hook calls after commit (the service's only Db). */
export function withHookOutbox(db: Db, ctx: () => AuthContext): Db {
  async function transaction<T>(
    fn: (tx: Queryable) => Promise<T>,
    options?: Parameters<Db['transaction']>[1],
  ): Promise<T> {
    const pending: Pending[] = [];
    const result = await db.transaction(async (tx) => {
      outboxes.set(tx, pending);
      createdIn.set(tx, new Set());
      try {
        return await fn(tx);
      } finally {
        outboxes.delete(tx);
      }
    }, options);
    const { settings, authUrl } = ctx();
    for (let i = 0; i < pending.length; i++) {
      try {
        await callSendEmailHook(settings.sendEmailHook!, gatewayOf(authUrl), pending[i]!.payload);
      } catch (err) {
        await db.transaction(async (tx) => {
          for (const p of pending.slice(i).reverse()) await p.undo(tx);
        });
        throw err;
      }
    }
    return result;
  }
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'transaction') return transaction;
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

function gatewayOf(authUrl: string): string {
  return authUrl.replace(/\/auth\/v1$/, '');
}

const SNAPSHOT = `select confirmation_token, confirmation_sent_at, recovery_token, recovery_sent_at,
  email_change, email_change_token_new, email_change_sent_at, email_change_token_current,
  email_change_confirm_status
from auth.users where id = $1`;
const RESTORE = `update auth.users set confirmation_token = $2, confirmation_sent_at = $3,
  recovery_token = $4, recovery_sent_at = $5, email_change = $6, email_change_token_new = $7,
  email_change_sent_at = $8, email_change_token_current = $9, email_change_confirm_status = $10
where id = $1`;
const OLD_TOKEN = `select token_hash, relates_to from auth.one_time_tokens
where user_id = $1 and token_type = $2::auth.one_time_token_type`;
const DROP_TOKEN = `delete from auth.one_time_tokens
where user_id = $1 and token_type = $2::auth.one_time_token_type`;

/**
 * Reads what issuing tokens of `tokenTypes` (one, or a secure email change's two) will overwrite,
 * and returns how to put it back.
 */
export async function undoIssue(
  q: Queryable,
  user: UserRow,
  tokenTypes: string | string[],
): Promise<(q: Queryable) => Promise<void>> {
  if (createdIn.get(q)?.has(user.id)) {
    return async (tx) => void (await tx.query(SQL['delete-user'], [user.id]));
  }
  const cols = (await q.query<Record<string, unknown>>(SNAPSHOT, [user.id])).rows[0]!;
  const olds: Array<[string, { token_hash: string; relates_to: string } | undefined]> = [];
  for (const tokenType of typeof tokenTypes === 'string' ? [tokenTypes] : tokenTypes) {
    const { rows } = await q.query<{ token_hash: string; relates_to: string }>(OLD_TOKEN, [
      user.id,
      tokenType,
    ]);
    olds.push([tokenType, rows[0]]);
  }
  return async (tx) => {
    await tx.query(RESTORE, [
      user.id,
      cols.confirmation_token,
      cols.confirmation_sent_at,
      cols.recovery_token,
      cols.recovery_sent_at,
      cols.email_change,
      cols.email_change_token_new,
      cols.email_change_sent_at,
      cols.email_change_token_current,
      cols.email_change_confirm_status,
    ]);
    for (const [tokenType, old] of olds) {
      await tx.query(DROP_TOKEN, [user.id, tokenType]);
      if (old) {
        await tx.query(SQL['upsert-one-time-token'], [
          user.id,
          tokenType,
          old.token_hash,
          old.relates_to,
        ]);
      }
    }
  };
}

/** The token fields of a hook call, when they are not just `issued`'s code and hash. */
export type HookTokens = Pick<EmailData, 'token' | 'token_hash' | 'token_new' | 'token_hash_new'>;

/**
 * Queues the hook call for the email of `issued` (v0hooks.SendEmailInput): `token` and
 * `token_hash` are its code and hash (for an email change without secure email change, the new
 * address's), unless `tokens` gives a secure email change's four fields (flows.ts).
 */
export async function queueHookEmail(
  q: Queryable,
  ctx: AuthContext,
  user: UserRow,
  kind: string,
  issued: IssuedToken,
  undo: (q: Queryable) => Promise<void>,
  tokens: HookTokens | null = null,
): Promise<void> {
  const emailData: EmailData = {
    token: issued.otp,
    token_hash: issued.hashedToken,
    redirect_to: issued.redirectTo,
    email_action_type: kind,
    // API_EXTERNAL_URL: the project URL, under which Auth's /auth/v1/verify lives.
    site_url: gatewayOf(ctx.authUrl),
    token_new: '',
    token_hash_new: '',
    ...tokens,
  };
  const payload = {
    metadata: { uuid: crypto.randomUUID(), time: new Date().toISOString(), name: 'send-email' },
    user: await loadUserJson(q, user.id),
    email_data: { ...emailData, old_email: '', old_phone: '', provider: '', factor_type: '' },
  };
  const outbox = outboxes.get(q);
  if (outbox) {
    outbox.push({ payload, undo });
    return;
  }
  // Outside a transaction of the service's Db (nothing to wait for): call at once.
  await callSendEmailHook(ctx.settings.sendEmailHook!, gatewayOf(ctx.authUrl), payload);
}
