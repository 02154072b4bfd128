// A hosted-style migration runs unchanged, and the platform objects behave as on hosted (contract §6);
// schema cache notifications are in pgrst-notify.integration.test.ts.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../index.js';
import { startTestProjectWithClient } from '../test-project.js';
import { bootstrapPlatform } from './bootstrap.js';

const BOOTSTRAP_DIR = fileURLToPath(new URL('./bootstrap/', import.meta.url));
// auth.users comes from the Auth engineer's 20-auth.sql; its statements wait for it.
const hasAuthUsers = await (async () => {
  for (const file of await readdir(BOOTSTRAP_DIR)) {
    const sql = await readFile(join(BOOTSTRAP_DIR, file), 'utf8');
    if (/create table if not exists auth\.users\b/i.test(sql)) return true;
  }
  return false;
})();

const BASE_MIGRATION = `
create extension if not exists pg_trgm with schema extensions;
create extension if not exists citext with schema extensions;

insert into storage.buckets (id, name, public) values ('avatars', 'avatars', true)
on conflict do nothing;
insert into storage.buckets (id, name, public) values ('avatars', 'avatars', true)
on conflict do nothing;

create policy "Users upload into their own folder" on storage.objects
  for insert to authenticated
  with check (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid()::text));

create table public.messages (
  id bigint generated always as identity primary key,
  body text not null,
  tags extensions.citext
);
create index messages_body_trgm on public.messages using gin (body extensions.gin_trgm_ops);
alter table public.messages enable row level security;
alter publication supabase_realtime add table public.messages;
alter table public.messages replica identity full;
grant select on public.messages to anon, authenticated;
create policy "Anyone reads messages" on public.messages for select using (true);

-- No GRANT: with the 2026 defaults no API role may touch it.
create table public.secrets (id int primary key, value text);

create function public.custom_access_token_hook(event jsonb) returns jsonb
language plpgsql stable as $$ begin return event; end $$;
grant usage on schema public to supabase_auth_admin;
grant execute on function public.custom_access_token_hook(jsonb) to supabase_auth_admin;
revoke execute on function public.custom_access_token_hook(jsonb) from authenticated, anon, public;

create function public.whoami() returns uuid
language sql stable security definer set search_path = ''
as $$ select auth.uid() $$;
`;

const AUTH_MIGRATION = `
create table public.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  full_name text
);
alter table public.profiles enable row level security;
grant select on public.profiles to authenticated;
grant all on public.profiles to supabase_auth_admin;

create function public.handle_new_user() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  insert into public.profiles (id, full_name) values (new.id, new.raw_user_meta_data ->> 'full_name');
  return new;
end;
$$;
create trigger on_auth_user_created after insert on auth.users
  for each row execute function public.handle_new_user();
`;

const USER = '6f1b2a3c-0000-4000-8000-000000000001';
const claims = JSON.stringify({ sub: USER, role: 'authenticated' });

let project: Awaited<ReturnType<typeof startTestProjectWithClient>>;
let emu: RunningEmulator;
let client: pg.Client;

/** Runs statements in one transaction as `role` with the caller's claims, like the API does. */
async function as<T>(role: string, fn: () => Promise<T>): Promise<T> {
  await client.query('begin');
  try {
    await client.query(`set local role ${role}`);
    await client.query(`select set_config('request.jwt.claims', $1, true)`, [claims]);
    return await fn();
  } finally {
    await client.query('rollback');
  }
}

async function sqlError(promise: Promise<unknown>): Promise<{ code?: string; message: string }> {
  try {
    await promise;
  } catch (err) {
    return err as { code?: string; message: string };
  }
  throw new Error('expected the statement to fail');
}

beforeAll(async () => {
  project = await startTestProjectWithClient('platform', {
    'migrations/20260101000000_hosted_style.sql': BASE_MIGRATION,
    ...(hasAuthUsers ? { 'migrations/20260101000100_profiles.sql': AUTH_MIGRATION } : {}),
  });
  ({ emu, client } = project);
}, 60_000);

afterAll(async () => {
  await project?.stop();
});

