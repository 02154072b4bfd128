-- Objects the realtime service installs at start (idempotent). PGlite has no logical
-- replication, so changes are captured by triggers instead of a replication slot; this works
-- the same on native Postgres. See "Realtime" in emulator/README.md.
create schema if not exists _realtime;
revoke all on schema _realtime from public;

-- Changes whose message would not fit into one NOTIFY payload (8000 bytes); the notification
-- then carries only the row id and the service reads (and deletes) the row.
create table if not exists _realtime.changes (
  id bigserial primary key,
  message jsonb not null,
  created_at timestamptz not null default now()
);

-- Whether any service could deliver a change of a table (cdc.ts arm()/disarm()): each service
-- counts the moments it starts and stops having postgres_changes subscribers, per table on
-- _realtime.armed_<key>/_realtime.disarmed_<key> (key from the table's name, as bindings name
-- tables), and for bindings on all tables on _realtime.armed/_realtime.disarmed. Sequences,
-- because a write reads them outside its snapshot (a REPEATABLE READ transaction sees an arm
-- made after it began); counters, so services sharing a database never turn each other's capture
-- off. A service that dies armed leaves capture on, which costs only time.
create sequence if not exists _realtime.armed;
create sequence if not exists _realtime.disarmed;
drop function if exists _realtime.listened();

-- The suffix of a table's sequence pair; null names give the pair for all tables.
create or replace function _realtime.listen_key(schema_name text, table_name text)
returns text
language sql immutable set search_path = '' as $$
  select case when schema_name is null then ''
    else '_' || left(pg_catalog.md5(pg_catalog.format('%I.%I', schema_name, table_name)), 16) end
$$;

create or replace function _realtime.listened(schema_name text, table_name text)
returns boolean
language sql volatile set search_path = '' as $$
  select exists (
    select 1
    from (values (''), (_realtime.listen_key(schema_name, table_name))) as k(k)
    where coalesce(pg_catalog.pg_sequence_last_value(pg_catalog.to_regclass('_realtime.armed' || k.k)), 0)
      > coalesce(pg_catalog.pg_sequence_last_value(pg_catalog.to_regclass('_realtime.disarmed' || k.k)), 0))
$$;

-- Counts one start (listening) or stop of listening to a table (null names: to all tables).
create or replace function _realtime.count_listening(schema_name text, table_name text, listening boolean)
returns void
language plpgsql set search_path = '' as $$
declare
  seq text := '_realtime.' || case when listening then 'armed' else 'disarmed' end
    || _realtime.listen_key(schema_name, table_name);
begin
  execute 'create sequence if not exists ' || seq;
  perform pg_catalog.nextval(seq::regclass);
end
$$;
revoke all on function _realtime.count_listening(text, text, boolean) from public;

-- Changes travel as packs: one NOTIFY payload (under 8000 bytes) carries several rows of one
-- statement on one table, in statement order:
--   {"n": <unique>, "relid", "schema", "table", "type", "rls", "commit_timestamp",
--    "rows": [[record, old_record], …]}
-- What each row carries is what walrus (supabase/walrus realtime.apply_rls) builds from wal2json:
-- record = the new row as JSON; old_record = the whole old row under REPLICA IDENTITY FULL, else
-- only the identity columns (primary key, or the chosen index); commit_timestamp formatted as
-- upstream. "n" keeps payloads distinct: NOTIFY drops a duplicate payload within a transaction.
-- A row whose pack would not fit alone is stored in _realtime.changes (as a pack of one) and only
-- {"id": …} is notified. The service unpacks them in order (cdc.ts handle()).

-- Columns old_record leaves out for table `rel`: none under REPLICA IDENTITY FULL, else every
-- column outside the identity (the primary key by default, the chosen index, none for NOTHING).
create or replace function _realtime.non_identity_columns(rel oid, ident "char")
returns text[]
language sql stable set search_path = '' as $$
  select coalesce(array_agg(a.attname::text), '{}')
  from pg_catalog.pg_attribute a
  where ident <> 'f' and a.attrelid = rel and a.attnum > 0 and not a.attisdropped
    and not exists (
      select 1 from pg_catalog.pg_index i
      where i.indrelid = rel and a.attnum = any (i.indkey)
        and case when ident = 'i' then i.indisreplident else ident = 'd' and i.indisprimary end)
