-- The email rule (SPEC §5, 20261122100000) said "a label has 1–63 characters" inside its regular
-- expression as `{0,61}`, repeated once per label: PostgreSQL's regex engine expands a bounded
-- repeat into a chain of states, and that one check cost about ten times the rest of a row's
-- checks on every subscriber written (5,000 per import batch, issue 6). The same rule, written so
-- the pattern has no bounded repeat: labels of any length in the pattern, and then no label (the
-- top level included) over 63 characters — which only a domain over 63 characters can hold, so
-- the second pattern runs only for those. The accepted addresses are exactly the same as before
-- and as lib/email.ts (tests/sql/email-rule.integration.test.ts compares them).
create or replace function private.is_valid_email(email text)
returns boolean
language sql
immutable
return email is not null
  and char_length(email) <= 254
  and char_length(split_part(email, '@', 1)) <= 64
  and email ~ '^[a-z0-9!#$%&''*+/=?^_`{|}~-]+(\.[a-z0-9!#$%&''*+/=?^_`{|}~-]+)*@([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z][a-z]+$'
  and (char_length(split_part(email, '@', 2)) <= 63 or split_part(email, '@', 2) !~ '[a-z0-9-]{64}');