describe('hosted-style migrations', () => {
  it('are recorded as the CLI records them', async () => {
    const { rows } = await client.query(
      'select version, name, cardinality(statements) as n from supabase_migrations.schema_migrations order by version',
    );
    expect(rows[0]).toEqual({ version: '20260101000000', name: 'hosted_style', n: 18 });
    expect(rows).toHaveLength(hasAuthUsers ? 2 : 1);
  });

  it('install extensions into the extensions schema', async () => {
    const { rows } = await client.query(
      "select extname, extnamespace::regnamespace::text as schema from pg_extension where extname in ('pg_trgm', 'citext', 'pgcrypto', 'uuid-ossp') order by 1",
    );
    expect(rows.map((r) => `${r.extname}@${r.schema}`)).toEqual([
      'citext@extensions',
      'pg_trgm@extensions',
      'pgcrypto@extensions',
      'uuid-ossp@extensions',
    ]);
  });

  it('add tables to supabase_realtime with replica identity full', async () => {
    const pub = await client.query(
      "select pubinsert, pubupdate, pubdelete, pubtruncate from pg_publication where pubname = 'supabase_realtime'",
    );
    expect(pub.rows).toEqual([
      { pubinsert: true, pubupdate: true, pubdelete: true, pubtruncate: true },
    ]);
    const tables = await client.query(
      "select schemaname, tablename from pg_publication_tables where pubname = 'supabase_realtime'",
    );
    expect(tables.rows).toEqual([{ schemaname: 'public', tablename: 'messages' }]);
    const identity = await client.query(
      "select relreplident from pg_class where oid = 'public.messages'::regclass",
    );
    expect(identity.rows).toEqual([{ relreplident: 'f' }]);
  });

  it('leave a table without grants unreadable by every API role (2026 defaults)', async () => {
    for (const role of ['anon', 'authenticated', 'service_role']) {
      const err = await sqlError(as(role, () => client.query('select * from public.secrets')));
      expect(err.code).toBe('42501');
      expect(err.message).toBe('permission denied for table secrets');
    }
    const granted = await as('anon', () =>
      client.query('select count(*)::int as n from public.messages'),
    );
    expect(granted.rows).toEqual([{ n: 0 }]);
  });

  it('grant to supabase_auth_admin and revoke from the API roles', async () => {
    const { rows } = await client.query(
      `select has_function_privilege('supabase_auth_admin', 'public.custom_access_token_hook(jsonb)', 'execute') as hook_admin,
              has_function_privilege('authenticated', 'public.custom_access_token_hook(jsonb)', 'execute') as hook_user`,
    );
    expect(rows).toEqual([{ hook_admin: true, hook_user: false }]);
  });

  it('run security definer functions with an empty search_path calling auth.uid()', async () => {
    const { rows } = await as('authenticated', () => client.query('select public.whoami() as id'));
    expect(rows).toEqual([{ id: USER }]);
  });

  it('keep the role settings hosted has', async () => {
    const { rows } = await client.query(
      "select rolname, rolcanlogin, rolinherit, rolbypassrls, rolconfig from pg_roles where rolname in ('anon', 'authenticated', 'service_role', 'authenticator') order by rolname",
    );
    expect(rows).toEqual([
      {
        rolname: 'anon',
        rolcanlogin: false,
        rolinherit: true,
        rolbypassrls: false,
        rolconfig: ['statement_timeout=3s'],
      },
      {
        rolname: 'authenticated',
        rolcanlogin: false,
        rolinherit: true,
        rolbypassrls: false,
        rolconfig: ['statement_timeout=8s'],
      },
      {
        rolname: 'authenticator',
        rolcanlogin: true,
        rolinherit: false,
        rolbypassrls: false,
        rolconfig: ['statement_timeout=8s', 'lock_timeout=8s'],
      },
      {
        rolname: 'service_role',
        rolcanlogin: false,
        rolinherit: true,
        rolbypassrls: true,
        rolconfig: null,
      },
    ]);
  });

  it.skipIf(!hasAuthUsers)('reference auth.users and fire user triggers', async () => {
    await client.query(
      `insert into auth.users (id, aud, role, email, raw_user_meta_data) values ($1, 'authenticated', 'authenticated', 'a@example.com', '{"full_name":"Ada"}')`,
      [USER],
    );
    const profile = await client.query('select full_name from public.profiles where id = $1', [
      USER,
    ]);
    expect(profile.rows).toEqual([{ full_name: 'Ada' }]);
    await client.query('delete from auth.users where id = $1', [USER]);
    const after = await client.query('select count(*)::int as n from public.profiles');
    expect(after.rows).toEqual([{ n: 0 }]);
  });
});

