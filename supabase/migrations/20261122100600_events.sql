-- The history of every subscriber (SPEC §3, §4): written by triggers and functions, read by members.
create table public.events (
  id bigint generated always as identity primary key,
  subscriber_id uuid references public.subscribers (id) on delete cascade,
  campaign_id uuid,
  type text not null check (type in ('subscribed', 'confirmed', 'unsubscribed', 'resubscribed',
    'bounced', 'complained', 'opened', 'clicked', 'imported', 'exported', 'deleted')),
  data jsonb not null default '{}',
  created_at timestamptz not null default now()
);
comment on table public.events is 'Append-only history. Deleting a subscriber removes their events and leaves one anonymous "deleted" event. Clients never write here directly.';
comment on column public.events.data is 'Details of the event, e.g. {"list_id", "list", "from", "to", "source"} for subscription changes.';

create index events_subscriber_idx on public.events (subscriber_id, created_at desc);
create index events_type_created_idx on public.events (type, created_at desc);

alter table public.events enable row level security;

create policy "Members can read the history" on public.events
  for select to authenticated using ((select private.has_role('viewer')));

grant select on public.events to authenticated;
grant all on public.events to service_role;

-- Where a change came from: functions set `postbox.source` (form, confirm-link, one-click,
-- preferences, import, …) for their transaction; anything else is an admin's doing.
create function private.event_source()
returns text
language sql
stable
set search_path = ''
as $$
  select coalesce(nullif(current_setting('postbox.source', true), ''),
    case when (select auth.role()) = 'authenticated' then 'admin' else 'system' end)
$$;

-- SPEC §4: every subscription transition writes an event. Security definer because the caller
-- (an admin through the API) has no INSERT on events.
create function private.record_subscription_event()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  old_status text := case when tg_op = 'UPDATE' then old.status end;
  details jsonb;
begin
  if old_status is not distinct from new.status then
    return null;
  end if;
  details := jsonb_build_object('list_id', new.list_id,
    'list', (select l.slug from public.lists l where l.id = new.list_id),
    'from', old_status, 'to', new.status, 'source', private.event_source());
  if old_status is null then
    insert into public.events (subscriber_id, type, data) values (new.subscriber_id, 'subscribed', details);
    if new.status = 'confirmed' then
      insert into public.events (subscriber_id, type, data) values (new.subscriber_id, 'confirmed', details);
    end if;
  elsif new.status = 'unsubscribed' then
    insert into public.events (subscriber_id, type, data) values (new.subscriber_id, 'unsubscribed', details);
  elsif old_status = 'unsubscribed' then
    insert into public.events (subscriber_id, type, data) values (new.subscriber_id, 'resubscribed', details);
  elsif new.status = 'confirmed' then
    insert into public.events (subscriber_id, type, data) values (new.subscriber_id, 'confirmed', details);
  end if;
  return null;
end;
$$;
create trigger subscriptions_record_event
  after insert or update of status on public.subscriptions
  for each row execute function private.record_subscription_event();

-- Deleting a subscriber's data leaves one anonymous trace that it happened (SPEC §1, issue 6).
create function private.record_subscriber_deleted()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.events (subscriber_id, type, data)
  values (null, 'deleted', jsonb_build_object('source', private.event_source()));
  return null;
end;
$$;
create trigger subscribers_record_deleted
  after delete on public.subscribers
  for each row execute function private.record_subscriber_deleted();

revoke execute on function private.event_source(), private.record_subscription_event(),
  private.record_subscriber_deleted() from public;
