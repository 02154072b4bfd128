-- Reward milestones that move a reader up the line (issue 23, Waitlist): "at 3 referrals: jump 100
-- places". A milestone may carry `jump`, the places its reader moves ahead once they reach it; the
-- jumps of every milestone reached add up.
--
-- Jumps need a line that referrals do not already order: in SPEC §9's line (more confirmed
-- referrals first) everyone ahead of a reader has at least their referrals, so reached at least
-- their milestones and jumped as far, and a jump changes no place. A waitlist therefore chooses its
-- order (lists.waitlist_order): 'referrals', SPEC §9's and the default, where rewards are text
-- only; or 'joined', the order of confirmation, where milestones' jumps move readers up (as the
-- hosted waitlist tools do it: "each milestone moves you up N places").
--
-- The line: each reader's place in the chosen order (`base`) less their jumps, ties going to the
-- one who jumped further and then to the earlier base place, so a reader at 150 who jumps 100 is at
-- 50 and the reader who was there moves to 51. Everyone who reads a place reads it from
-- private.waitlist_places: the public place (private.waitlist_standing), the ranked admin view,
-- Let in's "top N", campaign merge tags and the waitlist_position rule.

alter table public.lists
  add column waitlist_order text not null default 'referrals' check (waitlist_order in ('referrals', 'joined'));
comment on column public.lists.waitlist_order is 'A waitlist''s line: referrals (more confirmed referrals first, then earlier confirmation; SPEC §9) or joined (order of confirmation, moved up by reward jumps).';

alter table public.waitlist_rewards
  add column jump integer not null default 0 check (jump between 0 and 1000000);
comment on column public.waitlist_rewards.jump is 'Places the reader moves ahead in line on reaching this milestone (0: none); every reached milestone''s jump adds up.';
grant insert (jump), update (jump) on public.waitlist_rewards to authenticated;

-- Every confirmed member of a waitlist with their place, in one pass (a sort of the list). Security
-- invoker: callers' own rights apply (members and the service role read subscriptions; the
-- definer functions below read for the public page).
create function private.waitlist_places(p_list uuid)
returns table (subscriber_id uuid, place bigint, referrals integer, confirmed_at timestamptz)
language sql
stable
security invoker
set search_path = ''
as $$
  with by_referrals as (
    select coalesce((select l.waitlist_order = 'referrals' from public.lists l where l.id = p_list),
                    true) as yes
  ), base as (
    select s.subscriber_id, s.referrals, s.confirmed_at,
           row_number() over (order by case when r.yes then -s.referrals else 0 end,
                                       s.confirmed_at, s.subscriber_id) as base
      from public.subscriptions s cross join by_referrals r
     where s.list_id = p_list and s.status = 'confirmed'
  ), steps as (
    select r.referrals, sum(r.jump) over (order by r.referrals) as jump
      from public.waitlist_rewards r
     where r.list_id = p_list and r.jump > 0
  ), jumped as (
    select b.*, coalesce((select st.jump from steps st where st.referrals <= b.referrals
                           order by st.referrals desc limit 1), 0) as jump
      from base b
  )
  select j.subscriber_id, row_number() over (order by j.base - j.jump, j.jump desc, j.base),
         j.referrals, j.confirmed_at
    from jumped j
$$;
comment on function private.waitlist_places(uuid) is 'The line of a waitlist: each confirmed member''s place, with reward jumps applied.';
revoke execute on function private.waitlist_places(uuid) from public;
grant execute on function private.waitlist_places(uuid) to authenticated, service_role;