describe('storage objects', () => {
  it('take buckets inserted by migrations', async () => {
    const { rows } = await client.query('select id, name, public, type from storage.buckets');
    expect(rows).toEqual([{ id: 'avatars', name: 'avatars', public: true, type: 'STANDARD' }]);
  });

  it('split paths with the helpers', async () => {
    const { rows } = await client.query(
      `select storage.foldername('a/b/c.png') as folders, storage.filename('a/b/c.png') as file,
              storage.extension('a/b/c.tar.gz') as ext, storage.extension('README') as bare,
              storage.foldername('top.png') as none`,
    );
    expect(rows).toEqual([
      { folders: ['a', 'b'], file: 'c.png', ext: 'gz', bare: 'README', none: [] },
    ]);
  });

  it('apply policies written with storage.foldername', async () => {
    // No RETURNING: that would also need a SELECT policy, as on hosted.
    const ok = await as('authenticated', () =>
      client.query("insert into storage.objects (bucket_id, name) values ('avatars', $1)", [
        `${USER}/me.png`,
      ]),
    );
    expect(ok.rowCount).toBe(1);

    const err = await sqlError(
      as('authenticated', () =>
        client.query(
          "insert into storage.objects (bucket_id, name) values ('avatars', 'other/me.png')",
        ),
      ),
    );
    expect(err.code).toBe('42501');
    expect(err.message).toBe('new row violates row-level security policy for table "objects"');
  });

  it('refuse direct deletes unless storage.allow_delete_query is set', async () => {
    const inserted = await client.query(
      "insert into storage.objects (bucket_id, name) values ('avatars', 'x/y.png') returning path_tokens",
    );
    expect(inserted.rows).toEqual([{ path_tokens: ['x', 'y.png'] }]);
    for (const table of ['storage.objects', 'storage.buckets']) {
      const err = await sqlError(client.query(`delete from ${table}`));
      expect(err.code).toBe('42501');
      expect(err.message).toBe(
        'Direct deletion from storage tables is not allowed. Use the Storage API instead.',
      );
    }
    await client.query('begin');
    await client.query("set local storage.allow_delete_query = 'true'");
    const deleted = await client.query('delete from storage.objects');
    await client.query('commit');
    expect(deleted.rowCount).toBe(1);
  });
});

describe('realtime objects', () => {
  it('realtime.send stores a broadcast row and never raises', async () => {
    await client.query(`select realtime.send('{"n":1}', 'tick', 'room:1', false)`);
    const { rows } = await client.query(
      "select topic, event, extension, private, payload ->> 'n' as n, payload ? 'id' as has_id from realtime.messages",
    );
    expect(rows).toEqual([
      {
        topic: 'room:1',
        event: 'tick',
        extension: 'broadcast',
        private: false,
        n: '1',
        has_id: true,
      },
    ]);
    // anon has no INSERT policy on realtime.messages: the insert fails, send only warns.
    const notices: string[] = [];
    const onNotice = (msg: { message?: string }) => notices.push(msg.message ?? '');
    client.on('notice', onNotice);
    const sent = await as('anon', () =>
      client.query(`select realtime.send('{}', 'tick', 'room:2') as result`),
    );
    client.off('notice', onNotice);
    expect(sent.rows).toEqual([{ result: '' }]);
    expect(notices.join('\n')).toMatch(
      /^ErrorSendingBroadcastMessage: new row violates row-level security/,
    );
  });

  it('realtime.topic() reads the realtime.topic setting', async () => {
    const { rows } = await as('authenticated', async () => {
      await client.query("select set_config('realtime.topic', 'room:7', true)");
      return client.query('select realtime.topic() as topic');
    });
    expect(rows).toEqual([{ topic: 'room:7' }]);
  });
});

describe('platform bootstrap', () => {
  it('names the file and the Postgres error when a step fails', async () => {
    await expect(
      bootstrapPlatform(emu.db, [
        { file: '99-broken.sql', sql: 'select no_such_column from pg_roles' },
      ]),
    ).rejects.toThrow(
      'platform bootstrap 99-broken.sql failed: column "no_such_column" does not exist [SQLSTATE 42703]',
    );
  });

  it('can run again on a bootstrapped database (it runs on every start)', async () => {
    await bootstrapPlatform(emu.db);
    const { rows } = await client.query(
      "select count(*)::int as n from pg_publication_tables where pubname = 'supabase_realtime'",
    );
    expect(rows).toEqual([{ n: 1 }]);
  });
});
