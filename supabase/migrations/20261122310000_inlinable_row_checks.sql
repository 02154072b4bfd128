-- The row checks of subscribers (email, name, attributes) and its referral-code default run for
-- every row written: a CSV import writes 5,000 per statement (issue 6). As SQL functions with
-- `set search_path = ''` PostgreSQL can never inline them, so each row paid four separate function
-- calls (each with its own executor and search_path switch). With an SQL-standard body (`return`)
-- and no SET clause the planner inlines them into the constraint and the default. They stay as
-- safe as before: such a body is parsed when the function is created, so every name in it is
-- already resolved and the caller's search_path cannot change what it means. The rules are those
-- of 20261122100000 and 20261122100400, unchanged.
--
-- The email pattern also said "a label has 1–63 characters" as `{0,61}`, repeated once per label:
-- PostgreSQL's regex engine expands a bounded repeat into a chain of states, and that one check
-- cost about ten times the rest of a row's checks. The same rule is now written without a bounded
-- repeat: labels of any length in the pattern, and then no label (the top level included) over 63
-- characters — which only a domain over 63 characters can hold, so the second pattern runs only
-- for those. It accepts exactly what it accepted before and what lib/email.ts accepts
-- (tests/sql/email-rule.integration.test.ts compares them).
create or replace function private.is_valid_email(email text)
returns boolean
language sql
immutable
return email is not null
  and char_length(email) <= 254
  and char_length(split_part(email, '@', 1)) <= 64
  and email ~ '^[a-z0-9!#$%&''*+/=?^_`{|}~-]+(\.[a-z0-9!#$%&''*+/=?^_`{|}~-]+)*@([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z][a-z]+$'
  and (char_length(split_part(email, '@', 2)) <= 63 or split_part(email, '@', 2) !~ '[a-z0-9-]{64}');

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
