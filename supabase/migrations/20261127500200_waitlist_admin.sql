-- Issue 23 (Waitlist admin): the ranked view of a waitlist and "Let in". The rank is the one the
-- public place uses (private.waitlist_standing): more referrals first, then earlier confirmation,
-- then id. Security invoker: the caller's row-level security applies (members read, admins and
-- owners write subscriptions); the role checks only turn a refusal into a clear error.

-- One page of a waitlist's confirmed members in rank order, optionally only those whose email or
-- name contains `p_search`; `total` is everyone in line (not only the matches), `matches` the count
-- the search leaves, so the page can say "12 of 3,400".
create function public.waitlist_ranking(
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
    select row_number() over (order by s.referrals desc, s.confirmed_at, s.subscriber_id) as place,
      s.subscriber_id, u.email, u.name, s.referrals, s.confirmed_at as joined_at,
      count(*) over () as total
    from public.subscriptions s
    join public.subscribers u on u.id = s.subscriber_id
    join public.lists l on l.id = s.list_id and l.waitlist
    where s.list_id = p_list and s.status = 'confirmed'
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
comment on function public.waitlist_ranking(uuid, text, integer, integer) is 'Members: a page of a waitlist in rank order (place, referrals, joined), with a search over email and name.';
revoke execute on function public.waitlist_ranking(uuid, text, integer, integer) from public, anon;
grant execute on function public.waitlist_ranking(uuid, text, integer, integer) to authenticated, service_role;

-- Let in (admins and owners): the top `p_top` of the line (at most 10,000, SPEC §10) or the chosen
-- `p_subscribers` leave the waitlist (their waitlist subscription becomes unsubscribed) and are
-- subscribed, confirmed, to `p_target`. Set-based: two statements. Nobody is mailed by this: the
-- target list's welcome only ever follows a confirm link. Everyone else's place moves up, and the
-- `waitlist:<slug>` topic is announced by the subscriptions trigger. Answers {let_in: n}.
create function public.let_in_from_waitlist(
  p_list uuid,
  p_target uuid,
  p_top integer default null,
  p_subscribers uuid[] default null)
returns jsonb
language plpgsql
security invoker
set search_path = ''
as $$
declare
  chosen uuid[];
  moved integer;
begin
  if not private.has_role('admin') then
    raise exception using errcode = 'PT403', message = 'postbox:forbidden: You do not have permission to do that.';
  end if;
  if not exists (select 1 from public.lists l where l.id = p_list and l.waitlist) then
    raise exception using errcode = 'PT404', message = 'postbox:list_not_found: That waitlist does not exist.';
  end if;
  if p_target = p_list or not exists (select 1 from public.lists l where l.id = p_target) then
    raise exception using errcode = 'P0001', message = 'postbox:invalid_input: target: another list';
  end if;
  if (p_top is null) = (p_subscribers is null) then
    raise exception using errcode = 'P0001', message = 'postbox:invalid_input: top: either top or subscribers';
  end if;
  if coalesce(p_top, cardinality(p_subscribers)) not between 1 and 10000 then
    raise exception using errcode = 'P0001', message = 'postbox:invalid_input: top: between 1 and 10,000 people';
  end if;
  perform set_config('postbox.source', 'let-in', true);

  select array_agg(s.subscriber_id) into chosen from (
    select s.subscriber_id from public.subscriptions s
    where s.list_id = p_list and s.status = 'confirmed'
      and (p_subscribers is null or s.subscriber_id = any (p_subscribers))
    order by s.referrals desc, s.confirmed_at, s.subscriber_id
    limit coalesce(p_top, 10000)
  ) s;
  if chosen is null then
    return jsonb_build_object('let_in', 0);
  end if;

  insert into public.subscriptions as cur (subscriber_id, list_id, status)
  select c, p_target, 'confirmed' from unnest(chosen) c
  on conflict (subscriber_id, list_id) do update set status = 'confirmed'
  where cur.status <> 'confirmed';

  update public.subscriptions s set status = 'unsubscribed'
  where s.list_id = p_list and s.subscriber_id = any (chosen) and s.status = 'confirmed';
  get diagnostics moved = row_count;
  return jsonb_build_object('let_in', moved);
end;
$$;
comment on function public.let_in_from_waitlist(uuid, uuid, integer, uuid[]) is 'Admins and owners: move the top N (or chosen) confirmed members of a waitlist to another list, confirmed, and off the waitlist.';
revoke execute on function public.let_in_from_waitlist(uuid, uuid, integer, uuid[]) from public, anon;
grant execute on function public.let_in_from_waitlist(uuid, uuid, integer, uuid[]) to authenticated, service_role;
