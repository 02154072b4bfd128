-- Named queries of the auth service (loaded by queries.ts; a missing name stops the emulator).
-- Timestamps come back as Postgres text; users.ts turns them into ISO strings.

-- name: user-by-id
-- $1 user id
select * from auth.users where id = $1;

-- name: user-by-email
-- $1 email; GoTrue compares emails lower-cased and ignores SSO users.
select * from auth.users where lower(email) = lower($1) and is_sso_user = false;

-- name: insert-user
-- $1 id, $2 email, $3 encrypted_password, $4 raw_app_meta_data, $5 raw_user_meta_data,
-- $6 is_anonymous, $7 role, $8 invited (bool). Always unconfirmed: confirm-email follows, as
-- upstream inserts first and confirms after (triggers see the same sequence).
insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
  invited_at, confirmation_token, recovery_token, email_change_token_new, email_change,
  raw_app_meta_data, raw_user_meta_data, is_super_admin, created_at, updated_at, is_anonymous)
values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', $7, $2, $3, null,
  case when $8::boolean then now() end, '', '', '', '', $4::jsonb, $5::jsonb, false, now(), now(),
  $6);

-- name: insert-identity
-- $1 provider_id (the user id for email), $2 user id, $3 identity_data, $4 provider
insert into auth.identities (id, provider_id, user_id, identity_data, provider, last_sign_in_at,
  created_at, updated_at)
values (gen_random_uuid(), $1, $2, $3::jsonb, $4, now(), now(), now());

-- name: identities-by-user
-- $1 user id; oldest first, as GoTrue lists them.
select * from auth.identities where user_id = $1 order by created_at, id;

-- name: update-identity-email
-- $1 user id, $2 new email
update auth.identities
set identity_data = identity_data || jsonb_build_object('email', $2::text), updated_at = now()
where user_id = $1 and provider = 'email';

-- name: confirm-email
-- $1 user id. GoTrue's User.Confirm: also records email_verified in the user's metadata.
update auth.users
set email_confirmed_at = coalesce(email_confirmed_at, now()), confirmation_token = '',
  raw_user_meta_data = coalesce(raw_user_meta_data, '{}'::jsonb) || '{"email_verified": true}'::jsonb,
  updated_at = now()
where id = $1;

-- name: set-confirmation-token
-- $1 user id, $2 hashed token
update auth.users
set confirmation_token = $2, confirmation_sent_at = now(), updated_at = now() where id = $1;

-- name: set-recovery-token
-- $1 user id, $2 hashed token
update auth.users
set recovery_token = $2, recovery_sent_at = now(), updated_at = now() where id = $1;

-- name: clear-recovery-token
-- $1 user id
update auth.users set recovery_token = '', updated_at = now() where id = $1;

-- name: set-invited
-- $1 user id
update auth.users set invited_at = now(), updated_at = now() where id = $1;

-- name: set-email-change
-- $1 user id, $2 new email, $3 hashed token for the new address
update auth.users
set email_change = $2, email_change_token_new = $3, email_change_sent_at = now(),
  email_change_confirm_status = 0, updated_at = now()
where id = $1;

-- name: set-email-change-current
-- $1 user id, $2 hashed token for the current address (secure email change)
update auth.users set email_change_token_current = $2, updated_at = now() where id = $1;

-- name: email-change-halfway
-- $1 user id, $2 whether the current address's token was the one used (else the new one's)
update auth.users
set email_change_confirm_status = 1,
  email_change_token_current = case when $2::boolean then '' else email_change_token_current end,
  email_change_token_new = case when $2::boolean then email_change_token_new else '' end,
  updated_at = now()
where id = $1;

-- name: delete-user-one-time-tokens
-- $1 user id (ClearAllOneTimeTokensForUser, once an email change is applied)
delete from auth.one_time_tokens where user_id = $1;

