-- Mailing lists (SPEC §3): public ones appear on the signup form, private ones only in the admin.
create table public.lists (
  id uuid primary key default gen_random_uuid(),
  slug text not null unique check (char_length(slug) <= 48 and slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
  name text not null check (char_length(btrim(name)) between 1 and 100),
  description text not null default '' check (char_length(description) <= 500),
  visibility text not null default 'public' check (visibility in ('public', 'private')),
  optin text not null default 'double' check (optin in ('single', 'double')),
  waitlist boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.lists is 'Lists people subscribe to. waitlist = true ranks confirmed subscribers by confirmed referrals (SPEC §9).';

alter table public.lists enable row level security;

create trigger lists_touch_updated_at before update on public.lists
  for each row execute function private.touch_updated_at();

create policy "Anyone can see the public lists" on public.lists
  for select to anon using (visibility = 'public');
create policy "Members see every list, others the public ones" on public.lists
  for select to authenticated using (visibility = 'public' or (select private.has_role('viewer')));
create policy "Admins create lists" on public.lists
  for insert to authenticated with check ((select private.has_role('admin')));
create policy "Admins edit lists" on public.lists
  for update to authenticated using ((select private.has_role('admin')))
  with check ((select private.has_role('admin')));
create policy "Admins delete lists" on public.lists
  for delete to authenticated using ((select private.has_role('admin')));

grant select on public.lists to anon;
grant select, insert, update, delete on public.lists to authenticated;
grant all on public.lists to service_role;
