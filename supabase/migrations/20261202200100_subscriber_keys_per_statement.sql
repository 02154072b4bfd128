-- Deleting subscribers (issue 23's bulk delete, bench/bulk.ts: 99,000 in batches of 5,000): the
-- foreign keys to public.subscribers acted row by row. Each of the eight keys ran a query of its own
-- per deleted subscriber (EXPLAIN ANALYZE of one batch: "Trigger for constraint …", calls=5000,
-- eight times; 40,000 queries), most of them into tables that held no row of those subscribers:
-- about 0.3 s of each batch on an idle machine, 70 % of the batch on a busy one.
--
-- Six of those keys now do what they did once per statement, as events.subscriber_id does since
-- 20261123020000: subscriber_tags, automation_enrolments, automation_sends, private.confirm_nonces,
-- private.confirmation_send_items and subscribers.referred_by (ON DELETE SET NULL). The two that
-- stay are those PostgREST embeds through (subscribers → subscriptions, deliveries → subscribers);
-- the subscriptions' one does real work (it deletes each subscriber's subscriptions).
--
-- Kept from each key: a row names a subscriber that exists, and that subscriber stays locked (FOR KEY
-- SHARE, the lock the key's check takes) until the writing transaction ends, so a concurrent delete
-- waits for it or, if it committed first, the write fails with 23503 and the key's own message and
-- name; deleting subscribers deletes their rows (was ON DELETE CASCADE), in the same statement, with
-- the same triggers on those tables firing (once per statement, as they did for the cascade); and a
-- subscriber's id cannot change while rows name it (was NO ACTION). Lost: PostgREST no longer embeds
-- subscribers from these three public tables or them from subscribers, nor a subscriber's referrer
-- (nothing here does: tags are read through subscriber_tags → tags, which keeps its key), and a
-- TRUNCATE of subscribers would no longer be refused because of them (nothing truncates it).

alter table public.subscriber_tags drop constraint subscriber_tags_subscriber_id_fkey;
alter table public.automation_enrolments drop constraint automation_enrolments_subscriber_id_fkey;
alter table public.automation_sends drop constraint automation_sends_subscriber_id_fkey;
alter table private.confirm_nonces drop constraint confirm_nonces_subscriber_id_fkey;
alter table private.confirmation_send_items drop constraint confirmation_send_items_subscriber_id_fkey;
alter table public.subscribers drop constraint subscribers_referred_by_fkey;

-- The key's check on insert, once per statement over the distinct subscribers (tg_argv[0]: the
-- key's name, for the error). The triggers are named <table>_check_… so that they fire first of
-- their table's statement triggers (in name order), as the key's row checks fired before them: a
-- row for nobody is refused with this key's error, not with the events' key of a 'tagged' event. jit off and nested loops on whatever the caller set (see
-- 20261202200000, 6: a plan made under enable_nestloop = off costs 10^10 and would be compiled).
create function private.check_subscribers_exist()
returns trigger
language plpgsql
security definer
set search_path = ''
set enable_nestloop = on
set jit = off
as $$
declare
  missing uuid;
begin
  select n.subscriber_id into missing
    from (select distinct r.subscriber_id from new_rows r where r.subscriber_id is not null) n
    left join lateral (
      select s.id from public.subscribers s where s.id = n.subscriber_id for key share
    ) s on true
   where s.id is null
   limit 1;
  if found then
    raise exception using
      errcode = 'foreign_key_violation',
      message = format('insert or update on table "%s" violates foreign key constraint "%s"',
        tg_table_name, tg_argv[0]),
      detail = format('Key (subscriber_id)=(%s) is not present in table "subscribers".', missing),
      schema = tg_table_schema, table = tg_table_name, constraint = tg_argv[0];
  end if;
  return null;
end;
$$;

-- The key's check on update, only for a row whose subscriber_id changed (as the key checked it):
-- nothing changes it, and the engine updates enrolments in thousands, so no statement-wide check.
create function private.check_subscriber_exists()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform 1 from public.subscribers s where s.id = new.subscriber_id for key share;
  if not found then
    raise exception using
      errcode = 'foreign_key_violation',
      message = format('insert or update on table "%s" violates foreign key constraint "%s"',
        tg_table_name, tg_argv[0]),
      detail = format('Key (subscriber_id)=(%s) is not present in table "subscribers".', new.subscriber_id),
      schema = tg_table_schema, table = tg_table_name, constraint = tg_argv[0];
  end if;
  return null;
end;
$$;

create trigger subscriber_tags_check_subscriber after insert on public.subscriber_tags
  referencing new table as new_rows
  for each statement execute function private.check_subscribers_exist('subscriber_tags_subscriber_id_fkey');
create trigger subscriber_tags_check_subscriber_change after update of subscriber_id on public.subscriber_tags
  for each row when (old.subscriber_id is distinct from new.subscriber_id)
  execute function private.check_subscriber_exists('subscriber_tags_subscriber_id_fkey');

create trigger automation_enrolments_check_subscriber after insert on public.automation_enrolments
  referencing new table as new_rows
  for each statement execute function private.check_subscribers_exist('automation_enrolments_subscriber_id_fkey');
create trigger automation_enrolments_check_subscriber_change after update of subscriber_id on public.automation_enrolments
  for each row when (old.subscriber_id is distinct from new.subscriber_id)
  execute function private.check_subscriber_exists('automation_enrolments_subscriber_id_fkey');

create trigger automation_sends_check_subscriber after insert on public.automation_sends
  referencing new table as new_rows
  for each statement execute function private.check_subscribers_exist('automation_sends_subscriber_id_fkey');
create trigger automation_sends_check_subscriber_change after update of subscriber_id on public.automation_sends
  for each row when (old.subscriber_id is distinct from new.subscriber_id)
  execute function private.check_subscriber_exists('automation_sends_subscriber_id_fkey');

create trigger confirm_nonces_check_subscriber after insert on private.confirm_nonces
  referencing new table as new_rows
  for each statement execute function private.check_subscribers_exist('confirm_nonces_subscriber_id_fkey');
create trigger confirm_nonces_check_subscriber_change after update of subscriber_id on private.confirm_nonces
  for each row when (old.subscriber_id is distinct from new.subscriber_id)
  execute function private.check_subscriber_exists('confirm_nonces_subscriber_id_fkey');

create trigger confirmation_send_items_check_subscriber after insert on private.confirmation_send_items
  referencing new table as new_rows
  for each statement execute function private.check_subscribers_exist('confirmation_send_items_subscriber_id_fkey');
create trigger confirmation_send_items_check_subscriber_change after update of subscriber_id on private.confirmation_send_items
  for each row when (old.subscriber_id is distinct from new.subscriber_id)
  execute function private.check_subscriber_exists('confirmation_send_items_subscriber_id_fkey');

-- referred_by names a subscriber (a referrer inserted by the same statement counts, as with the
-- key): on insert once per statement over the rows that have one (an import's rows have none, and
-- only scan their transition table), on update only where it changed to another subscriber.
create function private.check_referrers_exist()
returns trigger
language plpgsql
security definer
set search_path = ''
set enable_nestloop = on
set jit = off
as $$
declare
  missing uuid;
begin
  select n.referred_by into missing
    from (select distinct r.referred_by from new_rows r where r.referred_by is not null) n
    left join lateral (
      select s.id from public.subscribers s where s.id = n.referred_by for key share
    ) s on true
   where s.id is null
   limit 1;
  if found then
    raise exception using
      errcode = 'foreign_key_violation',
      message = 'insert or update on table "subscribers" violates foreign key constraint "subscribers_referred_by_fkey"',
      detail = format('Key (referred_by)=(%s) is not present in table "subscribers".', missing),
      schema = 'public', table = 'subscribers', constraint = 'subscribers_referred_by_fkey';
  end if;
  return null;
end;
$$;

create function private.check_referrer_exists()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform 1 from public.subscribers s where s.id = new.referred_by for key share;
  if not found then
    raise exception using
      errcode = 'foreign_key_violation',
      message = 'insert or update on table "subscribers" violates foreign key constraint "subscribers_referred_by_fkey"',
      detail = format('Key (referred_by)=(%s) is not present in table "subscribers".', new.referred_by),
      schema = 'public', table = 'subscribers', constraint = 'subscribers_referred_by_fkey';
  end if;
  return null;
end;
$$;

create trigger subscribers_check_referrer after insert on public.subscribers
  referencing new table as new_rows
  for each statement execute function private.check_referrers_exist();
create trigger subscribers_check_referrer_change after update of referred_by on public.subscribers
  for each row when (new.referred_by is not null and old.referred_by is distinct from new.referred_by)
  execute function private.check_referrer_exists();

-- ON DELETE CASCADE (SET NULL for referred_by), one statement per table for the whole delete. The
-- deleted ids as one array: `= any (ids)` probes each table's subscriber index per id, whatever
-- the transition table held when the connection first planned it (a join to old_rows could stay a
-- hash join over the whole table, as the events' did: 20261202200000, 4).
create function private.delete_rows_of_deleted_subscribers()
returns trigger
language plpgsql
security definer
set search_path = ''
set jit = off
as $$
declare
  ids uuid[] := array(select o.id from old_rows o);
begin
  delete from public.subscriber_tags t where t.subscriber_id = any (ids);
  delete from public.automation_sends x where x.subscriber_id = any (ids);
  delete from public.automation_enrolments e where e.subscriber_id = any (ids);
  delete from private.confirm_nonces n where n.subscriber_id = any (ids);
  delete from private.confirmation_send_items i where i.subscriber_id = any (ids);
  -- The subscribers they referred stay, without a referrer (the update fires the subscribers'
  -- update triggers, as the key's did; move_referrals finds no referrer row left to update).
  update public.subscribers s set referred_by = null
   where s.referred_by = any (ids) and s.referred_by is not null;
  return null;
end;
$$;

create trigger subscribers_delete_rows
  after delete on public.subscribers
  referencing old table as old_rows
  for each statement execute function private.delete_rows_of_deleted_subscribers();

-- The keys' NO ACTION on update of subscribers.id (ids are generated and never change).
create function private.refuse_subscriber_id_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  referencing text;
begin
  referencing := case
    when exists (select 1 from public.subscriber_tags where subscriber_id = old.id) then 'subscriber_tags'
    when exists (select 1 from public.automation_enrolments where subscriber_id = old.id) then 'automation_enrolments'
    when exists (select 1 from public.automation_sends where subscriber_id = old.id) then 'automation_sends'
    when exists (select 1 from private.confirm_nonces where subscriber_id = old.id) then 'confirm_nonces'
    when exists (select 1 from private.confirmation_send_items where subscriber_id = old.id) then 'confirmation_send_items'
    when exists (select 1 from public.subscribers where referred_by = old.id) then 'subscribers'
  end;
  if referencing is not null then
    raise exception using
      errcode = 'foreign_key_violation',
      message = format('update or delete on table "subscribers" violates foreign key constraint "%s" on table "%s"',
        referencing || case when referencing = 'subscribers' then '_referred_by_fkey' else '_subscriber_id_fkey' end,
        referencing),
      detail = format('Key (id)=(%s) is still referenced from table "%s".', old.id, referencing),
      schema = 'public', table = 'subscribers',
      constraint = referencing || case when referencing = 'subscribers' then '_referred_by_fkey' else '_subscriber_id_fkey' end;
  end if;
  return new;
end;
$$;

create trigger subscribers_id_referenced_by_rows
  before update of id on public.subscribers
  for each row when (old.id is distinct from new.id)
  execute function private.refuse_subscriber_id_change();

-- The referrals a deleted subscriber brought (20261122110200): the function did nothing for a
-- subscriber nobody referred, but was called for every deleted row (5,000 calls a batch); the
-- trigger's WHEN now skips those without a call. Same effect.
drop trigger subscribers_uncount_referrals on public.subscribers;
create trigger subscribers_uncount_referrals before delete on public.subscribers
  for each row when (old.referred_by is not null)
  execute function private.uncount_referrals();

revoke execute on function private.check_subscribers_exist(), private.check_subscriber_exists(),
  private.check_referrers_exist(), private.check_referrer_exists(),
  private.delete_rows_of_deleted_subscribers(), private.refuse_subscriber_id_change() from public;
