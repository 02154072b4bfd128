// auth.users rows and GoTrue's User / Identity JSON (contract §2.1).
import type { Queryable } from '../db/types.js';
import { insertPhoneIdentity } from './phone.js';
import { SQL } from './queries.js';

export interface UserRow {
  id: string;
  aud: string | null;
  role: string | null;
  email: string | null;
  phone: string | null;
  encrypted_password: string | null;
  email_confirmed_at: string | null;
  phone_confirmed_at: string | null;
  confirmed_at: string | null;
  invited_at: string | null;
  confirmation_token: string | null;
  confirmation_sent_at: string | null;
  recovery_token: string | null;
  recovery_sent_at: string | null;
  email_change: string | null;
  email_change_token_new: string | null;
  email_change_token_current: string | null;
  email_change_sent_at: string | null;
  /** 0 until one of a secure email change's two links is used, then 1. */
  email_change_confirm_status: number | null;
  last_sign_in_at: string | null;
  raw_app_meta_data: Record<string, unknown> | null;
  raw_user_meta_data: Record<string, unknown> | null;
  created_at: string | null;
  updated_at: string | null;
  banned_until: string | null;
  deleted_at: string | null;
  is_anonymous: boolean;
}

export interface IdentityRow {
  id: string;
  provider_id: string;
  user_id: string;
  identity_data: Record<string, unknown>;
  provider: string;
  email: string | null;
  last_sign_in_at: string | null;
  created_at: string | null;
  updated_at: string | null;
}

/**
 * Postgres timestamptz text (`2026-01-02 03:04:05.678901+00`) → UTC RFC 3339 as Go writes it
 * (RFC3339Nano: microseconds kept, trailing zeros dropped), e.g. `2026-01-02T03:04:05.678901Z`.
 */
export function isoTime(value: string | null | undefined): string | undefined {
  if (value === null || value === undefined) return undefined;
  const utc = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d+))?\+00(?::00)?$/.exec(value);
  if (utc) {
    const fraction = (utc[3] ?? '').replace(/0+$/, '');
    return `${utc[1]}T${utc[2]}${fraction ? '.' + fraction : ''}Z`;
  }
  let s = value.replace(' ', 'T');
  if (/[+-]\d\d$/.test(s)) s += ':00';
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? value : d.toISOString();
}

function identityJson(row: IdentityRow) {
  return {
    identity_id: row.id,
    id: row.provider_id,
    user_id: row.user_id,
    identity_data: row.identity_data,
    provider: row.provider,
    last_sign_in_at: isoTime(row.last_sign_in_at),
    created_at: isoTime(row.created_at),
    updated_at: isoTime(row.updated_at),
    email: row.email ?? undefined,
  };
}

export type UserJson = ReturnType<typeof userJson>;

/** GoTrue's User object; optional timestamps are omitted when unset (`omitempty` upstream). */
export function userJson(
  row: UserRow,
  identities: IdentityRow[],
  factors: Array<Record<string, unknown>> = [],
) {
  return {
    id: row.id,
    aud: row.aud ?? '',
    role: row.role ?? '',
    email: row.email ?? '',
    email_confirmed_at: isoTime(row.email_confirmed_at),
    phone: row.phone ?? '',
    phone_confirmed_at: isoTime(row.phone_confirmed_at),
    confirmation_sent_at: isoTime(row.confirmation_sent_at),
    confirmed_at: isoTime(row.confirmed_at),
    recovery_sent_at: isoTime(row.recovery_sent_at),
    new_email: row.email_change || undefined,
    email_change_sent_at: isoTime(row.email_change_sent_at),
    invited_at: isoTime(row.invited_at),
    last_sign_in_at: isoTime(row.last_sign_in_at),
    app_metadata: row.raw_app_meta_data ?? {},
    user_metadata: row.raw_user_meta_data ?? {},
    // Listed only when the user has any (`omitempty` upstream), before the identities.
    factors: factors.length ? factors : undefined,
    identities: identities.map(identityJson),
    created_at: isoTime(row.created_at),
    updated_at: isoTime(row.updated_at),
    banned_until: isoTime(row.banned_until),
    deleted_at: isoTime(row.deleted_at),
    is_anonymous: row.is_anonymous,
  };
}

