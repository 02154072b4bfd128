-- The automation engine (issue 24), set-based and exactly-once: enrolment by statement-level
-- triggers (one row per subscriber and automation: the primary key and ON CONFLICT), exits, the
-- non-email steps run in SQL by advance_automations, and email steps claimed by process-queue runs
-- as deliveries are (SKIP LOCKED, a claim token every write checks, stale claims return).
-- Due times read postbox_now(); claims read the real clock.

-- When a step that starts at p_at is due: a wait's end (a duration, or the next weekday+hour in UTC
-- strictly after p_at), else at once.
create function private.step_due(p_kind text, p_seconds integer, p_weekday smallint, p_hour smallint,
  p_at timestamptz)
returns timestamptz
language plpgsql
immutable
set search_path = ''
as $$
declare
  local timestamp := p_at at time zone 'UTC';
  candidate timestamp;
begin
  if p_kind is distinct from 'wait' then
    return p_at;
  end if;
  if p_seconds is not null then
    return p_at + make_interval(secs => p_seconds);
  end if;
  candidate := date_trunc('day', local) + make_interval(hours => p_hour);
  candidate := candidate + make_interval(days => ((p_weekday - extract(dow from candidate)::integer + 7) % 7));
  if candidate <= local then
    candidate := candidate + interval '7 days';
  end if;
  return candidate at time zone 'UTC';
end;
$$;

-- Enrols these (automation, subscriber) pairs at the first step: active automations only, enabled
-- subscribers with a confirmed subscription. An existing row wins (ON CONFLICT), unless it has
-- finished and the automation allows re-entry: then it starts another round.
create function private.enrol(p_automations uuid[], p_subscribers uuid[])
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_now timestamptz := public.postbox_now();
  n integer;
begin
  insert into public.automation_enrolments as e (automation_id, subscriber_id, step_id, due_at)
  select k.aid, k.sid, f.id,
         private.step_due(f.kind, f.wait_seconds, f.wait_weekday, f.wait_hour, v_now)
    from (select distinct u.aid, u.sid from unnest(p_automations, p_subscribers) as u(aid, sid)) k
    join public.automations a on a.id = k.aid and a.status = 'active'
    join public.subscribers s on s.id = k.sid and s.status = 'enabled'
    cross join lateral (
      select st.id, st.kind, st.wait_seconds, st.wait_weekday, st.wait_hour
        from public.automation_steps st where st.automation_id = k.aid
       order by st.position limit 1
    ) f
   where exists (select 1 from public.subscriptions t
                  where t.subscriber_id = k.sid and t.status = 'confirmed')
  on conflict (automation_id, subscriber_id) do update
     set step_id = excluded.step_id, due_at = excluded.due_at, state = 'active',
         round = e.round + 1, exit_reason = null, attempts = 0, claimed_at = null,
         claim_token = null, last_error = null, enrolled_at = now(), finished_at = null,
         updated_at = now()
   where e.state <> 'active'
     and (select a2.re_entry from public.automations a2 where a2.id = e.automation_id);
  get diagnostics n = row_count;
  return n;
end;
$$;

-- Ends the active enrolments of these pairs (p_automations null: every automation of these
-- subscribers) whose subscriber is blocklisted or gone, left the trigger list (when the automation
-- says so), has no confirmed subscription left, or matches the automation's goal.
create function private.exit_enrolments(p_automations uuid[], p_subscribers uuid[])
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  g record;
  w record;
