// /admin/users CRUD for the service role (GoTrue api/admin.go).
import { json, obj, readBody, str, type AuthContext, type Handler } from '../context.js';
import { AuthError, errors } from '../errors.js';
import { mergeMetadata, parseBanDuration } from '../metadata.js';
import { assertStrongPassword, hashPassword } from '../passwords.js';
import { phoneExists, phoneFrom, phoneTaken, setPhone } from '../phone.js';
import { requireAdmin } from '../principal.js';
import { SQL } from '../queries.js';
import { createUserOrFail } from '../signup-user.js';
import {
  findUserByEmail,
  findUserById,
  isValidEmail,
  loadUserJson,
  normalizeEmail,
  userJson,
  type IdentityRow,
  type UserRow,
} from '../users.js';
import type { Queryable } from '../../db/types.js';

/** User.ConfirmPhone: phone_confirmed_at set, the confirmation token cleared. */
const CONFIRM_PHONE = `update auth.users set phone_confirmed_at = now(), confirmation_token = '',
  updated_at = now() where id = $1`;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function userIdFrom(path: string): string {
  const id = path.slice('/admin/users/'.length);
  // Upstream answers 404 (not 400) for a malformed id.
  if (!UUID_RE.test(id)) throw new AuthError(404, 'validation_failed', 'user_id must be an UUID');
  return id;
}

async function existingUser(q: Queryable, id: string): Promise<UserRow> {
  const row = await findUserById(q, id);
  if (!row) throw errors.userNotFound();
  return row;
}

function banUntil(raw: unknown): string | null | undefined {
  if (raw === undefined) return undefined;
  const ms = typeof raw === 'string' ? parseBanDuration(raw) : NaN;
  if (ms === null) return null;
  if (Number.isNaN(ms)) throw errors.validation('invalid format for ban duration');
  return new Date(Date.now() + ms).toISOString();
}

async function passwordHashFrom(ctx: AuthContext, body: Record<string, unknown>) {
  const passwordHash = str(body.password_hash);
  if (passwordHash && body.password !== undefined && body.password !== null) {
    throw errors.validation('Only a password or a password hash should be provided');
  }
  if (passwordHash) {
    if (!/^\$2[aby]\$\d\d\$/.test(passwordHash)) {
      throw errors.validation('Invalid password hash format (only bcrypt is supported here)');
    }
    return passwordHash;
  }
  const password = str(body.password);
  if (password === undefined) return undefined;
  assertStrongPassword(password, ctx.settings.minimumPasswordLength);
  return hashPassword(password);
}

export const createUser: Handler = async (ctx, r) => {
  await requireAdmin(r.req);
  const body = await readBody(r);
  const email = normalizeEmail(body.email);
  if (!email && !body.phone) {
    throw errors.validation('Cannot create a user without either an email or phone');
  }
  if (email && !isValidEmail(email)) throw errors.emailInvalid();
  // A phone is stored (and confirmed with phone_confirm) without sending an SMS, as upstream.
  const phone = phoneFrom(body);
  const providers = [...(email ? ['email'] : []), ...(phone ? ['phone'] : [])];
  const id = str(body.id);
  if (id !== undefined && !UUID_RE.test(id)) {
    throw errors.validation('ID must conform to the uuid v4 format');
  }
  if (id === '00000000-0000-0000-0000-000000000000') {
    throw errors.validation('ID cannot be a nil uuid');
  }
  const encrypted = await passwordHashFrom(ctx, body);
  const banned = banUntil(body.ban_duration);
  const user = await ctx.db.transaction(async (tx) => {
    if (email && (await findUserByEmail(tx, email))) throw errors.emailExists();
    if (phone && (await phoneTaken(tx, phone))) throw phoneExists();
    if (id && (await findUserById(tx, id))) {
      throw new AuthError(422, 'user_already_exists', 'User already registered');
    }
    const newId = await createUserOrFail(
      ctx,
      tx,
      {
        id,
        email: email || null,
        phone: phone ?? null,
        encryptedPassword: encrypted ?? null,
        confirmed: body.email_confirm === true,
        appMetadata: {
          provider: providers[0],
          providers,
          ...(obj(body.app_metadata) ?? {}),
        },
        userMetadata: obj(body.user_metadata) ?? {},
        role: str(body.role),
      },
      'Database error creating new user',
    );
    if (body.phone_confirm === true) await tx.query(CONFIRM_PHONE, [newId]);
    if (banned) await tx.query(SQL['set-banned-until'], [newId, banned]);
    return loadUserJson(tx, newId);
  });
  return json(r, 200, user);
};

/** `page`/`per_page` as GoTrue's paginate(): unsigned integers, defaults 1 and 50. */
function pageParam(raw: string | null, fallback: number): number {
  if (raw === null || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) {
    throw errors.validation(`Bad Pagination Parameters: invalid value "${raw}"`);
  }
  return Number(raw);
}