-- name: apply-email-change
-- $1 user id, $2 new email (ConfirmEmailChange; callers confirm-email an unconfirmed user)
update auth.users
set email = $2, email_change = '', email_change_token_new = '', email_change_token_current = '',
  email_change_confirm_status = 0,
  -- An anonymous user who confirms an address becomes a permanent user.
  is_anonymous = false, updated_at = now()
where id = $1;

-- name: set-last-sign-in
-- $1 user id
update auth.users set last_sign_in_at = now(), updated_at = now() where id = $1;

-- name: set-password
-- $1 user id, $2 encrypted_password
update auth.users set encrypted_password = $2, updated_at = now() where id = $1;

-- name: set-user-metadata
-- $1 user id, $2 the whole new raw_user_meta_data (merged in metadata.ts)
update auth.users set raw_user_meta_data = $2::jsonb, updated_at = now() where id = $1;

-- name: set-app-metadata
-- $1 user id, $2 the whole new raw_app_meta_data
update auth.users set raw_app_meta_data = $2::jsonb, updated_at = now() where id = $1;

-- name: set-role
-- $1 user id, $2 role
update auth.users set role = $2, updated_at = now() where id = $1;

-- name: set-banned-until
-- $1 user id, $2 banned_until (null lifts the ban)
update auth.users set banned_until = $2::timestamptz, updated_at = now() where id = $1;

-- name: set-email-direct
-- $1 user id, $2 email (admin update: no confirmation round-trip)
update auth.users set email = $2, updated_at = now() where id = $1;

-- name: unconfirm-email
-- $1 user id (admin update with email_confirm: false)
update auth.users set email_confirmed_at = null, updated_at = now() where id = $1;

-- name: delete-user
-- $1 user id; identities, sessions, tokens and factors go by cascade.
delete from auth.users where id = $1;

-- name: soft-delete-user
-- $1 user id; GoTrue's soft delete obfuscates the email and keeps the row.
update auth.users
set deleted_at = now(), email = null, phone = null, encrypted_password = '',
  raw_user_meta_data = '{}'::jsonb, updated_at = now()
where id = $1;

-- name: list-users
-- $1 limit, $2 offset, $3 filter ('' for none; GoTrue: email LIKE or full_name ILIKE %filter%),
-- $4 'asc' or 'desc' on created_at (GoTrue's only sort field; default newest first).
select * from auth.users
where $3::text = '' or email like '%' || $3 || '%'
  or raw_user_meta_data ->> 'full_name' ilike '%' || $3 || '%'
order by case when $4::text = 'asc' then created_at end asc,
  case when $4::text <> 'asc' then created_at end desc, id
limit $1 offset $2;

-- name: count-users
-- $1 filter, as list-users
select count(*)::int as n from auth.users
where $1::text = '' or email like '%' || $1 || '%'
  or raw_user_meta_data ->> 'full_name' ilike '%' || $1 || '%';

-- name: insert-session
-- $1 session id, $2 user id, $3 user agent, $4 ip
insert into auth.sessions (id, user_id, created_at, updated_at, aal, refreshed_at, user_agent, ip)
values ($1, $2, now(), now(), 'aal1', now() at time zone 'utc', $3, $4::inet);

-- name: session-by-id
-- $1 session id
select * from auth.sessions where id = $1;

-- name: touch-session
-- $1 session id
update auth.sessions
set refreshed_at = now() at time zone 'utc', updated_at = now() where id = $1;

-- name: delete-session
-- $1 session id
delete from auth.sessions where id = $1;

-- name: delete-user-sessions
-- $1 user id
delete from auth.sessions where user_id = $1;

-- name: delete-other-sessions
-- $1 user id, $2 session id to keep
delete from auth.sessions where user_id = $1 and id <> $2;

-- name: insert-amr
-- $1 session id, $2 authentication method
insert into auth.mfa_amr_claims (id, session_id, created_at, updated_at, authentication_method)
values (gen_random_uuid(), $1, now(), now(), $2)
on conflict (session_id, authentication_method) do update set updated_at = now();

-- name: amr-by-session
-- $1 session id; newest first, as GoTrue sorts the amr claim.
select authentication_method, extract(epoch from updated_at)::int as ts
from auth.mfa_amr_claims where session_id = $1 order by updated_at desc;

-- name: insert-refresh-token
-- $1 token, $2 user id, $3 session id, $4 parent token (null for the first of a session)
insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at,
  parent, session_id)
