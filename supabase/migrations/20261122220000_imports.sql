-- CSV imports (SPEC §3, §4, §5, §9): an admin uploads a file to the private `imports` bucket and
-- queues an `imports` row; the import-subscribers function works through it in batches of 5,000,
-- each batch one transaction that also moves the counters, so a restart resumes after the last
-- committed batch. Generated exports go to the private `exports` bucket (signed URLs only).
create table public.imports (
  id uuid primary key default gen_random_uuid(),
  object_path text not null check (char_length(object_path) between 1 and 1024),
  list_ids uuid[] not null default '{}',
  optin text not null default 'pending' check (optin in ('confirmed', 'pending')),
  status text not null default 'queued' check (status in ('queued', 'running', 'done', 'failed')),
  total_rows integer check (total_rows >= 0),
  processed_rows integer not null default 0 check (processed_rows >= 0),
  inserted integer not null default 0,
  updated integer not null default 0,
  skipped integer not null default 0,
  errors jsonb not null default '[]' check (jsonb_typeof(errors) = 'array'),
  error_count integer not null default 0,
  failure_reason text,
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  started_at timestamptz,
  finished_at timestamptz,
  -- Where the next batch starts: byte offset into the file and the physical line it begins after,
  -- plus the header as read by the first run (columns, delimiter).
  resume_offset bigint not null default 0,
  resume_line integer not null default 0,
  columns jsonb,
  delimiter text check (delimiter in (',', ';', E'\t')),
  -- The run working on the import: one token at a time, until lease_until.
  lease_token uuid,
  lease_until timestamptz
);
comment on table public.imports is 'CSV imports of subscribers. Members read; admins insert a queued import of their own; only the service role (import-subscribers) moves it: queued → running → done | failed.';
comment on column public.imports.errors is 'The first 100 bad rows as {line, reason}; error_count counts them all.';
comment on column public.imports.optin is 'confirmed: imported addresses are confirmed on the chosen lists; pending: they must still opt in.';
comment on column public.imports.total_rows is 'Data rows counted before the first batch (header excluded).';

create index imports_created_at_idx on public.imports (created_at desc, id desc);

alter table public.imports enable row level security;

-- SPEC §4 in SQL, plus the shape of a new import: it starts queued and names existing lists.
create function private.check_import_change()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    if new.status <> 'queued' then
      raise exception 'postbox:conflict: A new import starts queued.' using errcode = 'P0001';
    end if;
    if exists (select 1 from unnest(new.list_ids) l(id)
               where not exists (select 1 from public.lists x where x.id = l.id)) then
      raise exception 'postbox:list_not_found: That list does not exist.' using errcode = 'P0001';
    end if;
    return new;
  end if;
  if new.status <> old.status and not (old.status, new.status) in (
    ('queued', 'running'), ('running', 'done'), ('running', 'failed')
  ) then
    raise exception 'postbox:conflict: A % import cannot become %.', old.status, new.status
      using errcode = 'P0001';
  end if;
  if new.status = 'running' and old.status = 'queued' then
    new.started_at := now();
  end if;
  if new.status in ('done', 'failed') then
    new.finished_at := now();
    new.lease_token := null;
    new.lease_until := null;
  end if;
  return new;
end;
$$;
create trigger imports_check_change
  before insert or update on public.imports
  for each row execute function private.check_import_change();
revoke execute on function private.check_import_change() from public;

create policy "Members can see imports" on public.imports
  for select to authenticated using ((select private.has_role('viewer')));
create policy "Admins queue their own imports" on public.imports
  for insert to authenticated
  with check ((select private.has_role('admin')) and created_by = (select auth.uid())
    and status = 'queued');

grant select on public.imports to authenticated;
-- Only these columns: counters, status and lease stay at their defaults until the function runs.
grant insert (object_path, list_ids, optin) on public.imports to authenticated;
grant all on public.imports to service_role;

alter publication supabase_realtime add table public.imports;

-- Addresses already taken by an import, so a duplicate later in the file is reported even when
-- it falls in another batch or run. Emptied when the import ends.
create table private.import_emails (
  import_id uuid not null references public.imports (id) on delete cascade,
  email text not null,
  primary key (import_id, email)
);
revoke all on private.import_emails from public, anon, authenticated;

-- Buckets: CSV uploads (50 MB, SPEC §5) and generated exports (read through signed URLs).
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('imports', 'imports', false, 52428800, array['text/csv', 'text/plain', 'application/vnd.ms-excel'])
on conflict (id) do nothing;
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('exports', 'exports', false, null, array['text/csv'])
on conflict (id) do nothing;

create policy "Admins upload imports" on storage.objects
  for insert to authenticated with check (bucket_id = 'imports' and (select private.has_role('admin')));
create policy "Admins read imports" on storage.objects
  for select to authenticated using (bucket_id = 'imports' and (select private.has_role('admin')));
-- No policy names `exports`: only the service role reads it, and hands out signed URLs.