export const listUsers: Handler = async (ctx, r) => {
  await requireAdmin(r.req);
  const query = r.url.searchParams;
  const page = pageParam(query.get('page'), 1);
  const perPage = pageParam(query.get('per_page'), 50);
  const filter = query.get('filter') ?? '';
  const sort = query.get('sort') ?? '';
  const sortMatch = /^created_at(?:\s+(asc|desc))?$/i.exec(sort.trim());
  if (sort && !sortMatch) throw errors.validation(`Bad Sort Parameters: ${sort}`);
  const direction = sortMatch?.[1]?.toLowerCase() === 'asc' ? 'asc' : 'desc';
  const total = (await ctx.db.query<{ n: number }>(SQL['count-users'], [filter])).rows[0]!.n;
  const rows = await ctx.db.query<UserRow>(SQL['list-users'], [
    perPage,
    (page - 1) * perPage,
    filter,
    direction,
  ]);
  const users = [];
  for (const row of rows.rows) {
    const identities = await ctx.db.query<IdentityRow>(SQL['identities-by-user'], [row.id]);
    users.push(userJson(row, identities.rows));
  }
  return json(
    r,
    200,
    { users, aud: 'authenticated' },
    {
      'X-Total-Count': String(total),
      Link: paginationLink(r.path, query, page, Math.ceil(total / perPage)),
    },
  );
};

/**
 * GoTrue's addPaginationHeaders: the request's own path and query (keys sorted, as Go encodes
 * them) with `page` set, rel="next" when there is a next page, always rel="last".
 */
function paginationLink(path: string, query: URLSearchParams, page: number, lastPage: number) {
  const withPage = (p: number) => {
    const q = new URLSearchParams(query);
    q.set('page', String(p));
    q.sort();
    return `<${path}?${q.toString()}>`;
  };
  const next = lastPage > page ? `${withPage(page + 1)}; rel="next", ` : '';
  return `${next}${withPage(lastPage)}; rel="last"`;
}

export const getUserById: Handler = async (ctx, r) => {
  await requireAdmin(r.req);
  const row = await existingUser(ctx.db, userIdFrom(r.path));
  return json(r, 200, await loadUserJson(ctx.db, row.id));
};

export const updateUserById: Handler = async (ctx, r) => {
  await requireAdmin(r.req);
  const id = userIdFrom(r.path);
  const body = await readBody(r);
  const email = body.email === undefined ? undefined : normalizeEmail(body.email);
  const phone = phoneFrom(body);
  if (email !== undefined && !isValidEmail(email)) throw errors.emailInvalid();
  const encrypted = await passwordHashFrom(ctx, body);
  const banned = banUntil(body.ban_duration);
  await ctx.db.transaction(async (tx) => {
    const row = await existingUser(tx, id);
    if (email && email !== row.email) {
      const other = await findUserByEmail(tx, email);
      if (other && other.id !== id) throw errors.emailExists();
      await tx.query(SQL['set-email-direct'], [id, email]);
      await tx.query(SQL['update-identity-email'], [id, email]);
    }
    if (encrypted) await tx.query(SQL['set-password'], [id, encrypted]);
    if (body.email_confirm === true) await tx.query(SQL['confirm-email'], [id]);
    if (body.email_confirm === false) await tx.query(SQL['unconfirm-email'], [id]);
    if (body.phone_confirm === true) await tx.query(CONFIRM_PHONE, [id]);
    if (phone) {
      // Upstream checks no duplicate here and fails on the unique index (500); a 422 instead.
      if (await phoneTaken(tx, phone, id)) throw phoneExists();
      await setPhone(tx, row, phone, body.phone_confirm === true);
    }
    const userMeta = obj(body.user_metadata);
    if (userMeta) {
      await tx.query(SQL['set-user-metadata'], [
        id,
        JSON.stringify(mergeMetadata(row.raw_user_meta_data, userMeta)),
      ]);
    }
    const appMeta = obj(body.app_metadata);
    if (appMeta) {
      await tx.query(SQL['set-app-metadata'], [
        id,
        JSON.stringify(mergeMetadata(row.raw_app_meta_data, appMeta)),
      ]);
    }
    const role = str(body.role);
    if (role) await tx.query(SQL['set-role'], [id, role]);
    if (banned !== undefined) {
      await tx.query(SQL['set-banned-until'], [id, banned]);
      // A ban ends the user's sessions, as upstream.
      if (banned) await tx.query(SQL['delete-user-sessions'], [id]);
    }
  });
  return json(r, 200, await loadUserJson(ctx.db, id));
};

export const deleteUser: Handler = async (ctx, r) => {
  await requireAdmin(r.req);
  const id = userIdFrom(r.path);
  const body = await readBody(r);
  await ctx.db.transaction(async (tx) => {
    await existingUser(tx, id);
    if (body.should_soft_delete === true) {
      await tx.query(SQL['soft-delete-user'], [id]);
      await tx.query(SQL['delete-user-sessions'], [id]);
    } else {
      await tx.query(SQL['delete-user'], [id]);
    }
  });
  return json(r, 200, {});
};
