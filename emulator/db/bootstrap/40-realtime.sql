-- The `realtime` objects migrations use (contract §6.6): realtime.messages for broadcast from the
-- database and private-channel policies, realtime.topic(), realtime.send(), realtime.send_binary(),
-- realtime.broadcast_changes(), and the empty `supabase_realtime` publication.

-- Upstream partitions messages by day on inserted_at and drops old partitions; a plain table
-- behaves the same for queries and policies, so the emulator keeps one (rows are not expired).
create table if not exists realtime.messages (
  topic text not null,
  extension text not null,
  payload jsonb,
  event text,
  private boolean default false,
  binary_payload bytea,
  updated_at timestamp not null default now(),
  inserted_at timestamp not null default now(),
  id uuid not null default gen_random_uuid(),
  primary key (id, inserted_at)
);
create index if not exists messages_inserted_at_topic_index
  on realtime.messages (inserted_at desc, topic)
  where extension = 'broadcast' and private is true;
alter table realtime.messages enable row level security;
alter table realtime.messages owner to supabase_realtime_admin;
grant select, insert, update on realtime.messages to postgres, anon, authenticated, service_role;

-- The channel topic a private-channel policy is being checked for (set by the Realtime service).
create or replace function realtime.topic() returns text
language sql stable
as $$
  select nullif(current_setting('realtime.topic', true), '')::text
$$;

-- As upstream: inserts a broadcast row as the caller (so RLS on realtime.messages applies) and
-- never raises — a failure is only a warning, so the caller's transaction carries on.
create or replace function realtime.send(
  payload jsonb, event text, topic text, private boolean default true
) returns void
language plpgsql
as $$
declare
  generated_id uuid;
  final_payload jsonb;
begin
  begin
    generated_id := gen_random_uuid();
    final_payload := case when payload ? 'id' then payload
      else jsonb_set(payload, '{id}', to_jsonb(generated_id)) end;
    execute format('set local realtime.topic to %L', topic);
    insert into realtime.messages (id, payload, event, topic, private, extension)
    values (generated_id, final_payload, event, topic, private, 'broadcast');
  exception when others then
    raise warning 'ErrorSendingBroadcastMessage: %', sqlerrm;
  end;
end;
$$;

-- As upstream (realtime migration 20260603120000): raw bytes in binary_payload, delivered to
-- subscribers as a binary broadcast; like send(), a failure is only a warning.
create or replace function realtime.send_binary(
  payload bytea, event text, topic text, private boolean default true
) returns void
language plpgsql
as $$
declare
  generated_id uuid;
begin
  begin
    generated_id := gen_random_uuid();
    execute format('set local realtime.topic to %L', topic);
    insert into realtime.messages (id, binary_payload, event, topic, private, extension)
    values (generated_id, payload, event, topic, private, 'broadcast');
  exception when others then
    raise warning 'WarnSendingBroadcastMessage: %', sqlerrm;
  end;
end;
$$;

-- For row triggers: broadcasts {record, old_record, operation, table, schema} on topic_name.
create or replace function realtime.broadcast_changes(
  topic_name text, event_name text, operation text, table_name text, table_schema text,
  new record, old record, level text default 'ROW'
) returns void
language plpgsql
as $$
declare
  row_data jsonb := '{}'::jsonb;
begin
  if level = 'STATEMENT' then
    raise exception 'function can only be triggered for each row, not for each statement';
  end if;
  if operation in ('INSERT', 'UPDATE', 'DELETE') then
    row_data := jsonb_build_object('old_record', old, 'record', new, 'operation', operation,
      'table', table_name, 'schema', table_schema);
    perform realtime.send(row_data, event_name, topic_name);
  else
    raise exception 'Unexpected operation type: %', operation;
  end if;
exception when others then
  raise exception 'Failed to process the row: %', sqlerrm;
end;
$$;

grant execute on function realtime.topic(), realtime.send(jsonb, text, text, boolean),
  realtime.send_binary(bytea, text, text, boolean),
  realtime.broadcast_changes(text, text, text, text, text, record, record, text)
  to postgres, anon, authenticated, service_role;

-- Created only when missing: migrations add tables to it and a restart must not undo that.
do $$
begin
  if not exists (select 1 from pg_publication where pubname = 'supabase_realtime') then
    create publication supabase_realtime with (publish = 'insert, update, delete, truncate');
  end if;
end $$;
