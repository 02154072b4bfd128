-- Three statement triggers the bulk actions fire (issue 23) find the rows they change by key, one
-- index probe per subscriber in the statement, instead of a join that PL/pgSQL may keep planned as
-- a hash join over a whole table. A trigger's query without parameters is planned once per
-- connection, at its first call (see 20261202200000): the plan made for whatever the transition
-- tables held then serves every later statement on that connection. The subscribers' ids are now
-- one array, and `= any (ids)` is an index scan of that many probes whatever the size it was first
-- planned for. Same rows changed, same events, same security (unsubscribe_blocklisted stays security
-- invoker, under the caller's row-level security).

-- Blocklisting (20261127400600): the subscriptions of the subscribers blocklisted now. Was a semi
-- join of every subscription to the set difference: a bulk blocklist's batch read all of them.
-- Nobody blocklisted now (an edit of names or notes), no UPDATE: it changed no row, and its
-- statement triggers on subscriptions did nothing with empty transition tables (but planned their
-- queries for empty tables on that connection, see 20261202200000, 1).
create or replace function private.unsubscribe_blocklisted()
returns trigger
language plpgsql
security invoker
set search_path = ''
as $$
declare
  ids uuid[] := array(select n.id from new_rows n where n.status = 'blocklisted'
                      except
                      select o.id from old_rows o where o.status = 'blocklisted');
begin
  if cardinality(ids) > 0 then
    update public.subscriptions x set status = 'unsubscribed'
     where x.subscriber_id = any (ids) and x.status <> 'unsubscribed';
  end if;
  return null;
end;
$$;

-- Referral codes for those joining a waitlist (20261123110000): the subscribers without one, by key.
create or replace function private.give_waitlist_referral_codes()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  ids uuid[];
begin
  if not exists (select 1 from public.lists l
                  where l.waitlist and l.id in (select n.list_id from new_rows n)) then
    return null;
  end if;
  ids := array(select distinct n.subscriber_id
                 from new_rows n
                 join public.lists l on l.id = n.list_id
                where l.waitlist and n.status in ('pending', 'confirmed'));
  update public.subscribers s set referral_code = private.new_referral_code()
   where s.id = any (ids) and s.referral_code is null;
  return null;
end;
$$;

-- Tags removed (20261201400000): the 'untagged' events, for subscribers that still exist, each
-- looked up by key (OFFSET 0 keeps the lookup a subquery of its own, as the 'removed' events' is in
-- 20261202200000, 3). Was a join to public.subscribers that could stay a hash join over every
-- subscriber for each bulk untag batch (and for a bulk delete's tags, which write nothing). The
-- function is otherwise as in 20261201400000.
create or replace function private.record_tag_changes()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  source text := private.event_source();
  actor jsonb := private.event_actor();
  by_system boolean := source = 'system';
begin
  -- Looked up per row only when a step adding (removing) one of these tags exists at all.
  if by_system and tg_op = 'INSERT' then
    by_system := exists (select 1 from public.automation_steps st
                          where st.kind = 'tag_add' and st.tag_id in (select n.tag_id from new_rows n));
  elsif by_system then
    by_system := exists (select 1 from public.automation_steps st
                          where st.kind = 'tag_remove' and st.tag_id in (select o.tag_id from old_rows o));
  end if;
  if tg_op = 'INSERT' then
    insert into public.events (subscriber_id, type, data)
    with c as materialized (
      select n.subscriber_id, n.tag_id from new_rows n
    ), details as (
      select t.tag_id, jsonb_build_object('tag_id', t.tag_id, 'tag', g.name, 'source', source,
               'actor', actor) as data
        from (select distinct tag_id from c) t
        left join public.tags g on g.id = t.tag_id
    )
    select c.subscriber_id, 'tagged', d.data || coalesce(auto.data, '{}'::jsonb)
      from c
      join details d on d.tag_id = c.tag_id
      left join lateral (
        select jsonb_build_object('source', 'automation',
                 'automation', jsonb_build_object('id', a.id, 'name', a.name)) as data
          from public.automation_enrolments e
          join public.automation_steps st on st.id = e.step_id
          join public.automations a on a.id = e.automation_id
         where by_system and e.subscriber_id = c.subscriber_id and e.state = 'active'
           and st.kind = 'tag_add' and st.tag_id = c.tag_id
         limit 1
      ) auto on true;
  else
    insert into public.events (subscriber_id, type, data)
    with gone as materialized (
      -- Tags that still exist (a deleted tag's cascade writes nothing; see the top), found over
      -- the distinct tags first, so that cascade costs one pass over old_rows.
      select g.id as tag_id, g.name
        from (select distinct o.tag_id from old_rows o) t
        join public.tags g on g.id = t.tag_id
    ), c as materialized (
      select o.subscriber_id, o.tag_id
        from old_rows o
        join gone on gone.tag_id = o.tag_id
        -- A subscriber being deleted is already gone here: no events for them.
        cross join lateral (select from public.subscribers s where s.id = o.subscriber_id offset 0) s
    ), details as (
      select gone.tag_id, jsonb_build_object('tag_id', gone.tag_id, 'tag', gone.name,
               'source', source, 'actor', actor) as data
        from gone
    )
    select c.subscriber_id, 'untagged', d.data || coalesce(auto.data, '{}'::jsonb)
      from c
      join details d on d.tag_id = c.tag_id
      left join lateral (
        select jsonb_build_object('source', 'automation',
                 'automation', jsonb_build_object('id', a.id, 'name', a.name)) as data
          from public.automation_enrolments e
          join public.automation_steps st on st.id = e.step_id
          join public.automations a on a.id = e.automation_id
         where by_system and e.subscriber_id = c.subscriber_id and e.state = 'active'
           and st.kind = 'tag_remove' and st.tag_id = c.tag_id
         limit 1
      ) auto on true;
  end if;
  return null;
end;
$$;