values ('00000000-0000-0000-0000-000000000000', $1, $2, false, now(), now(), $4, $3);

-- name: refresh-token-by-token
-- $1 token; also returns whether its reuse interval ($2 seconds since revocation) is still open.
select rt.*, rt.updated_at + make_interval(secs => $2) > now() as within_reuse_interval
from auth.refresh_tokens rt where rt.token = $1;

-- name: active-refresh-token
-- $1 session id; the newest unrevoked token of the session.
select * from auth.refresh_tokens
where session_id = $1 and revoked = false order by id desc limit 1;

-- name: revoke-refresh-token
-- $1 token id
update auth.refresh_tokens set revoked = true, updated_at = now() where id = $1;

-- name: revoke-session-tokens
-- $1 session id; upstream's RevokeTokenFamily.
update auth.refresh_tokens set revoked = true, updated_at = now()
where session_id = $1 and revoked = false;

-- name: upsert-one-time-token
-- $1 user id, $2 token type, $3 token hash, $4 relates_to (the email)
insert into auth.one_time_tokens (id, user_id, token_type, token_hash, relates_to)
values (gen_random_uuid(), $1, $2::auth.one_time_token_type, $3, $4)
on conflict (user_id, token_type) do update
set token_hash = excluded.token_hash, relates_to = excluded.relates_to, updated_at = now();

-- name: delete-one-time-token
-- $1 user id, $2 token type
delete from auth.one_time_tokens where user_id = $1 and token_type = $2::auth.one_time_token_type;

-- name: user-by-token-hash
-- $1 token hash; which user column holds it tells the token's kind.
-- Tokens of PKCE flows are stored with a `pkce_` prefix.
select * from auth.users
where $1 in (confirmation_token, recovery_token, email_change_token_new, email_change_token_current)
  or 'pkce_' || $1 in (confirmation_token, recovery_token, email_change_token_new,
    email_change_token_current);

-- name: insert-flow-state
-- $1 id, $2 user id, $3 auth_code, $4 code_challenge_method, $5 code_challenge, $6 provider_type,
-- $7 authentication_method
insert into auth.flow_state (id, user_id, auth_code, code_challenge_method, code_challenge,
  provider_type, created_at, updated_at, authentication_method)
values ($1, $2, $3, $4::auth.code_challenge_method, $5, $6, now(), now(), $7);

-- name: latest-flow-state
-- $1 user id, $2 authentication_method; the newest one wins, as upstream.
select * from auth.flow_state
where user_id = $1 and authentication_method = $2 order by created_at desc limit 1;

-- name: issue-auth-code
-- $1 flow state id; marks when the code was handed out (its lifetime starts then).
update auth.flow_state set auth_code_issued_at = now(), updated_at = now() where id = $1;

-- name: flow-state-by-code
-- $1 auth code; $2 lifetime in seconds; also says whether the code has expired.
select *, coalesce(auth_code_issued_at, created_at) + make_interval(secs => $2) < now() as expired
from auth.flow_state where auth_code = $1;

-- name: delete-flow-state
-- $1 flow state id
delete from auth.flow_state where id = $1;

-- name: insert-audit
-- $1 payload json, $2 ip
insert into auth.audit_log_entries (instance_id, id, payload, created_at, ip_address)
values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), $1::json, now(), $2);

-- name: user-by-email-change
-- $1 the new email a pending email change is for
select * from auth.users where lower(email_change) = lower($1);
