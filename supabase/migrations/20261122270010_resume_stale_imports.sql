-- A CSV import whose run died (the function was killed mid-file) resumes without anyone calling
-- import-subscribers again (issue 6): every 15 seconds pg_cron looks for running imports that no
-- run holds — the lease expired (a crash) or was given back without a continuation arriving — and
-- calls import-subscribers for each with the service key, as process-queue is called
-- (20261122210100). The function claims the import atomically, so a call that races a live run
-- or its continuation only answers 202 and does nothing; the batch then resumes after the last
-- committed one (SPEC §9).
create index imports_running_idx on public.imports (lease_until) where status = 'running';

-- Returns how many imports were kicked (0 without the project URL and key).
create function private.resume_stale_imports()
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  url text := private.scheduler_secret('postbox_project_url');
  service_key text := private.scheduler_secret('postbox_service_role_key');
  stale record;
  kicked integer := 0;
begin
  if url is null or service_key is null then
    return 0;
  end if;
  for stale in
    select i.id from public.imports i
     where i.status = 'running' and (i.lease_until is null or i.lease_until < clock_timestamp())
     order by i.created_at
     limit 20
  loop
    perform net.http_post(
      url := rtrim(url, '/') || '/functions/v1/import-subscribers',
      body := jsonb_build_object('import_id', stale.id),
      headers := jsonb_build_object('Content-Type', 'application/json',
                                    'Authorization', 'Bearer ' || service_key),
      timeout_milliseconds := 30000);
    kicked := kicked + 1;
  end loop;
  return kicked;
end;
$$;
revoke execute on function private.resume_stale_imports() from public, anon, authenticated, service_role;

select cron.schedule('postbox-resume-imports', '15 seconds', 'select private.resume_stale_imports()');
