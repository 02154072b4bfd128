-- The automations' live feed (issue 24: the report "live through Realtime on private channels"):
-- the private topic `team:automations`, event 'changed', payload {op, ids} naming the automations
-- a statement changed (up to 100, else null = any), as team:campaigns does (20261127100000). Members
-- may receive it; the messages name no subscriber; the pages read the report again (debounced).
--
-- What announces a change: automations (insert, update, delete); their steps (any change); the
-- enrolments entering, leaving, or moving to another step or state (a claim, a heartbeat or a
-- retry's due time is no news, so updates compare the old and new rows); sends recorded or marked
-- bounced; and the feedback functions of 20261202100100 (an open, a click, an unsubscribe or a
-- bounce from an automation email), which call private.signal_automation rather than put a
-- trigger on events.

-- Statement trigger: tg_argv[0] the topic, tg_argv[1] the event; the automations named by the
-- changed rows' automation_id (transition table `changed_rows`).
create function private.signal_automation_rows()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  ids jsonb;
  n integer;
begin
  select pg_catalog.jsonb_agg(r.automation_id), count(*) into ids, n
    from (select distinct c.automation_id from changed_rows c limit 101) r;
  if n > 0 then
    perform private.signal(tg_argv[0], tg_argv[1], pg_catalog.jsonb_build_object(
      'op', pg_catalog.lower(tg_op), 'ids', case when n > 100 then null else ids end), true);
  end if;
  return null;
end;
$$;

-- Enrolment updates: only rows whose state or step changed (transition tables old_rows, new_rows).
create function private.signal_enrolment_moves()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  ids jsonb;
  n integer;
begin
  select pg_catalog.jsonb_agg(r.automation_id), count(*) into ids, n
    from (select distinct o.automation_id
            from old_rows o
            join new_rows w on w.automation_id = o.automation_id and w.subscriber_id = o.subscriber_id
           where w.state is distinct from o.state or w.step_id is distinct from o.step_id
           limit 101) r;
  if n > 0 then
    perform private.signal('team:automations', 'changed', pg_catalog.jsonb_build_object(
      'op', 'update', 'ids', case when n > 100 then null else ids end), true);
  end if;
  return null;
end;
$$;

-- For the feedback functions: announces that one automation's report changed.
create function private.signal_automation(p_automation uuid)
returns void
language sql
security definer
set search_path = ''
as $$
  select private.signal('team:automations', 'changed', pg_catalog.jsonb_build_object(
    'op', 'update', 'ids', pg_catalog.jsonb_build_array(p_automation)), true)
   where p_automation is not null
$$;

revoke execute on function private.signal_automation_rows(), private.signal_enrolment_moves(),
  private.signal_automation(uuid) from public;
-- The feedback functions run as the service role (security invoker), so it calls this one itself.
grant execute on function private.signal_automation(uuid) to service_role;

create trigger automations_signal_insert after insert on public.automations
  referencing new table as changed_rows
  for each statement execute function private.signal_team_ids('team:automations', 'changed');
create trigger automations_signal_update after update on public.automations
  referencing new table as changed_rows
  for each statement execute function private.signal_team_ids('team:automations', 'changed');
create trigger automations_signal_delete after delete on public.automations
  referencing old table as changed_rows
  for each statement execute function private.signal_team_ids('team:automations', 'changed');

create trigger automation_steps_signal_insert after insert on public.automation_steps
  referencing new table as changed_rows
  for each statement execute function private.signal_automation_rows('team:automations', 'changed');
create trigger automation_steps_signal_update after update on public.automation_steps
  referencing new table as changed_rows
  for each statement execute function private.signal_automation_rows('team:automations', 'changed');
create trigger automation_steps_signal_delete after delete on public.automation_steps
  referencing old table as changed_rows
  for each statement execute function private.signal_automation_rows('team:automations', 'changed');

create trigger automation_enrolments_signal_insert after insert on public.automation_enrolments
  referencing new table as changed_rows
  for each statement execute function private.signal_automation_rows('team:automations', 'changed');
create trigger automation_enrolments_signal_update after update on public.automation_enrolments
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.signal_enrolment_moves();
create trigger automation_enrolments_signal_delete after delete on public.automation_enrolments
  referencing old table as changed_rows
  for each statement execute function private.signal_automation_rows('team:automations', 'changed');

create trigger automation_sends_signal_insert after insert on public.automation_sends
  referencing new table as changed_rows
  for each statement execute function private.signal_automation_rows('team:automations', 'changed');
create trigger automation_sends_signal_update after update on public.automation_sends
  referencing new table as changed_rows
  for each statement execute function private.signal_automation_rows('team:automations', 'changed');

create policy "Members receive the automations' live feed" on realtime.messages
  for select to authenticated
  using (
    extension = 'broadcast'
    and (select realtime.topic()) = 'team:automations'
    and (select private.has_role('viewer'))
  );
