-- Roles, schemas and extensions every Supabase project has before its first migration (contract
-- §6.1, §6.3). Runs on every start. Idempotent, and safe when several emulators bootstrap
-- throw-away databases on one native server at once: roles are cluster-wide, so role changes are
-- made only when something differs, under a lock on the shared catalogue pg_authid (advisory
-- locks are per database and would not serialise them), and concurrent creators are tolerated.
--
-- Gap, documented in emulator/README.md: `postgres` is a superuser here (PGlite's and Debian's
-- bootstrap user), while on hosted Supabase it is not.
do $$
declare
  -- role, can log in, inherits, bypasses RLS
  wanted constant text[][] := array[
    ['anon', 'f', 't', 'f'],
    ['authenticated', 'f', 't', 'f'],
    ['service_role', 'f', 't', 't'],
    ['authenticator', 't', 'f', 'f'],
    ['supabase_admin', 'f', 't', 't'],
    ['supabase_auth_admin', 'f', 'f', 'f'],
    ['supabase_storage_admin', 'f', 'f', 'f'],
    ['supabase_realtime_admin', 'f', 'f', 'f'],
    ['dashboard_user', 'f', 't', 'f'],
    ['pgbouncer', 'f', 't', 'f'],
    ['supabase_replication_admin', 'f', 't', 'f'],
    ['supabase_read_only_user', 'f', 't', 'f']];
  -- role, setting: the API roles' limits as on hosted (PGlite accepts them but never times out)
  settings constant text[][] := array[
    ['anon', 'statement_timeout=3s'],
    ['authenticated', 'statement_timeout=8s'],
    ['authenticator', 'statement_timeout=8s'],
    ['authenticator', 'lock_timeout=8s']];
  -- member, granted role
  memberships constant text[][] := array[
    ['authenticator', 'anon'], ['authenticator', 'authenticated'],
    ['authenticator', 'service_role'],
    ['postgres', 'anon'], ['postgres', 'authenticated'], ['postgres', 'service_role'],
    ['postgres', 'supabase_auth_admin'], ['postgres', 'supabase_storage_admin'],
    ['postgres', 'supabase_realtime_admin']];
  r text[];
  pass int;
  differs boolean;
begin
  -- Pass 1 only looks; pass 2 (only if something differs) locks and changes.
  for pass in 1..2 loop
    differs := false;
    if pass = 2 then
      lock table pg_catalog.pg_authid in share row exclusive mode;
    end if;
    foreach r slice 1 in array wanted loop
      if not exists (select 1 from pg_roles where rolname = r[1]) then
        differs := true;
        if pass = 2 then
          execute format('create role %I nologin', r[1]);
        end if;
      end if;
      if not exists (select 1 from pg_roles where rolname = r[1] and rolcanlogin = r[2]::boolean
          and rolinherit = r[3]::boolean and rolbypassrls = r[4]::boolean) then
        differs := true;
        if pass = 2 then
          execute format('alter role %I %s %s %s', r[1],
            case when r[2]::boolean then 'login' else 'nologin' end,
            case when r[3]::boolean then 'inherit' else 'noinherit' end,
            case when r[4]::boolean then 'bypassrls' else 'nobypassrls' end);
        end if;
      end if;
    end loop;
    foreach r slice 1 in array settings loop
      if not exists (select 1 from pg_db_role_setting s join pg_roles o on o.oid = s.setrole
          where o.rolname = r[1] and s.setdatabase = 0 and r[2] = any (s.setconfig)) then
        differs := true;
        if pass = 2 then
          execute format('alter role %I set %s = %L', r[1], split_part(r[2], '=', 1),
            split_part(r[2], '=', 2));
        end if;
      end if;
    end loop;
    foreach r slice 1 in array memberships loop
      if (select count(*) from pg_roles where rolname in (r[1], r[2])) < 2
          or not pg_has_role(r[1], r[2], 'member') then
        differs := true;
        if pass = 2 then
          execute format('grant %I to %I', r[2], r[1]);
        end if;
      end if;
    end loop;
    exit when not differs;
  end loop;
end $$;

-- `postgres`'s search_path as on hosted, for this database only (the server may be shared).
do $$
begin
  if not exists (select 1 from pg_db_role_setting s join pg_database d on d.oid = s.setdatabase
      where d.datname = current_database() and s.setrole = 'postgres'::regrole
        and 'search_path="$user", public, extensions' = any (s.setconfig)) then
    execute format('alter role postgres in database %I set search_path = "$user", public, extensions',
      current_database());
  end if;
end $$;
set search_path = "$user", public, extensions;

create schema if not exists extensions;
create schema if not exists auth;
create schema if not exists storage;
create schema if not exists realtime;
create schema if not exists graphql_public;
create schema if not exists vault;
create schema if not exists supabase_functions;
create schema if not exists supabase_migrations;

-- Recorded as the Supabase CLI records applied migrations.
create table if not exists supabase_migrations.schema_migrations (
  version text primary key,
  statements text[],
  name text
);

create extension if not exists pgcrypto with schema extensions;
create extension if not exists "uuid-ossp" with schema extensions;
