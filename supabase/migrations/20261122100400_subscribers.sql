-- Subscribers (SPEC §3, §4): one row per address, enabled or blocklisted.
create function private.new_referral_code()
returns text
language sql
volatile
set search_path = ''
as $$
  -- 10 characters of base32-ish text from 64 random bits: short enough to share, hard to guess.
  select lower(translate(encode(extensions.gen_random_bytes(8), 'base64'), '+/=', ''))
$$;

create table public.subscribers (
  id uuid primary key default gen_random_uuid(),
  email text not null unique check (private.is_valid_email(email)),
  name text not null default '' check (private.is_valid_name(name)),
  attributes jsonb not null default '{}' check (private.is_valid_attributes(attributes)),
  status text not null default 'enabled' check (status in ('enabled', 'blocklisted')),
  referral_code text not null unique default private.new_referral_code(),
  referred_by uuid references public.subscribers (id) on delete set null check (referred_by <> id),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.subscribers is 'Addresses are stored trimmed and lower-cased (trigger). A blocklisted address is never sent to and never re-enabled by a subscribe.';
comment on column public.subscribers.referred_by is 'Who shared the referral link this subscriber came through; counts for the waitlist only once this subscriber confirms.';

create index subscribers_created_at_idx on public.subscribers (created_at desc, id desc);
create index subscribers_referred_by_idx on public.subscribers (referred_by) where referred_by is not null;

alter table public.subscribers enable row level security;

create function private.normalize_subscriber()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.email := lower(btrim(new.email));
  new.name := btrim(coalesce(new.name, ''));
  return new;
end;
$$;
create trigger subscribers_normalize before insert or update of email, name on public.subscribers
  for each row execute function private.normalize_subscriber();
create trigger subscribers_touch_updated_at before update on public.subscribers
  for each row execute function private.touch_updated_at();

create policy "Members can see subscribers" on public.subscribers
  for select to authenticated using ((select private.has_role('viewer')));
create policy "Admins add subscribers" on public.subscribers
  for insert to authenticated with check ((select private.has_role('admin')));
create policy "Admins edit subscribers" on public.subscribers
  for update to authenticated using ((select private.has_role('admin')))
  with check ((select private.has_role('admin')));
create policy "Only the owner deletes subscriber data" on public.subscribers
  for delete to authenticated using ((select private.has_role('owner')));

grant select, insert, update, delete on public.subscribers to authenticated;
grant all on public.subscribers to service_role;
