-- events.subscriber_id: what its foreign key did per row, done once per statement.
--
-- An import writes three events per subscriber (imported, subscribed, confirmed): 3,000,000 rows for
-- a 1,000,000-row file, and the key's check ran once for each of them, a query of its own every
-- time. Inserting 15,000 events for 5,000 new subscribers took ~7 µs more a row with the key than
-- without it; the same check made once per statement over the distinct subscribers costs ~2 µs a
-- row (bench/README, "The events key, per statement").
--
-- Kept from the key: an event names a subscriber that exists, and that subscriber stays locked
-- (FOR KEY SHARE, the lock the key's check takes) until the writing transaction ends, so a
-- concurrent delete waits for it or, if it committed first, makes the insert fail with 23503 and
-- the key's message; deleting subscribers deletes their events (was ON DELETE CASCADE); and a
-- subscriber's id cannot change while events name it (was NO ACTION). Lost: PostgREST no longer
-- embeds subscribers from events (nothing here does; the subscriber page reads events by id).
alter table public.events drop constraint events_subscriber_id_fkey;

create function private.events_check_subscribers()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  missing uuid;
begin
  select n.subscriber_id into missing
    from (select distinct subscriber_id from new_rows where subscriber_id is not null) n
    left join lateral (
      select s.id from public.subscribers s where s.id = n.subscriber_id for key share
    ) s on true
   where s.id is null
   limit 1;
  if found then
    raise exception using
      errcode = 'foreign_key_violation',
      message = 'insert or update on table "events" violates foreign key constraint "events_subscriber_id_fkey"',
      detail = format('Key (subscriber_id)=(%s) is not present in table "subscribers".', missing),
      schema = 'public', table = 'events', constraint = 'events_subscriber_id_fkey';
  end if;
  return null;
end;
$$;

create trigger events_subscriber_exists_on_insert
  after insert on public.events
  referencing new table as new_rows
  for each statement execute function private.events_check_subscribers();
create trigger events_subscriber_exists_on_update
  after update on public.events
  referencing new table as new_rows
  for each statement execute function private.events_check_subscribers();

-- ON DELETE CASCADE, as one statement per delete rather than one per subscriber. The anonymous
-- 'deleted' event (subscribers_record_deleted) names nobody and stays.
create function private.delete_events_of_deleted_subscribers()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from public.events e using old_rows o where e.subscriber_id = o.id;
  return null;
end;
$$;

create trigger subscribers_delete_events
  after delete on public.subscribers
  referencing old table as old_rows
  for each statement execute function private.delete_events_of_deleted_subscribers();

-- The key's NO ACTION on update: ids are generated and never change, but nothing else stops it.
create function private.refuse_referenced_subscriber_id_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if exists (select 1 from public.events where subscriber_id = old.id) then
    raise exception using
      errcode = 'foreign_key_violation',
      message = 'update or delete on table "subscribers" violates foreign key constraint "events_subscriber_id_fkey" on table "events"',
      detail = format('Key (id)=(%s) is still referenced from table "events".', old.id),
      schema = 'public', table = 'subscribers', constraint = 'events_subscriber_id_fkey';
  end if;
  return new;
end;
$$;

create trigger subscribers_id_referenced_by_events
  before update of id on public.subscribers
  for each row when (old.id is distinct from new.id)
  execute function private.refuse_referenced_subscriber_id_change();

revoke execute on function private.events_check_subscribers(),
  private.delete_events_of_deleted_subscribers(),
  private.refuse_referenced_subscriber_id_change() from public;
