-- Query plans of the bulk actions (issue 23, bench/bulk.ts: 99,000 subscribers in batches of
-- 5,000). Each function below is as before apart from how its rows are found; every event, its
-- order and every other effect stay the same. A plan inside a PL/pgSQL trigger is made once per
-- connection, at the first call, and a query without parameters keeps it: whatever the transition
-- tables held then decides the plan for every later statement on that connection.
--
-- 1. The subscriptions' statement triggers pair old_rows with new_rows without joining one
-- transition table to the other (as 20261127400600 did for the subscribers' triggers). A bulk
-- unsubscribe took 35-45 s (more than three times a blocklist, which unsubscribes too): most
-- batches spent 3.5-5 s in one query of private.subscriptions_changed(), new_rows joined to
-- old_rows in a nested loop (25,000,000 row pairs). The connection had planned it on a statement
-- that changed no rows: the referral update of apply_subscription_changes() fires the UPDATE
-- trigger with empty transition tables, 20 times in a bulk add. Planned first on 5,000 rows (a
-- fresh connection) it was a hash join and fast, so one run could be slow where the next was not.
-- The old → new status pairs are now grouped by key from both tables (one aggregate over a UNION
-- ALL: a hash or a sort, never row by row), still in the statement's order, and the enrolment
-- trigger's "confirmed now, not before" is a set difference (EXCEPT, hashed or sorted).

create or replace function private.subscriptions_changed()
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
  counts integer[];
begin
  if tg_op = 'INSERT' then
    select array_agg(n.subscriber_id), array_agg(n.list_id), array_agg(null::text),
           array_agg(n.status), array_agg(n.referrals)
      into subs, lists, froms, tos, counts from new_rows n;
  elsif tg_op = 'UPDATE' then
    -- The rows whose key is in both tables (status is never null) and whose status changed, in
    -- the statement's order (ord numbers new_rows as they were written; old rows have none).
    select array_agg(c.subscriber_id order by c.ord), array_agg(c.list_id order by c.ord),
           array_agg(c.status_from order by c.ord), array_agg(c.status_to order by c.ord)
      into subs, lists, froms, tos
      from (select r.subscriber_id, r.list_id,
                   min(r.status) filter (where r.ord is null) as status_from,
                   min(r.status) filter (where r.ord is not null) as status_to,
                   min(r.ord) as ord
              from (select o.subscriber_id, o.list_id, o.status, null::bigint as ord from old_rows o
                    union all
                    select n.subscriber_id, n.list_id, n.status, row_number() over () from new_rows n) r
             group by r.subscriber_id, r.list_id) c
     where c.status_from <> c.status_to;
  else
    select array_agg(o.subscriber_id), array_agg(o.list_id), array_agg(o.status), array_agg(null::text)
      into subs, lists, froms, tos from old_rows o where o.status = 'confirmed';
  end if;
  if subs is not null then
    perform private.apply_subscription_changes(subs, lists, froms, tos, tg_op = 'INSERT', counts);
  end if;
  return null;
end;
$$;

create or replace function private.enrol_on_subscriptions()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  a_ids uuid[];
  s_ids uuid[];
begin
  if tg_op in ('INSERT', 'UPDATE') and exists (
      select 1 from public.automations where status = 'active' and trigger_kind = 'list') then
    if tg_op = 'INSERT' then
      select array_agg(a.id), array_agg(n.subscriber_id) into a_ids, s_ids
        from new_rows n
        join public.automations a on a.trigger_list_id = n.list_id and a.status = 'active' and a.trigger_kind = 'list'
       where n.status = 'confirmed';
    else
      -- Confirmed now and not before (no old row, or one in another status).
      select array_agg(a.id), array_agg(n.subscriber_id) into a_ids, s_ids
        from (select c.subscriber_id, c.list_id from new_rows c where c.status = 'confirmed'
              except
              select o.subscriber_id, o.list_id from old_rows o where o.status = 'confirmed') n
        join public.automations a on a.trigger_list_id = n.list_id and a.status = 'active' and a.trigger_kind = 'list';
    end if;
    if a_ids is not null then
      perform private.enrol(a_ids, s_ids);
    end if;
  end if;
  -- Leaving a list (unsubscribed or removed) may end enrolments at once, so reports are current.
  if tg_op in ('UPDATE', 'DELETE') and exists (select 1 from public.automation_enrolments where state = 'active') then
    if tg_op = 'UPDATE' then
      select array_agg(distinct n.subscriber_id) into s_ids from new_rows n where n.status <> 'confirmed';
    else
      select array_agg(distinct o.subscriber_id) into s_ids from old_rows o;
    end if;
    if s_ids is not null then
      perform private.exit_enrolments(null, s_ids);
    end if;
  end if;
  return null;
end;
$$;

-- 2. A batch's matches are first looked for in id order. Each batch took its p_limit matches with
-- the filter's own plan, and for a filter the planner cannot estimate (an attribute's value: it
-- guessed 270 of 110,000 subscribers where 99,000 matched) that plan reads and tests every
-- subscriber and sorts the matches, in every batch again: 0.1-0.7 s of each batch in bench/bulk.ts.
-- Now a batch first tests the next 2 * p_limit subscribers after p_after in primary-key order (a
-- range scan that stops there): when that window holds p_limit matches (half the subscribers or
-- more match, as in a bulk action on a whole list) or ends the table, those are the batch, at the
-- cost of the rows in the window. Otherwise the rest of the batch comes from the filter's own query
-- as before, after the window. Same batches, same answers; the function is otherwise as in
-- 20261127400300 (with the statement timeout of 20261127400600), apart from the add below and
-- jit = off (see 6: on a larger table the window's cost passes jit_above_cost, and compiling it
-- would cost more than running it).
create or replace function public.bulk_update_subscribers(p_action text, p_rules jsonb default null,
  p_list uuid default null, p_status text default 'confirmed', p_after uuid default null,
  p_limit integer default 10000)