$$;

-- Notifies `items` (each the JSON text of one [record, old_record], in order) as packs. Packing is
-- set-based: a row of more than half the room travels alone; the others are cut where the
-- running size within their run crosses a multiple of (room − the largest of them), so a pack
-- never exceeds the room and is usually nearly full.
create or replace function _realtime.notify_rows(
  rel oid, schema_name text, table_name text, op text, rls boolean, items text[])
returns void
language plpgsql security definer set search_path = '' as $$
declare
  head text := pg_catalog.jsonb_build_object(
    'relid', rel::int8,
    'schema', schema_name,
    'table', table_name,
    'type', op,
    'rls', rls,
    'commit_timestamp', pg_catalog.to_char(pg_catalog.now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
  )::text;
  -- Payload = '{"n": ' || n || ', ' || head without braces || ', "rows": [' || rows || ']}'; the
  -- payload must stay under 7900 bytes (NOTIFY's limit is 8000); n has at most 19 digits.
  room int := 7899 - (pg_catalog.octet_length(head) + 6 + 19 + 11 + 2);
  pack record;
  payload text;
  change_id bigint;
begin
  head := pg_catalog.substr(head, 2, pg_catalog.length(head) - 2);
  for pack in
    with sized as (
      -- +1 for the comma that joins a row to the previous one.
      select u.t, u.ord, pg_catalog.octet_length(u.t) + 1 as len
      from pg_catalog.unnest(items) with ordinality as u(t, ord)
    ), marked as (
      select t, ord, len, len * 2 > room as alone,
        count(*) filter (where len * 2 > room) over (order by ord) as run
      from sized
    ), cut as (
      select t, ord, len, alone, run,
        case when alone then 0
          else (sum(len) over (partition by run, alone order by ord)) /
            greatest(room - max(len) filter (where not alone) over (), 1)
        end as part
      from marked
    )
    select pg_catalog.string_agg(t, ',' order by ord) as body, sum(len) as len, min(ord) as first
    from cut
    group by run, alone, part
    order by first
  loop
    payload := '{"n": ' || pg_catalog.nextval('_realtime.changes_id_seq') || ', ' || head
      || ', "rows": [' || pack.body || ']}';
    if pack.len <= room then
      perform pg_catalog.pg_notify('_realtime_change', payload);
    else
      insert into _realtime.changes (message) values (payload::jsonb) returning id into change_id;
      perform pg_catalog.pg_notify('_realtime_change', '{"id": ' || change_id || '}');
    end if;
  end loop;
end
$$;

-- Statement trigger, one per event (PostgreSQL allows transition tables on single-event triggers
-- only), on every table of publication supabase_realtime: all rows of a statement in a few
-- packs. UPDATE pairs the n-th old row with the n-th new row: PostgreSQL appends a row's old and
-- new image to the two transition tables together (AfterTriggerSaveEvent), so the positions
-- match even when the key changes or the table has none. Rows are numbered by aggregating each
-- transition table in scan order, which is the order the statement changed them.
create or replace function _realtime.capture_rows() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  ident "char";
  rls boolean;
  dropped text[];
  items text[];
  news json[];
  olds jsonb[];
begin
  if not _realtime.listened(tg_table_schema, tg_table_name) then
    return null;
  end if;
  select c.relreplident, c.relrowsecurity into ident, rls
  from pg_catalog.pg_class c where c.oid = tg_relid;
  if tg_op <> 'INSERT' then
    dropped := _realtime.non_identity_columns(tg_relid, ident);
  end if;
  if tg_op = 'INSERT' then
    select array_agg('[' || pg_catalog.row_to_json(n.*)::text || ', null]') into items
    from _realtime_new_rows n;
  elsif tg_op = 'DELETE' then
    select array_agg('[null, ' || (pg_catalog.to_jsonb(o.*) - dropped)::text || ']')
      into items
    from _realtime_old_rows o;
  else
    select array_agg(pg_catalog.row_to_json(n.*)) into news from _realtime_new_rows n;
    select array_agg(pg_catalog.to_jsonb(o.*) - dropped) into olds
    from _realtime_old_rows o;
    select array_agg('[' || u.n::text || ', ' || u.o::text || ']') into items
    from unnest(news, olds) as u(n, o);
  end if;
  if items is not null then
    perform _realtime.notify_rows(tg_relid, tg_table_schema, tg_table_name, tg_op, rls, items);
  end if;
  return null;
end
$$;

-- Row trigger for the tables statement triggers cannot serve alike: partitioned tables,
-- partitions and inheritance members, where a statement names another table than the one whose
-- rows it changes (cdc.ts reconcile() chooses). Same packs, one row each.
create or replace function _realtime.capture() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  ident "char";
  rls boolean;
  old_record text := 'null';
begin
  if not _realtime.listened(tg_table_schema, tg_table_name) then
    return null;
  end if;
  select c.relreplident, c.relrowsecurity into ident, rls
  from pg_catalog.pg_class c where c.oid = tg_relid;
  if tg_op <> 'INSERT' then
    old_record := (pg_catalog.to_jsonb(old) - _realtime.non_identity_columns(tg_relid, ident))::text;
  end if;
  perform _realtime.notify_rows(tg_relid, tg_table_schema, tg_table_name, tg_op, rls, array[
    '[' || case when tg_op = 'DELETE' then 'null' else pg_catalog.row_to_json(new)::text end
      || ', ' || old_record || ']']);
  return null;
end
$$;

-- Rows inserted into realtime.messages (realtime.send, send_binary, broadcast_changes) are
-- broadcast; raw bytes travel base64-encoded.
create or replace function _realtime.message_inserted() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  message jsonb := jsonb_build_object(
    'id', new.id, 'topic', new.topic, 'event', new.event, 'extension', new.extension,
    'private', new.private, 'payload', new.payload,
    'binary_payload', encode(new.binary_payload, 'base64'));
begin
  if octet_length(message::text) < 7900 then
    perform pg_notify('_realtime_message', message::text);
  else
    perform pg_notify('_realtime_message', jsonb_build_object('ref', new.id)::text);
  end if;
  return null;
end
$$;

-- Which of several callers may see one row (walrus realtime.apply_rls checks every subscription
-- of a change in one call too). $1 the table, $2 the row-matching condition over alias x (with the
-- record as $1 inside it), $3 the record, $4 a JSON array of callers [{role, claims, sub}].
-- Returns one boolean per caller, in order; a caller whose check fails (e.g. a policy error) is
-- false. Runs as the invoker: `set_config('role', …)` needs the session user (postgres) to be a
-- member of each role, and RLS applies to whichever role is current.
create or replace function _realtime.visible_to(rel regclass, condition text, record jsonb, callers jsonb)
returns boolean[]
language plpgsql as $$
declare
  caller jsonb;
  seen boolean;
  result boolean[] := '{}';
  original text := current_user;
begin
  for caller in select * from jsonb_array_elements(callers) loop
    begin
      perform pg_catalog.set_config('role', caller->>'role', true),
        pg_catalog.set_config('request.jwt.claims', (caller->'claims')::text, true),
        pg_catalog.set_config('request.jwt.claim.sub', coalesce(caller->>'sub', ''), true),
        pg_catalog.set_config('request.jwt.claim.role', caller->>'role', true),
        pg_catalog.set_config('request.headers', '{}', true);
      execute format('select exists (select 1 from %s x where %s)', rel, condition) into seen using record;
      result := result || coalesce(seen, false);
    exception when others then
      result := result || false;
    end;
    perform pg_catalog.set_config('role', original, true);
  end loop;
  return result;
end;
$$;
revoke all on function _realtime.visible_to(regclass, text, jsonb, jsonb) from public;
