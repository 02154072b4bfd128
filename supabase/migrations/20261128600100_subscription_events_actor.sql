-- Subscription events name who made the change (issue 23): a bulk action (add to a list, confirm,
-- unsubscribe, blocklist through bulk_update_subscribers), a change on a subscriber's page, Let in
-- and an import now leave `actor` ({id, email} of the signed-in member, or what a function
-- declared in `postbox.actor`; null for a visitor's own link or the system) in each subscription
-- event, as the 'updated' and 'removed' events of 20261127400000 already do. The actor is read once
-- per statement, like the source. private.apply_subscription_changes is as in 20261127100100
-- apart from that.

create or replace function private.apply_subscription_changes(p_subscribers uuid[], p_lists uuid[],
  p_from text[], p_to text[], p_inserted boolean, p_referrals integer[])
returns void
language plpgsql
security definer
set search_path = ''
set jit = off
as $$
declare
  source text := private.event_source();
  actor jsonb := private.event_actor();
  campaign uuid := private.event_campaign();
  fix record;
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
    for fix in
      select c.subscriber_id, c.list_id, n.referrals
        from unnest(p_subscribers, p_lists, p_referrals) c(subscriber_id, list_id, inserted)
        cross join lateral (
          select count(*)::integer as referrals
            from public.subscribers r
            cross join lateral (
              select 1 from public.subscriptions rs
               where rs.subscriber_id = r.id and rs.list_id = c.list_id and rs.status = 'confirmed'
               limit 1) confirmed
           where r.referred_by = c.subscriber_id and r.referred_by is not null) n
       where n.referrals <> 0 or c.inserted <> 0
    loop
      update public.subscriptions set referrals = fix.referrals
       where subscriber_id = fix.subscriber_id and list_id = fix.list_id
         and referrals <> fix.referrals;
    end loop;
  end if;

  -- SPEC §4: every transition writes an event, {list_id, list, from, to, source, actor}; the details
  -- once per list and transition (`from` is null for an insert, hence the coalesce in the join).
  insert into public.events (subscriber_id, campaign_id, type, data)
  with c as materialized (
    select *
      from unnest(p_subscribers, p_lists, p_from, p_to) with ordinality
             as c(subscriber_id, list_id, status_from, status_to, ord)
     where c.status_to is not null
  ), details as (
    select t.list_id, coalesce(t.status_from, '') as status_from, t.status_to,
           jsonb_build_object('list_id', t.list_id, 'list', l.slug, 'from', t.status_from,
             'to', t.status_to, 'source', source, 'actor', actor) as data
      from (select distinct list_id, status_from, status_to from c) t
      left join public.lists l on l.id = t.list_id
  )
  select c.subscriber_id, campaign, k.type, d.data
    from c
    join details d
      on d.list_id = c.list_id and d.status_from = coalesce(c.status_from, '')
     and d.status_to = c.status_to
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
   where k.type is not null
   order by c.ord, k.step;

  -- The public topics (see the top): only a subscription entering or leaving `confirmed` moves
  -- waitlist standings or the public count; once per topic in a transaction (private.signal).
  perform private.signal('waitlist:' || l.slug, 'positions', jsonb_build_object('list', l.slug), false)
     from public.lists l
    where l.waitlist
      and l.id in (select c.list_id from unnest(p_lists, p_from, p_to) c(list_id, status_from, status_to)
                    where coalesce(c.status_from = 'confirmed', false)
                          <> coalesce(c.status_to = 'confirmed', false));
  if coalesce((select s.show_subscriber_count from public.settings s where s.id), false)
     and exists (select 1 from unnest(p_lists, p_from, p_to) c(list_id, status_from, status_to)
                   join public.lists l on l.id = c.list_id
                  where l.visibility = 'public'
                    and coalesce(c.status_from = 'confirmed', false)
                        <> coalesce(c.status_to = 'confirmed', false)) then
    perform private.signal('subscriber-count', 'changed', '{}'::jsonb, false);
  end if;
end;
$$;