returns jsonb
language plpgsql
volatile
security invoker
set search_path = ''
set statement_timeout = '60s'
set jit = off
as $$
declare
  w record;
  ids uuid[];
  more uuid[];
  scanned integer;
  window_end uuid;
  changed integer := 0;
begin
  if p_action is null or p_action not in ('add', 'remove', 'confirm', 'unsubscribe', 'blocklist', 'delete') then
    perform private.rules_refuse('action', 'must be add, remove, confirm, unsubscribe, blocklist or delete');
  end if;
  if not private.has_role(case when p_action = 'delete' then 'owner' else 'admin' end) then
    raise exception using errcode = 'PT403', message = 'postbox:forbidden: You do not have permission to do that.';
  end if;
  if p_action in ('add', 'remove') and p_list is null then
    perform private.rules_refuse('list', 'choose a list');
  end if;
  if p_list is not null and not exists (select 1 from public.lists l where l.id = p_list) then
    raise exception using errcode = 'PT404', message = 'postbox:list_not_found: That list does not exist.';
  end if;
  if p_action = 'add' and (p_status is null or p_status not in ('confirmed', 'pending')) then
    perform private.rules_refuse('status', 'must be confirmed or pending');
  end if;
  if p_limit is null or p_limit < 1 or p_limit > 50000 then
    perform private.rules_refuse('limit', 'must be between 1 and 50000');
  end if;

  select * into w from private.subscriber_rules_where(p_rules);
  -- The window: the next 2 * p_limit subscribers by id, each tested (see the top).
  execute format('select array_agg(t.id order by t.id) filter (where t.hit), count(*)::integer,
                         (array_agg(t.id order by t.id desc))[1]
                    from (select s.id, coalesce(%s, false) as hit from public.subscribers s
                           where ($2::uuid is null or s.id > $2) order by s.id limit $3) t', w.clause)
     into ids, scanned, window_end using w.params, p_after, 2 * p_limit;
  if coalesce(cardinality(ids), 0) >= p_limit then
    ids := ids[1:p_limit];
  elsif scanned = 2 * p_limit then
    -- More subscribers after the window: the filter's own query finds the rest of the batch.
    execute format('select array_agg(b.id order by b.id) from (select s.id from public.subscribers s
                     where %s and s.id > $2 order by s.id limit $3) b', w.clause)
       into more using w.params, window_end, p_limit - coalesce(cardinality(ids), 0);
    ids := case when ids is null then more when more is null then ids else ids || more end;
  end if;
  if ids is null then
    return jsonb_build_object('processed', 0, 'changed', 0, 'last_id', p_after, 'done', true);
  end if;

  if p_action = 'add' then
    -- Each subscriber found by primary key (a subquery of its own: the planner read and tested
    -- every subscriber instead), and confirmed_at given as the transition trigger would set it
    -- (now()), so that per-row trigger has nothing to do and does not run.
    with added as (
      insert into public.subscriptions (subscriber_id, list_id, status, confirmed_at)
      select s.id, p_list, p_status, case when p_status = 'confirmed' then now() end
        from unnest(ids) i(id)
        cross join lateral (select s.id from public.subscribers s
                             where s.id = i.id and s.status = 'enabled' offset 0) s
      on conflict (subscriber_id, list_id) do nothing
      returning subscriber_id)
    select count(*) into changed from added;
  elsif p_action = 'remove' then
    with gone as (
      delete from public.subscriptions x where x.subscriber_id = any (ids) and x.list_id = p_list
      returning x.subscriber_id)
    select count(*) into changed from gone;
  elsif p_action = 'confirm' then
    with done as (
      update public.subscriptions x set status = 'confirmed'
        from public.subscribers s
       where s.id = x.subscriber_id and s.status = 'enabled'
         and x.subscriber_id = any (ids) and x.status = 'pending'
         and (p_list is null or x.list_id = p_list)
      returning x.subscriber_id)
    select count(distinct subscriber_id) into changed from done;
  elsif p_action = 'unsubscribe' then
    with done as (
      update public.subscriptions x set status = 'unsubscribed'
       where x.subscriber_id = any (ids) and x.status <> 'unsubscribed'
         and (p_list is null or x.list_id = p_list)
      returning x.subscriber_id)
    select count(distinct subscriber_id) into changed from done;
  elsif p_action = 'blocklist' then
    update public.subscribers s set status = 'blocklisted'
     where s.id = any (ids) and s.status <> 'blocklisted';
    get diagnostics changed = row_count;
  else
    delete from public.subscribers s where s.id = any (ids);
    get diagnostics changed = row_count;
  end if;

  return jsonb_build_object('processed', cardinality(ids), 'changed', changed,
    'last_id', ids[cardinality(ids)], 'done', cardinality(ids) < p_limit);
end;
$$;

-- 3. The 'removed' events of 20261127400000, the subscriber looked up by primary key for each
-- removed subscription. The join to public.subscribers was planned as a hash join: every subscriber
-- read and hashed for each statement (60-110 ms for a batch of 5,000 in bench/bulk.ts, for a bulk
-- delete too, whose cascaded rows find no subscriber and write nothing). OFFSET 0 keeps the lookup
-- a subquery of its own, so it stays one index probe per row. Same events.
create or replace function private.record_subscriptions_removed()
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
    cross join lateral (select from public.subscribers s where s.id = o.subscriber_id offset 0) s
    left join public.lists l on l.id = o.list_id;
  return null;
end;
$$;

-- 4. The events of deleted subscribers (20261123020000), found through events_subscriber_idx for
-- each deleted subscriber. Planned once per connection on its first batch, the join was a hash join
-- on a sequential scan of every event (700,000 by the bulk delete of bench/bulk.ts: 0.6-1.4 s a
-- batch, most of the delete's time). This function runs only that statement (public.events has no
-- delete triggers and nothing references it), so turning hash and merge joins off here leaves it
-- one index probe per deleted subscriber, as the cascade it replaced did. Same rows deleted.
create or replace function private.delete_events_of_deleted_subscribers()
returns trigger
language plpgsql
security definer
set search_path = ''
set enable_hashjoin = off
set enable_mergejoin = off
as $$
begin
  delete from public.events e using old_rows o where e.subscriber_id = o.id;
  return null;
end;
$$;

-- 5. The subscription events of apply_subscription_changes(), their details ({list_id, list, from,
-- to, source, actor}) built once per list and transition as the comment there always said: the CTE
-- was inlined by the planner, so jsonb_build_object() and a lookup of the list ran for every event
-- (about 90 ms of the 10,000 events of a bulk add batch; 20-45 ms with the CTE MATERIALIZED). The
-- function is otherwise as in 20261128600100. Same events, same order.
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
  -- once per list and transition (`from` is null for an insert, hence the coalesce in the join;
  -- materialized, or the planner inlines them and builds the object again for every event).
  insert into public.events (subscriber_id, campaign_id, type, data)
  with c as materialized (
    select *
      from unnest(p_subscribers, p_lists, p_from, p_to) with ordinality
             as c(subscriber_id, list_id, status_from, status_to, ord)
     where c.status_to is not null
  ), details as materialized (
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

  -- The public topics (see 20261127100100): only a subscription entering or leaving `confirmed` moves
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

-- 6. The events' subscriber check (20261123020000) planned and run as anywhere else. Planned
-- inside private.record_subscriber_updates(), whose enable_nestloop = off (20261127400600) holds
-- for the triggers its insert fires, the check's one possible plan (a nested loop into a locking
-- lookup) cost 10,000,000,000, far over jit_above_cost. The connection keeps that plan, so from
-- then on each insert into public.events on it (the 'deleted', 'removed' and 'updated' events of
-- every bulk batch) compiled the check with JIT first: 90-360 ms a statement. Same check.
alter function private.events_check_subscribers() set enable_nestloop = on;
alter function private.events_check_subscribers() set jit = off;
