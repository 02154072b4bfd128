-- The automation queue (issue 24) as process-queue runs it: advance_automations does every due step
-- that is not an email, set-based; claim_automation_batch claims due email steps (SKIP LOCKED, stale
-- claims back first), record_automation_sends writes results only for rows the caller's claim still
-- holds, and release_automation_claims gives back what a run did not send. Service role only.

create function public.advance_automations(p_limit integer default 1000)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_now timestamptz := public.postbox_now();
  a_ids uuid[];
  s_ids uuid[];
  c record;
  w record;
  total integer := 0;
begin
  -- A step may lead to another due at once (tag, then list, ...): a few rounds per call.
  for i in 1..20 loop
    select coalesce(array_agg(d.automation_id), '{}'), coalesce(array_agg(d.subscriber_id), '{}')
      into a_ids, s_ids
      from (
        select e.automation_id, e.subscriber_id
          from public.automation_enrolments e
          join public.automations a on a.id = e.automation_id and a.status = 'active'
          left join public.automation_steps st on st.id = e.step_id
         where e.state = 'active' and e.claim_token is null and e.due_at <= v_now
           and st.kind is distinct from 'email'
         order by e.due_at
         limit p_limit
           for update of e skip locked
      ) d;
    exit when cardinality(a_ids) = 0;
    total := total + cardinality(a_ids);
    perform private.exit_enrolments(a_ids, s_ids);

    -- Continue only if in the rule set: the others exit here.
    for c in
      select st.id, st.rules, array_agg(e.subscriber_id) as subscribers
        from unnest(a_ids, s_ids) as k(aid, sid)
        join public.automation_enrolments e on e.automation_id = k.aid and e.subscriber_id = k.sid
        join public.automation_steps st on st.id = e.step_id and st.kind = 'condition'
       where e.state = 'active'
       group by st.id, st.rules
    loop
      select * into w from private.subscriber_rules_where(c.rules);
      execute format(
        'update public.automation_enrolments e
            set state = ''exited'', exit_reason = ''condition'', finished_at = now(), updated_at = now()
          where e.step_id = $2 and e.subscriber_id = any($3) and e.state = ''active''
            and not exists (select 1 from public.subscribers s where s.id = e.subscriber_id and %s)',
        w.clause)
        using w.params, c.id, c.subscribers;
    end loop;

    insert into public.subscriber_tags (subscriber_id, tag_id)
    select e.subscriber_id, st.tag_id
      from unnest(a_ids, s_ids) as k(aid, sid)
      join public.automation_enrolments e on e.automation_id = k.aid and e.subscriber_id = k.sid
      join public.automation_steps st on st.id = e.step_id and st.kind = 'tag_add' and st.tag_id is not null
     where e.state = 'active'
    on conflict do nothing;

    delete from public.subscriber_tags t
     using unnest(a_ids, s_ids) as k(aid, sid)
      join public.automation_enrolments e on e.automation_id = k.aid and e.subscriber_id = k.sid
      join public.automation_steps st on st.id = e.step_id and st.kind = 'tag_remove'
     where e.state = 'active' and t.subscriber_id = e.subscriber_id and t.tag_id = st.tag_id;

    -- Added to a list as confirmed; someone who unsubscribed from it stays unsubscribed.
    insert into public.subscriptions (subscriber_id, list_id, status)
    select e.subscriber_id, st.list_id, 'confirmed'
      from unnest(a_ids, s_ids) as k(aid, sid)
      join public.automation_enrolments e on e.automation_id = k.aid and e.subscriber_id = k.sid
      join public.automation_steps st on st.id = e.step_id and st.kind = 'list_add' and st.list_id is not null
      join public.subscribers s on s.id = e.subscriber_id and s.status = 'enabled'
     where e.state = 'active'
    on conflict do nothing;

    update public.subscriptions t
       set status = 'unsubscribed'
      from unnest(a_ids, s_ids) as k(aid, sid)
      join public.automation_enrolments e on e.automation_id = k.aid and e.subscriber_id = k.sid
      join public.automation_steps st on st.id = e.step_id and st.kind = 'list_remove'
     where t.subscriber_id = e.subscriber_id and t.list_id = st.list_id and t.status <> 'unsubscribed';

    perform private.move_on(a_ids, s_ids, v_now);
  end loop;
  return total;
