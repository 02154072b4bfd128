-- Waitlist places that scale (SPEC §9, issue 4): each subscription keeps its subscriber's confirmed
-- referrals on the same list, maintained by triggers, so a place is one index range count over
-- (list, -referrals, confirmed_at, subscriber) instead of aggregating every referral per request.
alter table public.subscriptions add column referrals integer not null default 0;
comment on column public.subscriptions.referrals is 'How many subscribers this subscriber referred have a confirmed subscription to this list (kept by triggers; the waitlist ranks by it).';

update public.subscriptions t set referrals = c.n
from (
  select r.referred_by as id, rs.list_id, count(*)::integer as n
  from public.subscribers r
  join public.subscriptions rs on rs.subscriber_id = r.id and rs.status = 'confirmed'
  where r.referred_by is not null
  group by r.referred_by, rs.list_id
) c
where t.subscriber_id = c.id and t.list_id = c.list_id;

drop index public.subscriptions_confirmed_rank_idx;
create index subscriptions_waitlist_rank_idx
  on public.subscriptions (list_id, (-referrals), confirmed_at, subscriber_id)
  where status = 'confirmed';

-- A new subscription starts with the referrals its subscriber already has on that list.
create function private.initial_referrals()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  new.referrals := (select count(*) from public.subscribers r
    join public.subscriptions rs on rs.subscriber_id = r.id and rs.list_id = new.list_id and rs.status = 'confirmed'
    where r.referred_by = new.subscriber_id);
  return new;
end;
$$;
create trigger subscriptions_initial_referrals before insert on public.subscriptions
  for each row execute function private.initial_referrals();

-- A subscription entering or leaving `confirmed` moves its referrer's count on that list. (When a
-- subscriber is deleted the cascade finds no subscriber row here; subscribers_uncount_referrals
-- has already taken the counts back.)
create function private.count_referral()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  was boolean := tg_op <> 'INSERT' and old.status = 'confirmed';
  is_now boolean := tg_op <> 'DELETE' and new.status = 'confirmed';
  referrer uuid;
begin
  if was = is_now then
    return null;
  end if;
  select s.referred_by into referrer from public.subscribers s
  where s.id = case when tg_op = 'DELETE' then old.subscriber_id else new.subscriber_id end;
  if referrer is not null then
    update public.subscriptions t set referrals = t.referrals + case when is_now then 1 else -1 end
    where t.subscriber_id = referrer
      and t.list_id = case when tg_op = 'DELETE' then old.list_id else new.list_id end;
  end if;
  return null;
end;
$$;
create trigger subscriptions_count_referral
  after insert or update of status or delete on public.subscriptions
  for each row execute function private.count_referral();

-- Deleting a referred subscriber takes their confirmed subscriptions back from the referrer.
create function private.uncount_referrals()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if old.referred_by is not null then
    update public.subscriptions t set referrals = t.referrals - 1
    from public.subscriptions s
    where s.subscriber_id = old.id and s.status = 'confirmed'
      and t.subscriber_id = old.referred_by and t.list_id = s.list_id;
  end if;
  return old;
end;
$$;
create trigger subscribers_uncount_referrals before delete on public.subscribers
  for each row execute function private.uncount_referrals();

-- An admin changing referred_by moves the confirmed subscriptions' counts from one referrer to the
-- other. A referrer that is being deleted (FK sets referred_by to null) has no row left to update.
create function private.move_referrals()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if old.referred_by is not distinct from new.referred_by then
    return null;
  end if;
  if old.referred_by is not null then
    update public.subscriptions t set referrals = t.referrals - 1
    from public.subscriptions s
    where s.subscriber_id = new.id and s.status = 'confirmed'
      and t.subscriber_id = old.referred_by and t.list_id = s.list_id;
  end if;
  if new.referred_by is not null then
    update public.subscriptions t set referrals = t.referrals + 1
    from public.subscriptions s
    where s.subscriber_id = new.id and s.status = 'confirmed'
      and t.subscriber_id = new.referred_by and t.list_id = s.list_id;
  end if;
  return null;
end;
$$;
create trigger subscribers_move_referrals after update of referred_by on public.subscribers
  for each row execute function private.move_referrals();

-- The place itself: everyone confirmed with more referrals, or as many and an earlier confirmation
-- (then id), is ahead — one range count on subscriptions_waitlist_rank_idx. Confirmed implies
-- enabled (blocklisting unsubscribes, and a blocklisted subscriber cannot be confirmed).
create or replace function private.waitlist_standing(p_list uuid, p_subscriber uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  me record;
  total integer;
  ahead integer;
begin
  select count(*) into total from public.subscriptions s where s.list_id = p_list and s.status = 'confirmed';
  select s.referrals, s.confirmed_at into me
  from public.subscriptions s join public.subscribers u on u.id = s.subscriber_id
  where s.list_id = p_list and s.subscriber_id = p_subscriber and s.status = 'confirmed' and u.status = 'enabled';
  if not found then
    return jsonb_build_object('position', null, 'total', total, 'referrals',
      (select count(*) from public.subscribers r
        join public.subscriptions rs on rs.subscriber_id = r.id and rs.list_id = p_list and rs.status = 'confirmed'
        where r.referred_by = p_subscriber));
  end if;
  select count(*) into ahead from public.subscriptions s
  where s.list_id = p_list and s.status = 'confirmed'
    and (-s.referrals, s.confirmed_at, s.subscriber_id) < (-me.referrals, me.confirmed_at, p_subscriber);
  return jsonb_build_object('position', ahead + 1, 'total', total, 'referrals', me.referrals);
end;
$$;
