-- The statement triggers of 20261127400000, without joining one transition table to the other row
-- by row. Transition tables carry no statistics, and for a bulk blocklist of 10,000 subscribers
-- (bench/bulk.ts) the planner joined old_rows to new_rows in a nested loop: 100,000,000 row pairs,
-- minutes for one batch. The blocklisted ids are now a set difference (hashed), and the history's
-- old → new pairs are matched through a hash join the planner is asked for explicitly.

create or replace function private.unsubscribe_blocklisted()
returns trigger
language plpgsql
security invoker
set search_path = ''
as $$
begin
  update public.subscriptions x set status = 'unsubscribed'
   where x.subscriber_id in (select n.id from new_rows n where n.status = 'blocklisted'
                             except
                             select o.id from old_rows o where o.status = 'blocklisted')
     and x.status <> 'unsubscribed';
  return null;
end;
$$;

-- Same events as before (one 'updated' per subscriber whose own data changed, old → new per field).
create or replace function private.record_subscriber_updates()
returns trigger
language plpgsql
security definer
set search_path = ''
set enable_nestloop = off
as $$
declare
  source text := private.event_source();
  actor jsonb := private.event_actor();
begin
  insert into public.events (subscriber_id, type, data)
  select c.id, 'updated',
         jsonb_build_object('source', source, 'actor', actor, 'changes', c.changes)
    from (select n.id,
                 jsonb_strip_nulls(jsonb_build_object(
                   'email', case when n.email is distinct from o.email
                            then jsonb_build_object('from', o.email, 'to', n.email) end,
                   'name', case when n.name is distinct from o.name
                           then jsonb_build_object('from', o.name, 'to', n.name) end,
                   'attributes', case when n.attributes is distinct from o.attributes
                                 then jsonb_build_object('from', o.attributes, 'to', n.attributes) end,
                   'notes', case when n.notes is distinct from o.notes
                            then jsonb_build_object('from', o.notes, 'to', n.notes) end,
                   'status', case when n.status is distinct from o.status
                             then jsonb_build_object('from', o.status, 'to', n.status) end
                 )) as changes
            from new_rows n join old_rows o on o.id = n.id) c
   where c.changes <> '{}'::jsonb;
  return null;
end;
$$;

-- A batch of a bulk action on a busy server can take longer than the API's 8 s statement timeout
-- of signed-in callers; like the import's batch functions, it carries its own (PostgREST applies
-- a function's statement_timeout to the request's transaction).
alter function public.bulk_update_subscribers(text, jsonb, uuid, text, uuid, integer)
  set statement_timeout = '60s';
