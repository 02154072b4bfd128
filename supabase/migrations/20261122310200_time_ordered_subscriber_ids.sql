-- New subscribers get time-ordered ids (UUID version 7, RFC 9562) instead of random ones (issue 6).
-- A subscriber's id is the leading key of four indexes that grow with the audience: subscribers'
-- primary key, subscriptions' primary key, events by subscriber and deliveries. With random ids
-- every insert lands on a random page of each, so a million-row import keeps reading and
-- rewriting pages all over indexes far larger than shared_buffers (and writes a full-page image
-- of each after every checkpoint). Time-ordered ids append at the right edge instead. Ids stay
-- unguessable enough for what they are (74 random bits; every link that names a subscriber is
-- signed anyway) and keep their type, so nothing that reads them changes.

-- 48 bits of Unix time in milliseconds, then version 7, then the random bits (and the RFC 4122
-- variant) of a version 4 UUID. An SQL-standard body without SET clauses, so it is inlined.
create function private.uuid_v7()
returns uuid
language sql
volatile
return encode(
  set_bit(
    set_bit(
      overlay(uuid_send(gen_random_uuid())
              placing substring(int8send((extract(epoch from clock_timestamp()) * 1000)::bigint) from 3)
              from 1 for 6),
      52, 1),
    53, 1),
  'hex')::uuid;
comment on function private.uuid_v7() is 'A time-ordered UUID (version 7): milliseconds since 1970, then random bits.';
grant execute on function private.uuid_v7() to anon, authenticated, service_role;

alter table public.subscribers alter column id set default private.uuid_v7();
