-- Subscription side effects once per statement instead of once per row (issue 6): a CSV import
-- writes 5,000 subscriptions per statement, and four per-row plpgsql triggers plus the blocklist
-- lookup cost more than the rows themselves. The rules stay those of SPEC §4 (and migrations
-- 20261122100500/100600/100900/110200/250000), applied to the statement's transition tables:
-- every status change writes its events (with the transaction's source and campaign); confirmed
-- never goes back to pending (still per row, before the write); a blocklisted subscriber is never
-- subscribed (checked for the whole statement before it completes); waitlist referral counters
-- move by the net change per referrer and list; each waitlist list a statement touches is
-- announced once. Realtime postgres_changes still sees every row.

-- Per row only what changes the row itself: the backward transition and the timestamps.
create or replace function private.check_subscription_transition()
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

drop trigger subscriptions_record_event on public.subscriptions;
drop trigger subscriptions_count_referral on public.subscriptions;
drop trigger subscriptions_initial_referrals on public.subscriptions;
drop trigger subscriptions_announce_waitlist on public.subscriptions;
drop function private.record_subscription_event();
drop function private.count_referral();
drop function private.initial_referrals();
drop function private.announce_waitlist_change();

-- What one statement changed, in statement order: subscriber, list, status before (null for an
-- insert) and after (null for a delete); `p_inserted` says the rows are new.
create function private.apply_subscription_changes(p_subscribers uuid[], p_lists uuid[],
  p_from text[], p_to text[], p_inserted boolean)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  source text := private.event_source();
  campaign uuid := private.event_campaign();
begin
  -- SPEC §4: a blocklisted subscriber cannot be (re)subscribed.
  if exists (select 1 from unnest(p_subscribers, p_to) c(subscriber_id, status)
             join public.subscribers s on s.id = c.subscriber_id
             where c.status in ('pending', 'confirmed') and s.status = 'blocklisted') then
    raise exception 'A blocklisted subscriber cannot be subscribed.' using errcode = '23514';
  end if;

  -- A subscription entering or leaving `confirmed` moves its referrer's count on that list.
  -- (A subscriber being deleted is already gone here: subscribers_uncount_referrals did it.)
  update public.subscriptions t set referrals = t.referrals + d.delta
    from (select s.referred_by, c.list_id,
                 sum(case when c.status_to = 'confirmed' then 1 else -1 end)::integer as delta
            from unnest(p_subscribers, p_lists, p_from, p_to) c(subscriber_id, list_id, status_from, status_to)
            join public.subscribers s on s.id = c.subscriber_id
           where s.referred_by is not null
             and (c.status_from = 'confirmed') is distinct from (c.status_to = 'confirmed')
             and (c.status_from = 'confirmed' or c.status_to = 'confirmed')
           group by s.referred_by, c.list_id) d
   where t.subscriber_id = d.referred_by and t.list_id = d.list_id and d.delta <> 0;

  -- A new subscription starts with the referrals its subscriber already has on that list (after
  -- the step above, so a referrer and a referred subscriber inserted together count once).
  if p_inserted then
    update public.subscriptions t set referrals = coalesce(n.referrals, 0)
      from unnest(p_subscribers, p_lists) c(subscriber_id, list_id)
      left join (select r.referred_by, rs.list_id, count(*)::integer as referrals
                   from public.subscribers r
                   join public.subscriptions rs on rs.subscriber_id = r.id and rs.status = 'confirmed'
                  where r.referred_by = any (p_subscribers)
                  group by r.referred_by, rs.list_id) n
        on n.referred_by = c.subscriber_id and n.list_id = c.list_id
     where t.subscriber_id = c.subscriber_id and t.list_id = c.list_id
       and t.referrals <> coalesce(n.referrals, 0);
  end if;

  -- SPEC §4: every transition writes an event, {list_id, list, from, to, source}.
  insert into public.events (subscriber_id, campaign_id, type, data)
  select c.subscriber_id, campaign, k.type,
         jsonb_build_object('list_id', c.list_id, 'list', l.slug, 'from', c.status_from,
           'to', c.status_to, 'source', source)
    from unnest(p_subscribers, p_lists, p_from, p_to) with ordinality
           as c(subscriber_id, list_id, status_from, status_to, ord)
    left join public.lists l on l.id = c.list_id
    cross join lateral (
      select 'subscribed' as type, 1 as step where c.status_from is null
      union all
      select 'confirmed', 2 where c.status_from is null and c.status_to = 'confirmed'
      union all
      select case when c.status_to = 'unsubscribed' then 'unsubscribed'
                  when c.status_from = 'unsubscribed' then 'resubscribed'
                  when c.status_to = 'confirmed' then 'confirmed' end, 1
       where c.status_from is not null
    ) k
   where c.status_to is not null and k.type is not null
   order by c.ord, k.step;

  -- The waitlist page cannot read other people's rows: announce on `waitlist:<slug>` (event
  -- 'positions', no subscriber named) once per waitlist list this statement changed.
  perform realtime.send(jsonb_build_object('list', l.slug), 'positions', 'waitlist:' || l.slug, false)
     from public.lists l
    where l.waitlist
      and l.id in (select c.list_id from unnest(p_lists, p_to) c(list_id, status_to)
                    where c.status_to is not null);
end;
$$;

-- The statement triggers: gather the status changes from the transition tables, then apply them.
create function private.subscriptions_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  subs uuid[];
  lists uuid[];
  froms text[];
  tos text[];
begin
  if tg_op = 'INSERT' then
    select array_agg(n.subscriber_id), array_agg(n.list_id), array_agg(null::text), array_agg(n.status)
      into subs, lists, froms, tos from new_rows n;
  elsif tg_op = 'UPDATE' then
    select array_agg(n.subscriber_id), array_agg(n.list_id), array_agg(o.status), array_agg(n.status)
      into subs, lists, froms, tos
      from new_rows n join old_rows o using (subscriber_id, list_id)
     where o.status is distinct from n.status;
  else
    select array_agg(o.subscriber_id), array_agg(o.list_id), array_agg(o.status), array_agg(null::text)
      into subs, lists, froms, tos from old_rows o where o.status = 'confirmed';
  end if;
  if subs is not null then
    perform private.apply_subscription_changes(subs, lists, froms, tos, tg_op = 'INSERT');
  end if;
  return null;
end;
$$;

create trigger subscriptions_changed_insert after insert on public.subscriptions
  referencing new table as new_rows
  for each statement execute function private.subscriptions_changed();
create trigger subscriptions_changed_update after update on public.subscriptions
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.subscriptions_changed();
create trigger subscriptions_changed_delete after delete on public.subscriptions
  referencing old table as old_rows
  for each statement execute function private.subscriptions_changed();

revoke execute on function private.apply_subscription_changes(uuid[], uuid[], text[], text[], boolean),
  private.subscriptions_changed() from public;

-- Duplicate detection of an import: one row per address taken, without a foreign key checked per
-- row (5,000 checks a batch against the same import); an import's rows go when it is deleted.
alter table private.import_emails drop constraint import_emails_import_id_fkey;
create function private.forget_import_emails()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from private.import_emails e using old_rows o where e.import_id = o.id;
  return null;
end;
$$;
revoke execute on function private.forget_import_emails() from public;
create trigger imports_forget_emails after delete on public.imports
  referencing old table as old_rows
  for each statement execute function private.forget_import_emails();
