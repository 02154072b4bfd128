-- Tags in the subscriber's history (issue 24): every tag added to or removed from a subscriber, by
-- any path (the subscriber page and the bulk bar through tag_subscribers, an import's `tags`
-- column, an automation's tag step, Let in), is an event, written once per statement from the
-- transition tables like the 'updated' and 'removed' events of 20261127400000: a bulk tag of
-- 100,000 subscribers is one INSERT … SELECT per batch, never a statement per subscriber.
--
-- New event types:
--   tagged    {tag_id, tag, source, actor}   a tag added (rows ON CONFLICT DO NOTHING skipped,
--                                            already there, are not in new_rows)
--   untagged  {tag_id, tag, source, actor}   a tag removed
-- `tag` is the name when it happened; the admin shows the tag's current name by tag_id while the
-- tag exists. An automation's step adds {"source": "automation", "automation": {id, name}}.
--
-- Deleting a tag writes no events: its subscriber_tags rows go by the foreign key's cascade, after
-- the tag row, and an event is written only for a tag that still exists. Writing one per holder
-- would make deleting a tag of an import of 1,000,000 rows one statement writing 1,000,000 events,
-- past the API's statement timeout (the tag could never be deleted); the histories keep when the
-- tag was added, and the admin marks a tag since deleted. To record the removal in each history,
-- remove the tag in bulk first (batched, as every bulk action), then delete it. Deleting a
-- subscriber writes no tag events either (their history goes with them).

alter table public.events drop constraint events_type_check;
alter table public.events add constraint events_type_check check (type in ('subscribed',
  'confirmed', 'unsubscribed', 'resubscribed', 'bounced', 'complained', 'opened', 'clicked',
  'imported', 'exported', 'deleted', 'updated', 'removed', 'tagged', 'untagged'));
comment on column public.events.data is 'Details of the event, e.g. {"list_id", "list", "from", "to", "source"} for subscription changes, {"changes": {field: {from, to}}, "actor", "source"} for edits, {"tag_id", "tag", "source", "actor"} for tags.';

-- One 'tagged' (insert) or 'untagged' (delete) event per subscriber_tags row of the statement. The
-- details are built once per tag. The engine's tag steps run as the service role (advance_automations,
-- no postbox.source, so event_source() says 'system'); such a change is credited to the automation
-- whose active enrolment of that subscriber stands at a step adding (removing) that tag, which is
-- exactly the step advance_automations is running. Security definer: members cannot write events.
create function private.record_tag_changes()
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
        join public.subscribers s on s.id = o.subscriber_id
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
create trigger subscriber_tags_record_added after insert on public.subscriber_tags
  referencing new table as new_rows
  for each statement execute function private.record_tag_changes();
create trigger subscriber_tags_record_removed after delete on public.subscriber_tags
  referencing old table as old_rows
  for each statement execute function private.record_tag_changes();

revoke execute on function private.record_tag_changes() from public;
