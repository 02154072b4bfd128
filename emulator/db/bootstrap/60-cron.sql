-- pg_cron stand-in (contract §6.3): the `cron` schema with the extension's tables and functions,
-- for servers where the real extension is not available (PGlite, Debian's PostgreSQL). Jobs are run
-- by emulator/cron/ in the emulator process; the migrations runner turns `create extension pg_cron`
-- into a no-op where this stands in. Idempotent; skipped where the real extension is available, so
-- a server that has it keeps `create extension` working. pg_net's stand-in is 61-net.sql.

-- pg_cron 1.6: objects as in its pg_cron--*.sql scripts, schedule validation as its ParseSchedule.
do $cron$
begin
  if exists (select 1 from pg_available_extensions where name = 'pg_cron') then
    return;
  end if;
  create schema if not exists cron;
  create sequence if not exists cron.jobid_seq;
  create sequence if not exists cron.runid_seq;
  create table if not exists cron.job (
    jobid bigint primary key default nextval('cron.jobid_seq'),
    schedule text not null,
    command text not null,
    -- PGlite has no server port; pg_cron fills in the one it connects to.
    nodename text not null default 'localhost',
    nodeport int not null default coalesce(inet_server_port(), 5432),
    database text not null default current_database(),
    username text not null default current_user,
    active boolean not null default true,
    jobname text,
    constraint jobname_username_uniq unique (jobname, username)
  );
  create table if not exists cron.job_run_details (
    jobid bigint,
    runid bigint primary key default nextval('cron.runid_seq'),
    job_pid integer,
    database text,
    username text,
    command text,
    status text,
    return_message text,
    start_time timestamptz,
    end_time timestamptz
  );
  alter sequence cron.jobid_seq owned by cron.job.jobid;
  alter sequence cron.runid_seq owned by cron.job_run_details.runid;
  -- Each role sees its own jobs, as pg_cron's policies make it.
  alter table cron.job enable row level security;
  alter table cron.job_run_details enable row level security;
  if not exists (select 1 from pg_policies where schemaname = 'cron' and policyname = 'cron_job_policy') then
    create policy cron_job_policy on cron.job using (username = current_user);
  end if;
  if not exists (select 1 from pg_policies where schemaname = 'cron'
      and policyname = 'cron_job_run_details_policy') then
    create policy cron_job_run_details_policy on cron.job_run_details using (username = current_user);
  end if;

  -- pg_cron's cache invalidation trigger; here it wakes the emulator's scheduler (cron/), which
  -- otherwise re-reads cron.job only every few seconds.
  create or replace function cron.job_cache_invalidate() returns trigger
  language plpgsql set search_path = '' as $fn$
  begin
    perform pg_notify('postbox_pg_cron', '');
    return null;
  end
  $fn$;
  if not exists (select 1 from pg_trigger where tgname = 'cron_job_cache_invalidate'
      and tgrelid = 'cron.job'::regclass) then
    create trigger cron_job_cache_invalidate after insert or update or delete or truncate
      on cron.job for each statement execute function cron.job_cache_invalidate();
  end if;

  -- True when pg_cron would accept the schedule: '[1-59] second[s]', @-macros, or five vixie-cron
  -- fields (lists, ranges, */steps, month and day names, 7 = Sunday, `$` = last day of month).
  -- Must agree with emulator/cron/schedule.ts, which runs the jobs.
  create or replace function cron.__schedule_is_valid(schedule text) returns boolean
  language plpgsql immutable set search_path = '' as $fn$
  declare
    s text := lower(btrim(schedule));
    fields text[];
    lo constant int[] := array[0, 0, 1, 1, 0];
    hi constant int[] := array[59, 23, 31, 12, 7];
    months constant text[] := array['jan','feb','mar','apr','may','jun','jul','aug','sep','oct','nov','dec'];
    days constant text[] := array['sun','mon','tue','wed','thu','fri','sat'];
    item text;
    m text[];
    bound text;
    n int;
    f int;
  begin
    if s is null then
      return false;
    end if;
    m := regexp_match(s, '^([0-9]{1,9})\s*seconds?$');
    if m is not null then
      return m[1]::int between 1 and 59;
    end if;
    if s in ('@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly',
        '@reboot') then
      return true;
    end if;
    fields := regexp_split_to_array(s, '\s+');
    if array_length(fields, 1) <> 5 then
      return false;
    end if;
    for f in 1..5 loop
      foreach item in array string_to_array(fields[f], ',') loop
        if f = 3 and item = '$' then
          continue;
        end if;
        m := regexp_match(item, '^(?:(\*)|([a-z0-9]+)(?:-([a-z0-9]+))?)(?:/([0-9]{1,9}))?$');
        if m is null then
          return false;
        end if;
        -- A step follows `*` or a range only, as in vixie cron.
        if m[4] is not null and (m[4]::int = 0 or (m[1] is null and m[3] is null)) then
          return false;
        end if;
        foreach bound in array array[m[2], m[3]] loop
          continue when bound is null;
          if bound ~ '^[0-9]+$' then
            n := bound::numeric;
          elsif f = 4 then
            n := array_position(months, bound);
          elsif f = 5 then
            n := array_position(days, bound) - 1;
          else
            n := null;
          end if;
          if n is null or n < lo[f] or n > hi[f] then
            return false;
          end if;
        end loop;
      end loop;
    end loop;
    return true;
  end
  $fn$;

  create or replace function cron.__check_schedule(schedule text) returns void
  language plpgsql immutable set search_path = '' as $fn$
  begin
    if not cron.__schedule_is_valid(schedule) then
      raise exception 'invalid schedule: %', schedule using errcode = '22023',
        hint = 'Use cron format (e.g. 5 4 * * *), or interval format ''[1-59] seconds''';
    end if;
  end
  $fn$;

  -- pg_cron's C functions are not strict: they refuse NULL arguments in these words (XX000).
  create or replace function cron.__check_not_null(value text, argument text) returns void
  language plpgsql immutable set search_path = '' as $fn$
  begin
    if value is null then
      raise exception '% can not be NULL', argument using errcode = 'XX000';
    end if;
  end
  $fn$;

  -- Only jobs in the emulator's own database run; pg_cron can target others.
  create or replace function cron.__check_database(database text) returns void
  language plpgsql stable set search_path = '' as $fn$
  begin
    if database is not null and database <> current_database() then
      raise exception 'the emulator''s pg_cron runs jobs in database "%" only', current_database()
        using errcode = '0A000';
    end if;
  end
  $fn$;

  -- pg_cron ≥ 1.3: scheduling a name the caller already uses updates that job.
  create or replace function cron.schedule(job_name text, schedule text, command text)
  returns bigint language plpgsql set search_path = '' as $fn$
  declare
    id bigint;
  begin
    perform cron.__check_not_null(job_name, 'job_name');
    perform cron.__check_not_null(schedule, 'schedule');
    perform cron.__check_not_null(command, 'command');
    perform cron.__check_schedule(schedule);
    insert into cron.job (schedule, command, jobname)
    values (schedule, command, job_name)
    on conflict on constraint jobname_username_uniq
      do update set schedule = excluded.schedule, command = excluded.command
    returning jobid into id;
    return id;
  end
  $fn$;

  create or replace function cron.schedule(schedule text, command text)
  returns bigint language plpgsql set search_path = '' as $fn$
  declare
    id bigint;
  begin
    perform cron.__check_not_null(schedule, 'schedule');
    perform cron.__check_not_null(command, 'command');
    perform cron.__check_schedule(schedule);
    insert into cron.job (schedule, command) values (schedule, command) returning jobid into id;
    return id;
  end
  $fn$;

  create or replace function cron.schedule_in_database(job_name text, schedule text, command text,
      database text, username text default null, active boolean default true)
  returns bigint language plpgsql set search_path = '' as $fn$
  declare
    id bigint;
  begin
    perform cron.__check_not_null(job_name, 'job_name');
    perform cron.__check_not_null(schedule, 'schedule');
    perform cron.__check_not_null(command, 'command');
    perform cron.__check_schedule(schedule);
    perform cron.__check_database(database);
    insert into cron.job (schedule, command, jobname, database, username, active)
    values (schedule, command, job_name, database, coalesce(username, current_user), active)
    on conflict on constraint jobname_username_uniq
      do update set schedule = excluded.schedule, command = excluded.command,
        database = excluded.database, active = excluded.active
    returning jobid into id;
    return id;
  end
  $fn$;

  -- Unknown jobs are an error, in pg_cron's words (SQLSTATE XX000).
  create or replace function cron.unschedule(job_id bigint)
  returns boolean language plpgsql set search_path = '' as $fn$
  begin
    delete from cron.job where jobid = job_id;
    if not found then
      raise exception 'could not find valid entry for job %', job_id using errcode = 'XX000';
    end if;
    return true;
  end
  $fn$;

  create or replace function cron.unschedule(job_name text)
  returns boolean language plpgsql set search_path = '' as $fn$
  begin
    delete from cron.job where jobname = job_name and username = current_user;
    if not found then
      raise exception 'could not find valid entry for job ''%''', job_name using errcode = 'XX000';
    end if;
    return true;
  end
  $fn$;

  create or replace function cron.alter_job(job_id bigint, schedule text default null,
      command text default null, database text default null, username text default null,
      active boolean default null)
  returns void language plpgsql set search_path = '' as $fn$
  begin
    if job_id is null then
      raise exception 'job_id can not be NULL' using errcode = 'XX000';
    end if;
    perform cron.__check_database(database);
    if schedule is not null then
      perform cron.__check_schedule(schedule);
    end if;
    if num_nonnulls(schedule, command, database, username, active) = 0 then
      raise exception 'no updates specified' using errcode = 'XX000',
        hint = 'You must specify at least one job attribute to change when calling alter_job';
    end if;
    update cron.job j set
      schedule = coalesce(alter_job.schedule, j.schedule),
      command = coalesce(alter_job.command, j.command),
      database = coalesce(alter_job.database, j.database),
      username = coalesce(alter_job.username, j.username),
      active = coalesce(alter_job.active, j.active)
    where j.jobid = job_id;
    -- Row policies hide other roles' jobs, as pg_cron's "and username = current_user" does.
    if not found then
      raise exception 'Job % does not exist or you don''t own it', job_id using errcode = 'XX000';
    end if;
  end
  $fn$;

  -- Supabase: the schema and its tables are usable by postgres (docs, "pg_cron").
  grant usage on schema cron to postgres;
  grant all on all tables in schema cron to postgres;
  grant all on all sequences in schema cron to postgres;
  revoke all on all functions in schema cron from public;
  grant execute on all functions in schema cron to postgres;
end
$cron$;