end;
$$;
comment on function public.advance_automations(integer) is 'Runs due non-email steps (waits passed, conditions, tags, lists) and exits; answers how many rows it moved.';

create function public.claim_automation_batch(p_limit integer, p_claim_timeout interval, p_claim_token uuid)
returns table (automation_id uuid, subscriber_id uuid, step_id uuid, round integer, attempts integer)
language plpgsql
security definer
set search_path = ''
as $$
declare
  a_ids uuid[];
  s_ids uuid[];
begin
  update public.automation_enrolments e
     set claimed_at = null, claim_token = null, attempts = greatest(e.attempts - 1, 0)
   where e.claim_token is not null and e.claimed_at < now() - p_claim_timeout;
  select coalesce(array_agg(d.automation_id), '{}'), coalesce(array_agg(d.subscriber_id), '{}')
    into a_ids, s_ids
    from (
      select e.automation_id, e.subscriber_id
        from public.automation_enrolments e
        join public.automations a on a.id = e.automation_id and a.status = 'active'
        join public.automation_steps st on st.id = e.step_id and st.kind = 'email'
       where e.state = 'active' and e.claim_token is null and e.due_at <= public.postbox_now()
       order by e.due_at
       limit p_limit
         for update of e skip locked
    ) d;
  if cardinality(a_ids) = 0 then
    return;
  end if;
  perform private.exit_enrolments(a_ids, s_ids);
  return query
  update public.automation_enrolments e
     set claimed_at = now(), claim_token = p_claim_token, attempts = e.attempts + 1, updated_at = now()
    from unnest(a_ids, s_ids) as k(aid, sid)
   where e.automation_id = k.aid and e.subscriber_id = k.sid and e.state = 'active'
  returning e.automation_id, e.subscriber_id, e.step_id, e.round, e.attempts;
end;
$$;

-- Results: [{automation_id, subscriber_id, claim_token, outcome: sent|deferred|failed|skipped,
-- message_id, error, sent_at}]. Only rows the claim still holds are written; answers
-- {"<automation>/<subscriber>": outcome as recorded}. A sent or failed email is one automation_sends
-- row and moves the subscriber on; deferred waits 1 then 5 minutes (the last attempt fails);
-- skipped (the recipient may no longer be mailed) ends the enrolment.
create function public.record_automation_sends(p_results jsonb, p_max_attempts integer default 3)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_now timestamptz := public.postbox_now();
  held jsonb;
  moved_a uuid[];
  moved_s uuid[];
