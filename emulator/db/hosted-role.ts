// Opt-in check that migrations and the seed would pass as hosted Supabase's `postgres`, which is
// not a superuser. The emulator's `postgres` is one (PGlite's bootstrap user, and CI's cluster
// owner), so each file is first run, and rolled back, as `postbox_hosted_postgres`: a role with
// hosted `postgres`'s attributes and memberships (from a hosted project's pg_dumpall, Postgres
// 15.8: NOSUPERUSER CREATEROLE CREATEDB REPLICATION BYPASSRLS; member of anon, authenticated,
// service_role, pg_monitor, pg_read_all_data, pg_signal_backend, supabase_auth_admin,
// supabase_storage_admin, supabase_realtime_admin), plus membership in the local `postgres`, so
// it acts as owner of what earlier migrations made (on hosted those belong to `postgres` itself).
import type { Db, Queryable } from './types.js';

export const HOSTED_POSTGRES_ROLE = 'postbox_hosted_postgres';

const MEMBERSHIPS = [
  'postgres',
  'anon',
  'authenticated',
  'service_role',
  'pg_monitor',
  'pg_read_all_data',
  'pg_signal_backend',
  'supabase_auth_admin',
  'supabase_storage_admin',
  'supabase_realtime_admin',
];

// Superuser-only settings hosted lets `postgres` SET through supautils'
// privileged_role_allowed_configs (the core ones of supabase/postgres's supautils.conf); granted
// here with Postgres 15's SET privilege, which also lets set_config() through, unlike supautils.
const ALLOWED_SETTINGS = [
  'session_replication_role',
  'log_lock_waits',
  'log_min_duration_statement',
  'log_min_messages',
  'log_statement',
  'log_temp_files',
  'track_io_timing',
];

// Roles are cluster-wide: create and grant only what is missing, under the lock the bootstrap
// takes, so emulators starting together on one native server do not race.
const ENSURE_SQL = `
do $$
declare
  member text;
begin
  lock table pg_catalog.pg_authid in share row exclusive mode;
  if not exists (select 1 from pg_roles where rolname = '${HOSTED_POSTGRES_ROLE}') then
    create role ${HOSTED_POSTGRES_ROLE} nologin;
  end if;
  alter role ${HOSTED_POSTGRES_ROLE}
    nosuperuser inherit createrole createdb replication bypassrls;
  foreach member in array array['${MEMBERSHIPS.join("','")}'] loop
    if exists (select 1 from pg_roles where rolname = member)
       and not pg_has_role('${HOSTED_POSTGRES_ROLE}', member, 'member') then
      execute format('grant %I to ${HOSTED_POSTGRES_ROLE}', member);
    end if;
  end loop;
  foreach member in array array['${ALLOWED_SETTINGS.join("','")}'] loop
    if not has_parameter_privilege('${HOSTED_POSTGRES_ROLE}', member, 'SET') then
      execute format('grant set on parameter %s to ${HOSTED_POSTGRES_ROLE}', member);
    end if;
  end loop;
end $$;
alter role ${HOSTED_POSTGRES_ROLE} set search_path = "$user", public, extensions;
`;

export async function ensureHostedPostgresRole(db: Db): Promise<void> {
  await db.transaction((tx) => tx.exec(ENSURE_SQL));
}

/** Thrown to roll the trial run back once it succeeded. */
class TrialDone extends Error {}

/** A file that would fail on hosted; its message says so, naming the file, line and error. */
export class HostedRoleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HostedRoleError';
  }
}

/**
 * Runs `apply` (which executes a migration's or seed's SQL) in a transaction as the hosted role
 * and rolls it back. A failure is rethrown as a HostedRoleError with the same file and line.
 */
export async function trialAsHostedPostgres(
  db: Db,
  apply: (tx: Queryable, role: string) => Promise<void>,
): Promise<void> {
  try {
    await db.transaction(async (tx) => {
      await apply(tx, HOSTED_POSTGRES_ROLE);
      throw new TrialDone();
    });
  } catch (err) {
    if (err instanceof TrialDone) return;
    throw new HostedRoleError(
      `${(err as Error).message.replace(/ failed: /, ' would fail on hosted Supabase, where postgres is not a superuser: ')}`,
    );
  }
}
