// Phone numbers on users without SMS (GoTrue api/phone.go, admin.go, user.go): the admin API
// stores them (and `phone_confirm` confirms them) without sending anything, PUT /user applies a
// change at once under SMS autoconfirm, and whatever would send an SMS answers the 4xx of a
// disabled phone provider.
import type { Queryable } from '../db/types.js';
import { AuthError, errors } from './errors.js';

const E164 = /^[1-9][0-9]{1,14}$/;

/** validatePhone: a leading `+` and spaces dropped, then E.164 digits. */
export function validPhone(raw: unknown): string {
  const phone = (typeof raw === 'string' ? raw : String(raw)).replace(/^\+/, '').replace(/ /g, '');
  if (!E164.test(phone)) throw errors.validation('Invalid phone number format (E.164 required)');
  return phone;
}

/** The phone of a request body, or undefined when it names none (absent or ""). */
export function phoneFrom(body: Record<string, unknown>): string | undefined {
  return body.phone === undefined || body.phone === null || body.phone === ''
    ? undefined
    : validPhone(body.phone);
}

export const phoneExists = () =>
  new AuthError(422, 'phone_exists', 'Phone number already registered by another user');

/** Upstream's answer where an SMS would be sent and no SMS provider is enabled. */
export const phoneProviderDisabled = () =>
  new AuthError(400, 'phone_provider_disabled', 'Unsupported phone provider');

/** Whether another user already has `phone` (models.IsDuplicatedPhone). */
export async function phoneTaken(q: Queryable, phone: string, userId?: string): Promise<boolean> {
  const { rows } = await q.query<{ id: string }>(
    `select id from auth.users where phone = $1 and id is distinct from $2::uuid limit 1`,
    [phone, userId ?? null],
  );
  return rows.length > 0;
}

/**
 * Sets the user's phone (and `phone_confirmed_at` when `confirm`), creating or updating the phone
 * identity (`phone`, `phone_verified`), as adminUserUpdate and smsVerify do; confirming makes an
 * anonymous user permanent.
 */
export async function setPhone(
  q: Queryable,
  // The fields of users.ts's UserRow used here, written out: users.ts imports this module.
  user: { id: string; is_anonymous: boolean },
  phone: string,
  confirm: boolean,
): Promise<void> {
  await q.query(
    `update auth.users set phone = $2, phone_change = '', phone_change_token = '',
       phone_confirmed_at = case when $3::boolean then now() else phone_confirmed_at end,
       is_anonymous = is_anonymous and not $3::boolean, updated_at = now()
     where id = $1`,
    [user.id, phone, confirm],
  );
  const { affectedRows } = await q.query(
    `update auth.identities
     set identity_data = identity_data || jsonb_build_object('phone', $2::text,
         'phone_verified', $3::boolean),
       updated_at = now()
     where user_id = $1 and provider = 'phone'`,
    [user.id, phone, confirm],
  );
  if (!affectedRows) await insertPhoneIdentity(q, user.id, phone, confirm);
}

/** The phone identity GoTrue creates (provider.Claims: sub, phone, the two `_verified` flags). */
export async function insertPhoneIdentity(
  q: Queryable,
  userId: string,
  phone: string,
  verified: boolean,
): Promise<void> {
  const data = { sub: userId, phone, email_verified: false, phone_verified: verified };
  await q.query(
    `insert into auth.identities (id, provider_id, user_id, identity_data, provider,
       last_sign_in_at, created_at, updated_at)
     values (gen_random_uuid(), $1::text, $1::uuid, $2::jsonb, 'phone', now(), now(), now())`,
    [userId, JSON.stringify(data)],
  );
}
