-- Bulk actions (issue 23): a batch's window (20261202200000, 2) tests each subscriber by itself and
-- stops once it has its p_limit matches. Same batches: the first p_limit matches in id order after
-- p_after, as before; the function is otherwise as in 20261202200000.
--
-- The window tested all of the next 2 * p_limit subscribers in one scan. A rule on subscriptions
-- ("subscribed to a list", an EXISTS) was planned for that many rows as a hashed subplan: every
-- subscription of the list read and hashed, for each batch again (EXPLAIN ANALYZE on bench/bulk.ts:
-- 110,000 subscriptions scanned to test 5,561 subscribers; the hash was most of the window's time,
-- and it grows with the list, not with the batch). Each subscriber of the window is now tested in
-- a subquery of its own (by primary key, OFFSET 0 keeps it apart), planned for one row, so such a
-- rule is one index probe per subscriber. And the matches are taken through a LIMIT over the
-- window in id order, so testing stops at the p_limit-th match: where most subscribers match
-- (bench/bulk.ts: 90 %) the window tested some 4,400 subscribers a batch did not take, and the
-- next batch tested them again. Only when the window holds fewer matches is its size (and last id)
-- read, by key alone, to choose between "the table ends here" and the fallback query.

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
  -- The window: the next 2 * p_limit subscribers by id, tested one by one in id order until
  -- p_limit of them match (the LIMIT over the ordered window stops there; see the top).
  execute format('select array(select w.id
                                 from (select s.id from public.subscribers s
                                        where ($2::uuid is null or s.id > $2) order by s.id limit $3) w
                                 cross join lateral (
                                   select coalesce(%s, false) as hit from public.subscribers s
                                    where s.id = w.id offset 0) t
                                where t.hit order by w.id limit $4)', w.clause)
     into ids using w.params, p_after, 2 * p_limit, p_limit;
  if cardinality(ids) = 0 then
    ids := null;
  end if;
  if coalesce(cardinality(ids), 0) < p_limit then
    -- Fewer matches than that: the whole window was tested. Its size and last id, by key only.
    execute 'select count(*)::integer, (array_agg(t.id order by t.id desc))[1]
               from (select s.id from public.subscribers s
                      where ($1::uuid is null or s.id > $1) order by s.id limit $2) t'
       into scanned, window_end using p_after, 2 * p_limit;
  end if;
  if coalesce(cardinality(ids), 0) < p_limit and scanned = 2 * p_limit then
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

