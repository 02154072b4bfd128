-- The event triggers hosted Supabase installs so PostgREST reloads its schema cache after DDL
-- (contract §6.3): every DDL command and every drop sends `NOTIFY pgrst, 'reload schema'`, which
-- the REST service listens for. Upstream filters by command tag; any DDL reloading is harmless.

create or replace function extensions.pgrst_ddl_watch() returns event_trigger
language plpgsql
as $$
begin
  notify pgrst, 'reload schema';
end;
$$;

create or replace function extensions.pgrst_drop_watch() returns event_trigger
language plpgsql
as $$
begin
  notify pgrst, 'reload schema';
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
