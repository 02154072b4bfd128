-- The `storage` schema as supabase/storage's migrations leave it (contract §6.5): buckets, objects,
-- the path helpers policies use, RLS enabled, and the delete guard of storage migration 0055.
-- Runs on every start; only creates what is missing and replaces functions in place.

do $$
begin
  if to_regtype('storage.buckettype') is null then
    create type storage.buckettype as enum ('STANDARD', 'ANALYTICS', 'VECTOR');
  end if;
end $$;

create table if not exists storage.buckets (
  id text primary key,
  name text not null,
  owner uuid,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  public boolean default false,
  avif_autodetection boolean default false,
  file_size_limit bigint,
  allowed_mime_types text[],
  owner_id text,
  type storage.buckettype not null default 'STANDARD'
);
create unique index if not exists bname on storage.buckets (name);
comment on column storage.buckets.owner is 'Field is deprecated, use owner_id instead';

create table if not exists storage.objects (
  id uuid primary key default gen_random_uuid(),
  bucket_id text references storage.buckets (id),
  name text,
  owner uuid,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  last_accessed_at timestamptz default now(),
  metadata jsonb,
  path_tokens text[] generated always as (string_to_array(name, '/')) stored,
  version text,
  owner_id text,
  user_metadata jsonb
);
create unique index if not exists bucketid_objname on storage.objects (bucket_id, name);
create index if not exists name_prefix_search on storage.objects (name text_pattern_ops);
comment on column storage.objects.owner is 'Field is deprecated, use owner_id instead';

alter table storage.buckets enable row level security;
alter table storage.objects enable row level security;

-- 'a/b/c.png' → {a,b}; the file name is not a folder.
create or replace function storage.foldername(name text) returns text[]
language sql immutable
as $$
  select (string_to_array(name, '/'))[1:cardinality(string_to_array(name, '/')) - 1]
$$;

-- 'a/b/c.png' → 'c.png'
create or replace function storage.filename(name text) returns text
language sql immutable
as $$
  select (string_to_array(name, '/'))[cardinality(string_to_array(name, '/'))]
$$;

-- 'a/b/c.tar.gz' → 'gz'; a file name without a dot comes back whole (as upstream does).
create or replace function storage.extension(name text) returns text
language sql immutable
as $$
  select reverse(split_part(reverse(storage.filename(name)), '.', 1))
$$;

-- Storage migration 0055 (Jan 2026): rows are removed through the Storage API, which also removes
-- the files; a direct DELETE would orphan them, so it is refused unless the session opts in.
create or replace function storage.protect_delete() returns trigger
language plpgsql
as $$
begin
  if coalesce(current_setting('storage.allow_delete_query', true), 'false') <> 'true' then
    raise exception 'Direct deletion from storage tables is not allowed. Use the Storage API instead.'
      using errcode = '42501',
        hint = 'This prevents accidental data loss from orphaned objects.';
  end if;
  return null;
end;
$$;

do $$
begin
  if not exists (select 1 from pg_trigger
      where tgname = 'protect_buckets_delete' and tgrelid = 'storage.buckets'::regclass) then
    create trigger protect_buckets_delete before delete on storage.buckets
      for each statement execute function storage.protect_delete();
  end if;
  if not exists (select 1 from pg_trigger
      where tgname = 'protect_objects_delete' and tgrelid = 'storage.objects'::regclass) then
    create trigger protect_objects_delete before delete on storage.objects
      for each statement execute function storage.protect_delete();
  end if;
end $$;

-- Hosted ownership and grants: the tables belong to supabase_storage_admin (so on hosted a
-- migration's `alter table storage.objects …` fails with "must be owner"; here `postgres` is a
-- superuser and it does not), and the API roles reach them through RLS.
alter table storage.buckets owner to supabase_storage_admin;
alter table storage.objects owner to supabase_storage_admin;
alter function storage.protect_delete() owner to supabase_storage_admin;
grant all on storage.buckets, storage.objects to postgres, anon, authenticated, service_role;
grant execute on function storage.foldername(text), storage.filename(text), storage.extension(text)
  to postgres, anon, authenticated, service_role;
alter default privileges for role supabase_storage_admin in schema storage
  grant all on tables to postgres, anon, authenticated, service_role;
alter default privileges for role supabase_storage_admin in schema storage
  grant all on functions to postgres, anon, authenticated, service_role;
alter default privileges for role supabase_storage_admin in schema storage
  grant all on sequences to postgres, anon, authenticated, service_role;