begin
  if jsonb_typeof(p_results) is distinct from 'array' then
    raise exception 'postbox:invalid_input: results: must be an array' using errcode = 'P0001';
  end if;
  select coalesce(jsonb_agg(to_jsonb(h)), '[]'::jsonb) into held
    from (
      select e.automation_id, e.subscriber_id, e.step_id, e.round, e.attempts, r.message_id, r.error,
             least(coalesce(r.sent_at, now()), clock_timestamp()) as sent_at,
             case when r.outcome = 'deferred' and e.attempts >= p_max_attempts then 'failed'
                  else r.outcome end as outcome
        from (select distinct on (x.automation_id, x.subscriber_id) x.*
                from jsonb_to_recordset(p_results) as x(automation_id uuid, subscriber_id uuid,
                     claim_token uuid, outcome text, message_id text, error text, sent_at timestamptz)
               order by x.automation_id, x.subscriber_id) r
        join public.automation_enrolments e
          on e.automation_id = r.automation_id and e.subscriber_id = r.subscriber_id
       where e.claim_token = r.claim_token and e.step_id is not null
         and r.outcome in ('sent', 'deferred', 'failed', 'skipped')
       order by e.automation_id, e.subscriber_id
         for update of e
    ) h;

  insert into public.automation_sends (automation_id, step_id, subscriber_id, round, status, attempts,
                                       message_id, last_error, sent_at)
  select h.automation_id, h.step_id, h.subscriber_id, h.round, h.outcome, h.attempts,
         case when h.outcome = 'sent' then h.message_id end,
         case when h.outcome = 'failed' then left(h.error, 1000) end,
         case when h.outcome = 'sent' then h.sent_at end
    from jsonb_to_recordset(held) as h(automation_id uuid, step_id uuid, subscriber_id uuid,
         round integer, attempts integer, outcome text, message_id text, error text, sent_at timestamptz)
   where h.outcome in ('sent', 'failed')
  on conflict do nothing;

  update public.automation_enrolments e
     set claimed_at = null, claim_token = null, last_error = left(h.error, 1000), updated_at = now(),
         due_at = v_now + case when h.attempts <= 1 then interval '1 minute' else interval '5 minutes' end
    from jsonb_to_recordset(held) as h(automation_id uuid, subscriber_id uuid, outcome text, error text, attempts integer)
   where h.outcome = 'deferred' and e.automation_id = h.automation_id and e.subscriber_id = h.subscriber_id;

  update public.automation_enrolments e
     set state = case when e.state = 'active' then 'exited' else e.state end,
         exit_reason = case when e.state = 'active' then 'unsubscribed' else e.exit_reason end,
         finished_at = coalesce(e.finished_at, now()), claimed_at = null, claim_token = null,
         last_error = left(h.error, 1000), updated_at = now()
    from jsonb_to_recordset(held) as h(automation_id uuid, subscriber_id uuid, outcome text, error text)
   where h.outcome = 'skipped' and e.automation_id = h.automation_id and e.subscriber_id = h.subscriber_id;

  select array_agg(h.automation_id), array_agg(h.subscriber_id) into moved_a, moved_s
    from jsonb_to_recordset(held) as h(automation_id uuid, subscriber_id uuid, outcome text)
   where h.outcome in ('sent', 'failed');
  if moved_a is not null then
    perform private.move_on(moved_a, moved_s, v_now);
  end if;
  return (select coalesce(jsonb_object_agg(h.automation_id || '/' || h.subscriber_id, h.outcome), '{}'::jsonb)
            from jsonb_to_recordset(held) as h(automation_id uuid, subscriber_id uuid, outcome text));
end;
$$;

create function public.release_automation_claims(p_claim_token uuid)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  released integer;
begin
  update public.automation_enrolments e
     set claimed_at = null, claim_token = null, attempts = greatest(e.attempts - 1, 0)
   where e.claim_token = p_claim_token;
  get diagnostics released = row_count;
  return released;
end;
$$;

do $$
declare
  f text;
begin
  foreach f in array array[
    'public.advance_automations(integer)',
    'public.claim_automation_batch(integer, interval, uuid)',
    'public.record_automation_sends(jsonb, integer)',
    'public.release_automation_claims(uuid)'
  ] loop
    execute format('revoke execute on function %s from public, anon, authenticated', f);
    execute format('grant execute on function %s to service_role', f);
  end loop;
end;
$$;

-- Reports under the reader's RLS: per automation and per step.
create view public.automation_report with (security_invoker = true) as
select a.id as automation_id,
       coalesce(e.active, 0)::integer as active, coalesce(e.completed, 0)::integer as completed,
       coalesce(e.exited, 0)::integer as exited, coalesce(s.sent, 0)::integer as sent,
       coalesce(s.failed, 0)::integer as failed
  from public.automations a
  left join lateral (
    select count(*) filter (where x.state = 'active') as active,
           count(*) filter (where x.state = 'completed') as completed,
           count(*) filter (where x.state = 'exited') as exited
      from public.automation_enrolments x where x.automation_id = a.id
  ) e on true
  left join lateral (
    select count(*) filter (where y.status in ('sent', 'bounced')) as sent,
           count(*) filter (where y.status = 'failed') as failed
      from public.automation_sends y where y.automation_id = a.id
  ) s on true;

create view public.automation_step_report with (security_invoker = true) as
select st.id as step_id, st.automation_id,
       (select count(*) from public.automation_enrolments x
         where x.step_id = st.id and x.state = 'active')::integer as active,
       (select count(*) from public.automation_enrolments x
         where x.step_id = st.id and x.state = 'exited')::integer as exited,
       (select count(*) from public.automation_sends y
         where y.step_id = st.id and y.status in ('sent', 'bounced'))::integer as sent,
       (select count(*) from public.automation_sends y
         where y.step_id = st.id and y.status = 'failed')::integer as failed
  from public.automation_steps st;

grant select on public.automation_report, public.automation_step_report to authenticated, service_role;
