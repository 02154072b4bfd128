-- Editing subscribers (issue 23): internal notes, and a history entry for every change of a
-- subscriber's own data, naming who made it. All of it is written once per statement (transition
-- tables), so a bulk action over 100,000 subscribers costs one INSERT … SELECT per kind of event.
--
-- New event types:
--   updated  {source, actor, changes: {field: {from, to}}}  name, email, attributes, notes, status
--   removed  {source, actor, list_id, list, from}            a subscription deleted (taken off a list)

alter table public.subscribers
  add column notes text not null default '' check (char_length(notes) <= 10000);
comment on column public.subscribers.notes is
  'Internal notes of the team; never shown to the subscriber, but part of their own data export.';

alter table public.events drop constraint events_type_check;
alter table public.events add constraint events_type_check check (type in ('subscribed',
  'confirmed', 'unsubscribed', 'resubscribed', 'bounced', 'complained', 'opened', 'clicked',
  'imported', 'exported', 'deleted', 'updated', 'removed'));
comment on column public.events.data is 'Details of the event, e.g. {"list_id", "list", "from", "to", "source"} for subscription changes, {"changes": {field: {from, to}}, "actor", "source"} for edits.';

-- Who made a change: the signed-in member ({id, email} from the request's token), else what a
-- function declared for its transaction in `postbox.actor` (an import names its creator), else null.
create function private.event_actor()
returns jsonb
language sql
stable
set search_path = ''
as $$
  select case
    when (select auth.uid()) is not null
      then jsonb_build_object('id', (select auth.uid()), 'email', (select auth.jwt()) ->> 'email')
    when nullif(current_setting('postbox.actor', true), '') is not null
      then current_setting('postbox.actor', true)::jsonb
  end
$$;
revoke execute on function private.event_actor() from public;
grant execute on function private.event_actor() to authenticated, service_role;

-- One 'updated' event per subscriber whose own data changed in the statement, with old → new of
-- each changed field. Security definer: members cannot write events themselves.
create function private.record_subscriber_updates()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  source text := private.event_source();
  actor jsonb := private.event_actor();
begin
  insert into public.events (subscriber_id, type, data)
  select c.id, 'updated',
         jsonb_build_object('source', source, 'actor', actor, 'changes', c.changes)
    from (select n.id,
                 jsonb_strip_nulls(jsonb_build_object(
                   'email', case when n.email is distinct from o.email
                            then jsonb_build_object('from', o.email, 'to', n.email) end,
                   'name', case when n.name is distinct from o.name
                           then jsonb_build_object('from', o.name, 'to', n.name) end,
                   'attributes', case when n.attributes is distinct from o.attributes
                                 then jsonb_build_object('from', o.attributes, 'to', n.attributes) end,
                   'notes', case when n.notes is distinct from o.notes
                            then jsonb_build_object('from', o.notes, 'to', n.notes) end,
                   'status', case when n.status is distinct from o.status
                             then jsonb_build_object('from', o.status, 'to', n.status) end
                 )) as changes
            from new_rows n join old_rows o on o.id = n.id) c
   where c.changes <> '{}'::jsonb;
  return null;
end;
$$;
create trigger subscribers_record_updates after update on public.subscribers
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.record_subscriber_updates();

-- Blocklisting unsubscribes from every list (20261122100500), now once per statement: a bulk
-- blocklist of 100,000 subscribers ran 100,000 UPDATEs of subscriptions, each with its statement
-- triggers. The subscription events are written by subscriptions_changed_update as before.
drop trigger subscribers_unsubscribe_blocklisted on public.subscribers;
drop function private.unsubscribe_blocklisted();
create function private.unsubscribe_blocklisted()
returns trigger
language plpgsql
security invoker
set search_path = ''
as $$
begin
  update public.subscriptions x set status = 'unsubscribed'
    from new_rows n join old_rows o on o.id = n.id
   where x.subscriber_id = n.id and n.status = 'blocklisted' and o.status <> 'blocklisted'
     and x.status <> 'unsubscribed';
  return null;
end;
$$;
revoke execute on function private.unsubscribe_blocklisted() from public;
create trigger subscribers_unsubscribe_blocklisted after update on public.subscribers
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.unsubscribe_blocklisted();

-- The anonymous 'deleted' trace (20261122100600), one INSERT … SELECT per statement.
drop trigger subscribers_record_deleted on public.subscribers;
create or replace function private.record_subscriber_deleted()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  source text := private.event_source();
begin
  insert into public.events (subscriber_id, type, data)
  select null, 'deleted', jsonb_build_object('source', source) from old_rows;
  return null;
end;
$$;
create trigger subscribers_record_deleted after delete on public.subscribers
  referencing old table as old_rows
  for each statement execute function private.record_subscriber_deleted();

-- A subscription deleted while its subscriber stays (taken off a list) is part of the history.
-- Deleting the subscriber itself cascades here too; those rows name no subscriber any more.
create function private.record_subscriptions_removed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  source text := private.event_source();
  actor jsonb := private.event_actor();
begin
  insert into public.events (subscriber_id, type, data)
  select o.subscriber_id, 'removed',
         jsonb_build_object('list_id', o.list_id, 'list', l.slug, 'from', o.status,
           'source', source, 'actor', actor)
    from old_rows o
    join public.subscribers s on s.id = o.subscriber_id
    left join public.lists l on l.id = o.list_id;
  return null;
end;
$$;
create trigger subscriptions_record_removed after delete on public.subscriptions
  referencing old table as old_rows
  for each statement execute function private.record_subscriptions_removed();

revoke execute on function private.record_subscriber_updates(),
  private.record_subscriptions_removed() from public;
