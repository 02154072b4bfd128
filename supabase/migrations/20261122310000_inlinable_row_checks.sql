-- The row checks of subscribers (email, name, attributes) and its referral-code default run for
-- every row written: a CSV import writes 5,000 per statement (issue 6). As SQL functions with
-- `set search_path = ''` PostgreSQL can never inline them, so each row paid four separate function
-- calls (each with its own executor and search_path switch). With an SQL-standard body (`return`)
-- and no SET clause the planner inlines them into the constraint and the default. They stay as
-- safe as before: such a body is parsed when the function is created, so every name in it is
-- already resolved and the caller's search_path cannot change what it means. The rules are those
-- of 20261122100000 and 20261122100400, unchanged.
create or replace function private.is_valid_email(email text)
returns boolean
language sql
immutable
return email is not null
  and char_length(email) <= 254
  and char_length(split_part(email, '@', 1)) <= 64
  and email ~ '^[a-z0-9!#$%&''*+/=?^_`{|}~-]+(\.[a-z0-9!#$%&''*+/=?^_`{|}~-]+)*@([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$';

create or replace function private.is_valid_name(name text)
returns boolean
language sql
immutable
return name is not null and char_length(name) <= 100 and name !~ '[\x01-\x1f\x7f-\x9f]';

create or replace function private.is_valid_attributes(attributes jsonb)
returns boolean
language sql
immutable
return jsonb_typeof(attributes) = 'object' and octet_length(attributes::text) <= 4096;

-- 10 characters of base32-ish text from 64 random bits: short enough to share, hard to guess.
create or replace function private.new_referral_code()
returns text
language sql
volatile
return lower(translate(encode(extensions.gen_random_bytes(8), 'base64'), '+/=', ''));