export async function findUserById(q: Queryable, id: string): Promise<UserRow | undefined> {
  return (await q.query<UserRow>(SQL['user-by-id'], [id])).rows[0];
}

export async function findUserByEmail(q: Queryable, email: string): Promise<UserRow | undefined> {
  return (await q.query<UserRow>(SQL['user-by-email'], [email])).rows[0];
}

export async function loadUserJson(q: Queryable, id: string): Promise<UserJson | undefined> {
  const row = await findUserById(q, id);
  if (!row) return undefined;
  const identities = await q.query<IdentityRow>(SQL['identities-by-user'], [id]);
  const factors = await q.query<Record<string, unknown>>(
    `select id, created_at, updated_at, status, nullif(friendly_name, '') as friendly_name,
       factor_type, '' as phone, last_challenged_at
     from auth.mfa_factors where user_id = $1 order by created_at`,
    [id],
  );
  return userJson(row, identities.rows, factors.rows.map(factorRowJson));
}

/** GoTrue's Factor JSON: timestamps in ISO form, an empty friendly name left out. */
function factorRowJson(f: Record<string, unknown>): Record<string, unknown> {
  const time = (v: unknown) => (v === null || v === undefined ? null : isoTime(String(v)));
  return {
    ...f,
    created_at: time(f.created_at),
    updated_at: time(f.updated_at),
    friendly_name: f.friendly_name ?? undefined,
    last_challenged_at: time(f.last_challenged_at),
  };
}

export function isBanned(row: UserRow): boolean {
  return row.banned_until !== null && new Date(isoTime(row.banned_until)!).getTime() > Date.now();
}

export interface NewUser {
  email: string | null;
  /** A phone number (admin API only: stored, with its identity, and no SMS sent). */
  phone?: string | null;
  encryptedPassword: string | null;
  confirmed: boolean;
  appMetadata: Record<string, unknown>;
  userMetadata: Record<string, unknown>;
  isAnonymous?: boolean;
  role?: string;
  invited?: boolean;
  id?: string;
  /** Sign-up data copied into the email identity's data (signup and OTP; not admin/invite). */
  identityExtras?: Record<string, unknown>;
}

/**
 * Inserts the auth.users row (+ its email identity), so triggers migrations put on auth.users fire
 * in the caller's transaction. Returns the new user id.
 */
export async function insertUser(q: Queryable, user: NewUser): Promise<string> {
  const id = user.id ?? crypto.randomUUID();
  await q.query(SQL['insert-user'], [
    id,
    user.email,
    user.encryptedPassword ?? '',
    JSON.stringify(user.appMetadata),
    JSON.stringify(user.userMetadata),
    user.isAnonymous ?? false,
    user.role ?? 'authenticated',
    user.invited ?? false,
  ]);
  if (user.email) {
    // Upstream's identity data: the provider claims, then the sign-up data for keys not taken.
    const identityData: Record<string, unknown> = {
      sub: id,
      email: user.email,
      email_verified: false,
      phone_verified: false,
    };
    for (const [k, v] of Object.entries(user.identityExtras ?? {})) {
      if (!(k in identityData)) identityData[k] = v;
    }
    await q.query(SQL['insert-identity'], [id, id, JSON.stringify(identityData), 'email']);
  }
  if (user.phone) {
    await q.query('update auth.users set phone = $2 where id = $1', [id, user.phone]);
    await insertPhoneIdentity(q, id, user.phone, false);
  }
  if (user.confirmed) await q.query(SQL['confirm-email'], [id]);
  return id;
}

/** Lower-cases and checks an email the way GoTrue's validateEmail does (format only). */
export function normalizeEmail(raw: unknown): string {
  return typeof raw === 'string' ? raw.trim().toLowerCase() : '';
}

const EMAIL_RE =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

export function isValidEmail(email: string): boolean {
  return email.length <= 255 && EMAIL_RE.test(email);
}
