-- Bulk actions on the subscribers matching a rule set (issue 23): the selected rows (a rule
-- {"field": "id", "op": "in", …}) or every match of the page's filter. Set-based, in batches
-- walked by id, so the page can show progress and no statement outlives a request's timeout:
-- each call takes the next p_limit matches after p_after and changes them in one statement.
--
-- Security invoker: the caller's row-level security applies to every write (admins change
-- subscribers and subscriptions, only the owner deletes, SPEC §6); the role is also checked up
-- front so a viewer is told "forbidden" instead of changing nothing. The events SPEC §4 asks for
-- are written by the tables' statement triggers: subscription status changes
-- (subscriptions_changed_*), 'removed' (20261127400000), 'updated' for a blocklist, 'deleted'.
--
-- p_action: add (to p_list, as p_status 'confirmed' or 'pending'; blocklisted subscribers and
-- existing subscriptions are left alone), remove (from p_list), confirm (pending subscriptions, on
-- p_list or every list), unsubscribe (on p_list or every list), blocklist, delete.
-- Answers {processed: matches taken in this batch, changed: subscribers changed, last_id, done}.
create function public.bulk_update_subscribers(p_action text, p_rules jsonb default null,
  p_list uuid default null, p_status text default 'confirmed', p_after uuid default null,
  p_limit integer default 10000)
returns jsonb
language plpgsql
volatile
security invoker
set search_path = ''
as $$
declare
  w record;
  ids uuid[];
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
  execute format('select array_agg(b.id order by b.id) from (select s.id from public.subscribers s
                   where %s and ($2::uuid is null or s.id > $2) order by s.id limit $3) b', w.clause)
     into ids using w.params, p_after, p_limit;
  if ids is null then
    return jsonb_build_object('processed', 0, 'changed', 0, 'last_id', p_after, 'done', true);
  end if;

  if p_action = 'add' then
    with added as (
      insert into public.subscriptions (subscriber_id, list_id, status)
      select s.id, p_list, p_status from public.subscribers s
       where s.id = any (ids) and s.status = 'enabled'
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
comment on function public.bulk_update_subscribers(text, jsonb, uuid, text, uuid, integer) is
  'One batch of a bulk action over the subscribers matching a rule set, after p_after by id; under the caller''s RLS.';

revoke execute on function public.bulk_update_subscribers(text, jsonb, uuid, text, uuid, integer)
  from public, anon;
grant execute on function public.bulk_update_subscribers(text, jsonb, uuid, text, uuid, integer)
  to authenticated, service_role;