-- The public place. In the referrals order it stays one range count on
-- subscriptions_waitlist_rank_idx (jumps change nothing there); in the joined order it is read from
-- the whole line.
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
  place bigint;
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
  if exists (select 1 from public.lists l where l.id = p_list and l.waitlist_order = 'joined') then
    select w.place into place from private.waitlist_places(p_list) w where w.subscriber_id = p_subscriber;
    return jsonb_build_object('position', place, 'total', total, 'referrals', me.referrals);
  end if;
  select count(*) into ahead from public.subscriptions s
  where s.list_id = p_list and s.status = 'confirmed'
    and (-s.referrals, s.confirmed_at, s.subscriber_id) < (-me.referrals, me.confirmed_at, p_subscriber);
  return jsonb_build_object('position', ahead + 1, 'total', total, 'referrals', me.referrals);
end;
$$;

-- Changing the order, or a milestone of a waitlist in the joined order, moves places: the
-- waitlist's public topic says so, as a confirmation does (the pages re-read their place).
create function private.signal_waitlist_order()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  list public.lists;
begin
  if tg_table_name = 'lists' then
    list := new;
  else
    select * into list from public.lists l
     where l.id = coalesce(new.list_id, old.list_id) and l.waitlist_order = 'joined';
  end if;
  if list.id is not null and list.waitlist then
    perform private.signal('waitlist:' || list.slug, 'positions', jsonb_build_object('list', list.slug), false);
  end if;
  return null;
end;
$$;
revoke execute on function private.signal_waitlist_order() from public;
create trigger lists_signal_waitlist_order after update of waitlist_order on public.lists
  for each row when (old.waitlist_order is distinct from new.waitlist_order)
  execute function private.signal_waitlist_order();
create trigger waitlist_rewards_signal_jumps after insert or update or delete on public.waitlist_rewards
  for each row execute function private.signal_waitlist_order();

-- The ranked admin view, in the line's order.
create or replace function public.waitlist_ranking(
  p_list uuid,
  p_search text default null,
  p_limit integer default 50,
  p_offset integer default 0)
returns table (place bigint, subscriber_id uuid, email text, name text, referrals integer,
  joined_at timestamptz, total bigint, matches bigint)
language sql
stable
security invoker
set search_path = ''
as $$
  with ranked as (
    select w.place, w.subscriber_id, u.email, u.name, w.referrals, w.confirmed_at as joined_at,
      count(*) over () as total
    from private.waitlist_places(p_list) w
    join public.subscribers u on u.id = w.subscriber_id
    where exists (select 1 from public.lists l where l.id = p_list and l.waitlist)
  ), found as (
    select r.*, count(*) over () as matches from ranked r
    where coalesce(btrim(p_search), '') = ''
       or strpos(lower(r.email), lower(btrim(p_search))) > 0
       or strpos(lower(r.name), lower(btrim(p_search))) > 0
  )
  select f.place, f.subscriber_id, f.email, f.name, f.referrals, f.joined_at, f.total, f.matches
  from found f
  order by f.place
  limit least(greatest(coalesce(p_limit, 50), 1), 500) offset greatest(coalesce(p_offset, 0), 0)
$$;

-- Campaign merge tags: a batch's places read from one pass over the line, not one per reader.
create or replace function public.campaign_waitlist_standings(
  p_campaign_id uuid,
  p_subscribers uuid[]
)
returns table (subscriber_id uuid, list_slug text, referral_code text, standing jsonb)
language sql
stable
security definer
set search_path = ''
as $$
  with wl as (
    select l.id, l.slug
    from public.campaign_lists cl
    join public.lists l on l.id = cl.list_id
    where cl.campaign_id = p_campaign_id and l.waitlist
    order by l.created_at, l.id
    limit 1
  ), line as (
    select w.* from wl cross join lateral private.waitlist_places(wl.id) w
  )
  select s.id, wl.slug, s.referral_code,
    case when p.subscriber_id is not null and s.status = 'enabled'
      then jsonb_build_object('position', p.place,
        'total', (select count(*) from line), 'referrals', p.referrals)
      else private.waitlist_standing(wl.id, s.id) end
  from wl
  cross join public.subscribers s
  left join line p on p.subscriber_id = s.id
  where s.id = any(p_subscribers);
$$;
