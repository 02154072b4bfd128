// Opt-in check that migrations pass as hosted Supabase's non-superuser `postgres`: what hosted
// allows (storage policies, auth.users triggers, default privileges, session_replication_role)
// passes; what needs a superuser fails the start naming file and line; off, nothing changes; and
// Postbox's own migrations and seed pass it (issue 25: "Postbox's own migrations must pass that
// way in CI"), on PGlite and, in the second pass, on PostgreSQL 15.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startEmulator } from '../index.js';
import { startTestProject } from '../test-project.js';
import { ensureHostedPostgresRole, HOSTED_POSTGRES_ROLE } from './hosted-role.js';

const ALLOWED = `
create table public.notes (id int primary key, owner uuid);
alter table public.notes enable row level security;
grant select on public.notes to authenticated;
alter default privileges for role postgres in schema public grant select on tables to service_role;
create policy "own files" on storage.objects for select to authenticated
  using (owner = (select auth.uid()));
create function public.on_signup() returns trigger language plpgsql security definer
  set search_path = '' as $$ begin insert into public.notes values (1, new.id); return new; end $$;
create trigger on_signup after insert on auth.users for each row execute function public.on_signup();
set session_replication_role = replica;
insert into public.notes values (2, null);
set session_replication_role = origin;
`;

// An operator family needs a superuser, and supautils does not lift that on hosted.
const SUPERUSER_ONLY = `
create operator family public.notes_ops using btree;
`;

const files = {
  'config.toml': 'project_id = "t"\n',
  'migrations/20260101000000_allowed.sql': ALLOWED,
  'migrations/20260101000001_opfamily.sql': SUPERUSER_ONLY,
};

describe('checkAsHostedPostgres', () => {
  it('fails the start at the first file hosted would refuse, after passing the allowed one', async () => {
    await expect(
      startTestProject('hosted-check', files, { checkAsHostedPostgres: true }),
    ).rejects.toThrow(
      'migration 20260101000001_opfamily.sql would fail on hosted Supabase, where postgres is not a superuser: must be superuser to create an operator family [SQLSTATE 42501]',
    );
  }, 120_000);

  it('is off by default: the same project starts, and the role is hosted postgres’s', async () => {
    const project = await startTestProject('hosted-check-off', files);
    try {
      const { db } = project.emu;
      const family = await db.query(`select 1 from pg_opfamily where opfname = 'notes_ops'`);
      expect(family.rows).toHaveLength(1);
      await ensureHostedPostgresRole(db);
      const { rows } = await db.query<Record<string, unknown>>(
        `select rolsuper, rolcreaterole, rolcreatedb, rolreplication, rolbypassrls, rolcanlogin,
           array(select b.rolname::text from pg_auth_members m join pg_roles b on b.oid = m.roleid
                 where m.member = r.oid order by 1) as member_of
         from pg_roles r where rolname = $1`,
        [HOSTED_POSTGRES_ROLE],
      );
      expect(rows[0]).toEqual({
        rolsuper: false,
        rolcreaterole: true,
        rolcreatedb: true,
        rolreplication: true,
        rolbypassrls: true,
        rolcanlogin: false,
        member_of: expect.arrayContaining([
          'anon',
          'authenticated',
          'pg_read_all_data',
          'postgres',
          'service_role',
          'supabase_auth_admin',
          'supabase_storage_admin',
        ]),
      });
    } finally {
      await project.stop();
    }
  }, 120_000);
});

describe('Postbox’s own migrations as hosted Supabase runs them', () => {
  it('every migration and the seed pass as the non-superuser postgres hosted uses', async () => {
    const emu = await startEmulator({
      memory: true,
      port: 0,
      dbPort: null,
      mailWebPort: 0,
      mailSmtpPort: 0,
      checkAsHostedPostgres: true,
    });
    try {
      const dir = fileURLToPath(new URL('../../supabase/migrations', import.meta.url));
      const files = readdirSync(dir).filter((f) => f.endsWith('.sql'));
      const { rows } = await emu.db.query<{ n: number }>(
        'select count(*)::int as n from supabase_migrations.schema_migrations',
      );
      expect(rows[0]!.n).toBe(files.length);
      const seeded = await emu.db.query(`select 1 from public.lists where slug = 'newsletter'`);
      expect(seeded.rows).toHaveLength(1);
    } finally {
      await emu.stop();
    }
  }, 300_000);
});
