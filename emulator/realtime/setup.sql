-- Objects the realtime service installs at start (idempotent). PGlite has no logical
-- replication, so changes are captured by row triggers instead of a replication slot; this
-- works the same on native Postgres. See "Realtime" in emulator/README.md.
create schema if not exists _realtime;
revoke all on schema _realtime from public;

-- Changes whose message would not fit into one NOTIFY payload (8000 bytes); the notification
-- then carries only the row id and the service reads (and deletes) the row.
create table if not exists _realtime.changes (
  id bigserial primary key,
  message jsonb not null,
  created_at timestamptz not null default now()
);

-- Row trigger installed on every table in publication supabase_realtime. Builds what walrus
-- (supabase/walrus realtime.apply_rls) builds from wal2json: record = the new row as jsonb;
-- old_record = the whole old row under REPLICA IDENTITY FULL, else only the identity columns
-- (primary key, or the chosen index); commit_timestamp formatted as upstream.
create or replace function _realtime.capture() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  ident "char";
  rls boolean;
  keys text[];
  old_record jsonb;
  message jsonb;
  change_id bigint;
begin
  select c.relreplident, c.relrowsecurity into ident, rls
  from pg_catalog.pg_class c where c.oid = tg_relid;
  if tg_op <> 'INSERT' then
    if ident = 'f' then
      old_record := pg_catalog.to_jsonb(old);
    else
      select coalesce(array_agg(a.attname::text), '{}') into keys
      from pg_catalog.pg_index i
      join pg_catalog.pg_attribute a on a.attrelid = i.indrelid and a.attnum = any (i.indkey)
      where i.indrelid = tg_relid
        and case when ident = 'i' then i.indisreplident else ident = 'd' and i.indisprimary end;
      select coalesce(jsonb_object_agg(e.key, e.value), '{}') into old_record
      from pg_catalog.jsonb_each(pg_catalog.to_jsonb(old)) e
      where e.key = any (keys);
    end if;
  end if;
  message := jsonb_build_object(
    'n', nextval('_realtime.changes_id_seq'),
    'relid', tg_relid::int8,
    'schema', tg_table_schema,
    'table', tg_table_name,
    'type', tg_op,
    'rls', rls,
    'commit_timestamp', to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'record', case when tg_op <> 'DELETE' then pg_catalog.to_jsonb(new) end,
    'old_record', old_record
  );
  -- NOTIFY payloads must stay under 8000 bytes.
  if octet_length(message::text) < 7900 then
    perform pg_notify('_realtime_change', message::text);
  else
    insert into _realtime.changes (message) values (message) returning id into change_id;
    perform pg_notify('_realtime_change', jsonb_build_object('id', change_id)::text);
  end if;
  return null;
end
$$;

-- Rows inserted into realtime.messages (realtime.send, broadcast_changes) are broadcast.
create or replace function _realtime.message_inserted() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  message jsonb := jsonb_build_object(
    'id', new.id, 'topic', new.topic, 'event', new.event, 'extension', new.extension,
    'private', new.private, 'payload', new.payload);
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
