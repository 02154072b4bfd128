-- Schema privileges and default privileges in their 2026 hosted form (contract §6.2).
-- Since 2026-10-30 every hosted project gives new objects that `postgres` creates in `public` no
-- grants to anon/authenticated/service_role (the CLI's `[api] auto_expose_new_tables = false`
-- revokes the `postgres` default privileges); `supabase_admin`'s defaults stay. A migration that
-- forgets its GRANT therefore fails here as it does there. Postgres's own built-in default —
-- EXECUTE on new functions to PUBLIC — is left alone, as on hosted (the contract removes only the
-- grants to the API roles), so the API roles can still call functions through PUBLIC.

grant usage on schema public to postgres, anon, authenticated, service_role;
grant usage on schema extensions to postgres, anon, authenticated, service_role;
grant usage on schema graphql_public to postgres, anon, authenticated, service_role;
grant usage on schema auth to anon, authenticated, service_role;
grant usage on schema storage to postgres, anon, authenticated, service_role;
grant usage on schema realtime to postgres, anon, authenticated, service_role;
grant all on schema auth to supabase_auth_admin;
grant all on schema storage to supabase_storage_admin;
grant all on schema realtime to supabase_realtime_admin;

-- `postgres`: nothing automatic in public (the 2026 form).
alter default privileges for role postgres in schema public
  revoke all on tables from anon, authenticated, service_role;
alter default privileges for role postgres in schema public
  revoke all on functions from anon, authenticated, service_role;
alter default privileges for role postgres in schema public
  revoke all on sequences from anon, authenticated, service_role;

-- `supabase_admin`: the platform's objects stay exposed as before.
alter default privileges for role supabase_admin in schema public
  grant all on tables to postgres, anon, authenticated, service_role;
alter default privileges for role supabase_admin in schema public
  grant all on functions to postgres, anon, authenticated, service_role;
alter default privileges for role supabase_admin in schema public
  grant all on sequences to postgres, anon, authenticated, service_role;

-- Tables that services and extensions put in `extensions` stay usable by the API roles.
alter default privileges in schema extensions
  grant all on tables to postgres, anon, authenticated, service_role;
alter default privileges in schema extensions
  grant all on functions to postgres, anon, authenticated, service_role;
alter default privileges in schema extensions
  grant all on sequences to postgres, anon, authenticated, service_role;