begin
  with keys as (
    select e.automation_id, e.subscriber_id
      from public.automation_enrolments e
     where p_automations is null and e.subscriber_id = any(p_subscribers) and e.state = 'active'
    union all
    select u.aid, u.sid from unnest(p_automations, p_subscribers) as u(aid, sid)
     where p_automations is not null
  ),
  reasons as (
    select e.automation_id, e.subscriber_id,
           case when s.status is distinct from 'enabled' then 'blocklisted'
                when a.trigger_kind = 'list' and a.exit_on_list_unsubscribe and a.trigger_list_id is not null
                     and not exists (select 1 from public.subscriptions t where t.subscriber_id = e.subscriber_id
                                        and t.list_id = a.trigger_list_id and t.status = 'confirmed')
                  then 'unsubscribed'
                when not exists (select 1 from public.subscriptions t
                                  where t.subscriber_id = e.subscriber_id and t.status = 'confirmed')
                  then 'unsubscribed'
           end as reason
      from keys k
      join public.automation_enrolments e on e.automation_id = k.automation_id and e.subscriber_id = k.subscriber_id
      join public.automations a on a.id = e.automation_id
      left join public.subscribers s on s.id = e.subscriber_id
     where e.state = 'active'
  )
  update public.automation_enrolments e
     set state = 'exited', exit_reason = r.reason, finished_at = now(), updated_at = now()
    from reasons r
   where e.automation_id = r.automation_id and e.subscriber_id = r.subscriber_id and r.reason is not null;

  -- Goals: one compiled rule set per automation, its values bound as parameters.
  for g in
    select a.id, a.goal_rules, array_agg(e.subscriber_id) as subscribers
      from public.automation_enrolments e
      join public.automations a on a.id = e.automation_id and a.goal_rules is not null
     where e.state = 'active'
       and ((p_automations is null and e.subscriber_id = any(p_subscribers))
            or (e.automation_id, e.subscriber_id) in
               (select u.aid, u.sid from unnest(p_automations, p_subscribers) as u(aid, sid)))
     group by a.id, a.goal_rules
  loop
    select * into w from private.subscriber_rules_where(g.goal_rules);
    execute format(
      'update public.automation_enrolments e
          set state = ''exited'', exit_reason = ''goal'', finished_at = now(), updated_at = now()
        where e.automation_id = $2 and e.subscriber_id = any($3) and e.state = ''active''
          and exists (select 1 from public.subscribers s where s.id = e.subscriber_id and %s)', w.clause)
      using w.params, g.id, g.subscribers;
  end loop;
end;
$$;

-- Moves these active enrolments past their current step: to the next by position (due as that step
-- says), or completed after the last. Every one of them loses its claim.
create function private.move_on(p_automations uuid[], p_subscribers uuid[], p_now timestamptz)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.automation_enrolments e
     set step_id = case when e.state = 'active' then nx.next_id else e.step_id end,
         due_at = case when e.state = 'active' and nx.next_id is not null
                       then private.step_due(nx.kind, nx.wait_seconds, nx.wait_weekday, nx.wait_hour, p_now)
                       else e.due_at end,
         state = case when e.state = 'active' and nx.next_id is null then 'completed' else e.state end,
         finished_at = case when e.state = 'active' and nx.next_id is null then now() else e.finished_at end,
         attempts = 0, claimed_at = null, claim_token = null, last_error = null, updated_at = now()
    from (
      select k.aid, k.sid, n.id as next_id, n.kind, n.wait_seconds, n.wait_weekday, n.wait_hour
        from unnest(p_automations, p_subscribers) as k(aid, sid)
        join public.automation_enrolments e2 on e2.automation_id = k.aid and e2.subscriber_id = k.sid
        left join public.automation_steps cur on cur.id = e2.step_id
        left join lateral (
          select st.id, st.kind, st.wait_seconds, st.wait_weekday, st.wait_hour
            from public.automation_steps st
           where st.automation_id = k.aid and st.position > cur.position
           order by st.position limit 1
        ) n on true
    ) nx
   where e.automation_id = nx.aid and e.subscriber_id = nx.sid;
end;
$$;

-- Enrolment triggers. Joining a list is a subscription becoming confirmed (at once on single
-- opt-in, at confirmation on double), inserted or updated.
create function private.enrol_on_subscriptions()
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
      select array_agg(a.id), array_agg(n.subscriber_id) into a_ids, s_ids
        from new_rows n
        join public.automations a on a.trigger_list_id = n.list_id and a.status = 'active' and a.trigger_kind = 'list'
        left join old_rows o on o.subscriber_id = n.subscriber_id and o.list_id = n.list_id
       where n.status = 'confirmed' and o.status is distinct from 'confirmed';
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
create trigger subscriptions_enrol_insert after insert on public.subscriptions
  referencing new table as new_rows
  for each statement execute function private.enrol_on_subscriptions();
create trigger subscriptions_enrol_update after update on public.subscriptions
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.enrol_on_subscriptions();
create trigger subscriptions_enrol_delete after delete on public.subscriptions
  referencing old table as old_rows
  for each statement execute function private.enrol_on_subscriptions();

create function private.enrol_on_tags()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  a_ids uuid[];
  s_ids uuid[];
begin
  select array_agg(a.id), array_agg(n.subscriber_id) into a_ids, s_ids
    from new_rows n
    join public.automations a on a.trigger_tag_id = n.tag_id and a.status = 'active' and a.trigger_kind = 'tag';
  if a_ids is not null then
    perform private.enrol(a_ids, s_ids);
  end if;
  return null;
end;
$$;
create trigger subscriber_tags_enrol after insert on public.subscriber_tags
  referencing new table as new_rows
  for each statement execute function private.enrol_on_tags();

-- Enrolling a segment by hand (admins): every subscriber matching the rule set, once.
create function public.enrol_in_automation(p_automation_id uuid, p_rules jsonb)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  w record;
  s_ids uuid[];
begin
  if not private.has_role('admin') and coalesce(auth.role(), '') <> 'service_role' then
    raise exception 'postbox:forbidden' using errcode = 'P0001';
  end if;
  if not exists (select 1 from public.automations where id = p_automation_id and status = 'active') then
    raise exception 'postbox:conflict: Only an active automation can enrol subscribers.' using errcode = 'P0001';
  end if;
  select * into w from private.subscriber_rules_where(p_rules);
  execute format('select array_agg(s.id) from public.subscribers s where %s', w.clause)
    into s_ids using w.params;
  if s_ids is null then
    return 0;
  end if;
  return private.enrol(array_fill(p_automation_id, array[cardinality(s_ids)]), s_ids);
end;
$$;

-- Deleting a step moves the subscribers at it to the next step (those being sent its email lose
-- their claim: the send is not recorded, and nobody gets it again).
create function private.automation_step_deleted()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  a_ids uuid[];
  s_ids uuid[];
begin
  select array_agg(e.automation_id), array_agg(e.subscriber_id) into a_ids, s_ids
    from public.automation_enrolments e where e.step_id = old.id and e.state = 'active';
  if a_ids is not null then
    perform private.move_on(a_ids, s_ids, public.postbox_now());
  end if;
  return old;
end;
$$;
create trigger automation_steps_deleted before delete on public.automation_steps
  for each row execute function private.automation_step_deleted();

revoke execute on function private.step_due(text, integer, smallint, smallint, timestamptz),
  private.enrol(uuid[], uuid[]), private.exit_enrolments(uuid[], uuid[]),
  private.move_on(uuid[], uuid[], timestamptz), private.enrol_on_subscriptions(),
  private.enrol_on_tags(), private.automation_step_deleted() from public;
revoke execute on function public.enrol_in_automation(uuid, jsonb) from public, anon;
grant execute on function public.enrol_in_automation(uuid, jsonb) to authenticated, service_role;
