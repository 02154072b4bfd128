-- Runs process-queue every 10 seconds (SPEC §9) with pg_cron + pg_net, on hosted Supabase and on the
-- local emulator alike. The job needs the project URL and the service-role key: on hosted they are
-- Vault secrets (postbox_project_url, postbox_service_role_key; see supabase/functions/README.md);
-- where Vault is absent (the emulator) they come from private.scheduler_secrets, which starts with
-- the local stack's fixed URL and key. Without either, the job does nothing.
create extension if not exists pg_cron with schema pg_catalog;
create extension if not exists pg_net with schema extensions;

create table private.scheduler_secrets (
  name text primary key,
  value text not null
);
comment on table private.scheduler_secrets is 'Fallback for Vault secrets where Vault is absent (local emulator only).';
revoke all on private.scheduler_secrets from public, anon, authenticated, service_role;

do $$
begin
  if to_regclass('vault.decrypted_secrets') is null then
    -- The emulator's default gateway and its well-known local service-role key (public, local only).
    insert into private.scheduler_secrets (name, value) values
      ('postbox_project_url', 'http://127.0.0.1:54321'),
      ('postbox_service_role_key', 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6InNlcnZpY2Vfcm9sZSIsImV4cCI6MTk4MzgxMjk5Nn0.EGIM96RAZx35lJzdJsyH-qQwv8Hdp7fsn3W0YpN81IU');
  end if;
end;
$$;

-- A secret by name: Vault first (hosted), then the local fallback table.
create function private.scheduler_secret(p_name text)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  found_value text;
begin
  if to_regclass('vault.decrypted_secrets') is not null then
    execute 'select decrypted_secret from vault.decrypted_secrets where name = $1 limit 1'
      into found_value using p_name;
    if found_value is not null then
      return found_value;
    end if;
  end if;
  select value into found_value from private.scheduler_secrets where name = p_name;
  return found_value;
end;
$$;

-- Fires one process-queue request (pg_net sends it after commit and does not wait for it); returns
-- the request id, or null when the secrets are not set up.
create function private.kick_process_queue()
returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare
  url text := private.scheduler_secret('postbox_project_url');
  service_key text := private.scheduler_secret('postbox_service_role_key');
begin
  if url is null or service_key is null then
    return null;
  end if;
  return net.http_post(
    url := rtrim(url, '/') || '/functions/v1/process-queue',
    body := '{}'::jsonb,
    headers := jsonb_build_object('Content-Type', 'application/json',
                                  'Authorization', 'Bearer ' || service_key),
    timeout_milliseconds := 30000);
end;
$$;
revoke execute on function private.scheduler_secret(text) from public, anon, authenticated, service_role;
revoke execute on function private.kick_process_queue() from public, anon, authenticated, service_role;

select cron.schedule('postbox-process-queue', '10 seconds', 'select private.kick_process_queue()');
