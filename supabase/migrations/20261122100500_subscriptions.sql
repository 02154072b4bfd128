-- Subscriptions (SPEC §3, §4): a subscriber on a list, pending → confirmed → unsubscribed.
create table public.subscriptions (
  subscriber_id uuid not null references public.subscribers (id) on delete cascade,
  list_id uuid not null references public.lists (id) on delete cascade,
  status text not null default 'pending' check (status in ('pending', 'confirmed', 'unsubscribed')),
  created_at timestamptz not null default now(),
  confirmed_at timestamptz,
  unsubscribed_at timestamptz,
  primary key (subscriber_id, list_id)
);
comment on table public.subscriptions is 'Every status change writes an events row (trigger). confirmed never goes back to pending; a blocklisted subscriber cannot be (re)subscribed.';

create index subscriptions_list_status_idx on public.subscriptions (list_id, status);

alter table public.subscriptions enable row level security;

-- SPEC §4 in SQL: the allowed transitions, and the timestamps that go with them.
create function private.check_subscription_transition()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  old_status text := case when tg_op = 'UPDATE' then old.status end;
begin
  if tg_op = 'UPDATE' and new.status = old.status then
    return new;
  end if;
  if old_status = 'confirmed' and new.status = 'pending' then
    raise exception 'A confirmed subscription cannot go back to pending.' using errcode = '23514';
  end if;
  if new.status <> 'unsubscribed' and exists (
    select 1 from public.subscribers s where s.id = new.subscriber_id and s.status = 'blocklisted'
  ) then
    raise exception 'A blocklisted subscriber cannot be subscribed.' using errcode = '23514';
  end if;
  if new.status = 'confirmed' then
    new.confirmed_at := coalesce(case when old_status = 'pending' or old_status is null then new.confirmed_at end, now());
    new.unsubscribed_at := null;
  elsif new.status = 'unsubscribed' then
    new.unsubscribed_at := now();
  elsif new.status = 'pending' then
    new.confirmed_at := null;
    new.unsubscribed_at := null;
  end if;
  return new;
end;
$$;
create trigger subscriptions_check_transition
  before insert or update of status on public.subscriptions
  for each row execute function private.check_subscription_transition();

create policy "Members can see subscriptions" on public.subscriptions
  for select to authenticated using ((select private.has_role('viewer')));
create policy "Admins add subscriptions" on public.subscriptions
  for insert to authenticated with check ((select private.has_role('admin')));
create policy "Admins change subscriptions" on public.subscriptions
  for update to authenticated using ((select private.has_role('admin')))
  with check ((select private.has_role('admin')));
create policy "Admins remove subscriptions" on public.subscriptions
  for delete to authenticated using ((select private.has_role('admin')));

grant select, insert, update, delete on public.subscriptions to authenticated;
grant all on public.subscriptions to service_role;

-- Blocklisting unsubscribes from every list (as listmonk does), so nothing is sent to the address.
create function private.unsubscribe_blocklisted()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.status = 'blocklisted' and old.status <> 'blocklisted' then
    update public.subscriptions set status = 'unsubscribed'
     where subscriber_id = new.id and status <> 'unsubscribed';
  end if;
  return null;
end;
$$;
create trigger subscribers_unsubscribe_blocklisted
  after update of status on public.subscribers
  for each row execute function private.unsubscribe_blocklisted();
