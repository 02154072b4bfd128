-- The event triggers hosted Supabase installs so PostgREST reloads its schema cache after DDL
-- (contract §6.3): `NOTIFY pgrst, 'reload schema'`, which the REST service listens for. Like
-- upstream, only commands that can change what the API exposes notify, and never for objects in
-- pg_temp: a function that builds a temporary table per call (an import batch) would otherwise
-- reload the cache and forget every prepared REST statement on each call.

create or replace function extensions.pgrst_ddl_watch() returns event_trigger
language plpgsql
as $$
declare
  command record;
begin
  for command in select * from pg_event_trigger_ddl_commands() loop
    if command.command_tag in (
         'CREATE SCHEMA', 'ALTER SCHEMA',
         'CREATE TABLE', 'CREATE TABLE AS', 'SELECT INTO', 'ALTER TABLE',
         'CREATE FOREIGN TABLE', 'ALTER FOREIGN TABLE',
         'CREATE VIEW', 'ALTER VIEW', 'CREATE MATERIALIZED VIEW', 'ALTER MATERIALIZED VIEW',
         'CREATE FUNCTION', 'ALTER FUNCTION', 'CREATE TRIGGER',
         'CREATE TYPE', 'ALTER TYPE', 'CREATE RULE', 'COMMENT')
       and command.schema_name is distinct from 'pg_temp' then
      notify pgrst, 'reload schema';
    end if;
  end loop;
end;
$$;

create or replace function extensions.pgrst_drop_watch() returns event_trigger
language plpgsql
as $$
declare
  dropped record;
begin
  for dropped in select * from pg_event_trigger_dropped_objects() loop
    if dropped.object_type in ('schema', 'table', 'foreign table', 'view', 'materialized view',
                               'function', 'trigger', 'type', 'rule')
       and not dropped.is_temporary then
      notify pgrst, 'reload schema';
    end if;
  end loop;
end;
$$;

do $$
begin
  if not exists (select 1 from pg_event_trigger where evtname = 'pgrst_ddl_watch') then
    create event trigger pgrst_ddl_watch on ddl_command_end
      execute function extensions.pgrst_ddl_watch();
  end if;
  if not exists (select 1 from pg_event_trigger where evtname = 'pgrst_drop_watch') then
    create event trigger pgrst_drop_watch on sql_drop
      execute function extensions.pgrst_drop_watch();
  end if;
end $$;
