-- The `private` schema: helpers used by policies and triggers, never exposed through the API.
create schema if not exists private;
comment on schema private is 'Postbox helpers for policies and triggers; not in api.schemas, so not reachable over REST.';

-- Policies run as the caller, so the roles that query the API need to see into this schema.
grant usage on schema private to anon, authenticated, service_role;

-- SPEC §5: the one email rule (mirrors lib/email.ts). Expects an already trimmed, lower-cased address.
create function private.is_valid_email(email text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select email is not null
    and char_length(email) <= 254
    and char_length(split_part(email, '@', 1)) <= 64
    and email ~ '^[a-z0-9!#$%&''*+/=?^_`{|}~-]+(\.[a-z0-9!#$%&''*+/=?^_`{|}~-]+)*@([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$'
$$;
comment on function private.is_valid_email(text) is 'SPEC §5 email rule on a normalised address; the same rule as lib/email.ts.';

-- SPEC §5: a name has at most 100 characters and no control characters.
create function private.is_valid_name(name text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select name is not null and char_length(name) <= 100 and name !~ '[\x01-\x1f\x7f-\x9f]'
$$;

-- SPEC §5: attributes are a JSON object of at most 4 KB.
create function private.is_valid_attributes(attributes jsonb)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select jsonb_typeof(attributes) = 'object' and octet_length(attributes::text) <= 4096
$$;

-- Keeps updated_at honest on every update, whoever writes.
create function private.touch_updated_at()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end;
$$;

revoke execute on all functions in schema private from public;
grant execute on function private.is_valid_email(text), private.is_valid_name(text),
  private.is_valid_attributes(jsonb) to anon, authenticated, service_role;
