-- Feedback on automation emails (issue 24: "report per automation and per step: sent, failed,
-- bounced, unsubscribed, opens and clicks when tracked"), as 20261122250000 does it for campaigns.
-- An automation email's open pixel, click links and unsubscribe link name its step (signed in the
-- token), so the events they cause carry events.automation_step_id; a hard bounce whose Message-ID
-- is an automation email's (<auto.step.subscriber.round@domain>) marks that send bounced and names
-- the step on its 'bounced' event. The report views count them per step and sum them per automation;
-- each write announces the automation on team:automations (20261202100000).

-- No foreign key, as events.subscriber_id has none since 20261123020000: a key's check would run
-- for every event an import writes. A deleted step's events keep an id no report joins any more
-- (its sends go with it, automation_sends cascades).
alter table public.events add column automation_step_id uuid;
comment on column public.events.automation_step_id is
  'The automation email step whose email caused this event (opened, clicked, unsubscribed, bounced, complained); null otherwise.';
create index events_automation_step_idx on public.events (automation_step_id, type)
  where automation_step_id is not null;

-- One open or click from the track function for an automation email; as record_tracking_event:
-- written only while the matching switch is on and the subscriber and the step still exist, and an
-- open within 10 seconds of the step's send to the subscriber is a machine open. Parameters:
-- 'opened' | 'clicked', subscriber id, step id, data ({machine} or {url}). Returns whether an
-- event was written.
create function public.record_automation_tracking_event(p_type text, p_subscriber uuid,
  p_step uuid, p_data jsonb)
returns boolean
language plpgsql
set search_path = ''
as $$
declare
  enabled boolean;
  sent timestamptz;
  automation uuid;
  details jsonb := coalesce(p_data, '{}'::jsonb);
begin
  if p_type not in ('opened', 'clicked') then
    raise exception 'postbox:invalid_input: type: must be opened or clicked' using errcode = 'P0001';
  end if;
  select case when p_type = 'opened' then st.track_opens else st.track_clicks end
    into enabled from public.settings st;
  select s.automation_id into automation from public.automation_steps s where s.id = p_step;
  if not coalesce(enabled, false) or automation is null
     or not exists (select 1 from public.subscribers s where s.id = p_subscriber) then
    return false;
  end if;
  if p_type = 'opened' then
    select max(y.sent_at) into sent from public.automation_sends y
     where y.step_id = p_step and y.subscriber_id = p_subscriber;
    details := jsonb_build_object('machine', coalesce((details->>'machine')::boolean, false)
      or coalesce(now() - sent < interval '10 seconds', false));
  end if;
  insert into public.events (subscriber_id, automation_step_id, type, data)
  values (p_subscriber, p_step, p_type, details || jsonb_build_object('automation_id', automation));
  perform private.signal_automation(automation);
  return true;
end;
$$;

-- The unsubscribe function's write when the link came from an automation email: the same as
-- unsubscribe_subscriber, and the 'unsubscribed' events it wrote name the step. Those are this
-- subscriber's events of this transaction (created_at is the transaction's now()), so the
-- subscription triggers stay as they are. Parameters: subscriber id, list ids or null, event
-- source, step id (one deleted since the email went out is not named).
create function public.unsubscribe_with_automation(p_subscriber uuid, p_lists uuid[],
  p_source text, p_step uuid)
returns jsonb
language plpgsql
set search_path = ''
as $$
declare
  result jsonb;
  automation uuid;
begin
  result := public.unsubscribe_subscriber(p_subscriber, p_lists, p_source);
  select s.automation_id into automation from public.automation_steps s where s.id = p_step;
  if automation is not null then
    update public.events e
       set automation_step_id = p_step,
           data = e.data || jsonb_build_object('automation_id', automation)
     where e.subscriber_id = p_subscriber and e.type = 'unsubscribed' and e.created_at = now()
       and e.campaign_id is null and e.automation_step_id is null;
    if found then
      perform private.signal_automation(automation);
    end if;
  end if;
  return result;
end;
$$;

-- As in 20261122250000, plus automation emails: a Message-ID that is no campaign delivery's is
-- looked up in automation_sends by the key it spells (<auto.step.subscriber.round@domain>, checked
-- against the stored one); a hard bounce marks that send bounced, and the 'bounced' or
-- 'complained' event names its step.
create or replace function public.record_email_events(p_events jsonb)
returns jsonb
language plpgsql
set search_path = ''
as $$
declare
  item jsonb;
  who public.subscribers;
  delivery public.deliveries;
  auto_send public.automation_sends;
  auto_key text[];
  receipt_key text;
  receipt_kind text;
  happened timestamptz;
  recorded integer := 0;
  duplicates integer := 0;
  ignored integer := 0;
begin
  if jsonb_typeof(p_events) is distinct from 'array' then
    raise exception 'postbox:invalid_input: body: must be an event or an array of events'
      using errcode = 'P0001';
  end if;
  for item in select value from jsonb_array_elements(p_events) loop
    select * into who from public.subscribers s where s.email = lower(btrim(item->>'email'));
    if who.id is null then
      ignored := ignored + 1;
      continue;
    end if;
    receipt_kind := case when item->>'type' = 'complaint' then 'complained'
      else 'bounced:' || coalesce(item->>'kind', 'hard') end;
    receipt_key := coalesce(item->>'message_id',
      case when item->>'occurred_at' is not null then who.email || ' ' || (item->>'occurred_at') end);
    if receipt_key is not null then
      insert into private.email_event_receipts (key, kind) values (receipt_key, receipt_kind)
      on conflict do nothing;
      if not found then
        duplicates := duplicates + 1;
        continue;
      end if;
    end if;
    delivery := null;
    auto_send := null;
    if item->>'message_id' is not null then
      select * into delivery from public.deliveries d
       where d.message_id = item->>'message_id' and d.subscriber_id = who.id;
      if delivery.campaign_id is null then
        auto_key := regexp_match(item->>'message_id',
          '^<auto\.([0-9a-f-]{36})\.([0-9a-f-]{36})\.([0-9]{1,9})@');
        if auto_key is not null and auto_key[2]::uuid = who.id then
          select * into auto_send from public.automation_sends y
           where y.step_id = auto_key[1]::uuid and y.subscriber_id = who.id
             and y.round = auto_key[3]::integer and y.message_id = item->>'message_id';
        end if;
      end if;
    end if;
    happened := least(coalesce((item->>'occurred_at')::timestamptz, now()), now());
    if receipt_kind <> 'bounced:soft' then
      perform set_config('postbox.source', case when item->>'type' = 'complaint'
        then 'complaint' else 'bounce' end, true);
      update public.subscribers s set status = 'blocklisted'
       where s.id = who.id and s.status <> 'blocklisted';
    end if;
    if receipt_kind = 'bounced:hard' and delivery.status = 'sent' then
      update public.deliveries d set status = 'bounced', last_error = left(item->>'reason', 1000)
       where d.campaign_id = delivery.campaign_id and d.subscriber_id = delivery.subscriber_id;
    end if;
    if receipt_kind = 'bounced:hard' and auto_send.status = 'sent' then
      update public.automation_sends y set status = 'bounced', last_error = left(item->>'reason', 1000)
       where y.step_id = auto_send.step_id and y.subscriber_id = auto_send.subscriber_id
         and y.round = auto_send.round;
    end if;
    if item->>'type' = 'complaint' then
      insert into public.events (subscriber_id, campaign_id, automation_step_id, type, data, created_at)
      values (who.id, delivery.campaign_id, auto_send.step_id, 'complained',
        jsonb_strip_nulls(jsonb_build_object('message_id', item->>'message_id',
          'reason', item->>'reason', 'automation_id', auto_send.automation_id)), happened);
    else
      insert into public.events (subscriber_id, campaign_id, automation_step_id, type, data, created_at)
      values (who.id, delivery.campaign_id, auto_send.step_id, 'bounced',
        jsonb_build_object('kind', coalesce(item->>'kind', 'hard'), 'reason', item->>'reason')
          || jsonb_strip_nulls(jsonb_build_object('message_id', item->>'message_id',
               'automation_id', auto_send.automation_id)), happened);
    end if;
    perform private.signal_automation(auto_send.automation_id);
    recorded := recorded + 1;
  end loop;
  return jsonb_build_object('received', jsonb_array_length(p_events), 'recorded', recorded,
    'duplicates', duplicates, 'ignored', ignored);
end;
$$;

revoke execute on function public.record_automation_tracking_event(text, uuid, uuid, jsonb),
  public.unsubscribe_with_automation(uuid, uuid[], text, uuid)
  from public, anon, authenticated;
grant execute on function public.record_automation_tracking_event(text, uuid, uuid, jsonb),
  public.unsubscribe_with_automation(uuid, uuid[], text, uuid)
  to service_role;

-- The per-step report, under the reader's RLS (members read steps, sends and events), with the
-- columns of 20261128200200 first and then the feedback:
--   bounced       subscribers whose email of this step bounced (the send marked bounced or a
--                 'bounced' event naming the step; the webhook writes both, either alone counts)
--   unsubscribed  subscribers who unsubscribed through a link in this step's email
--   unique_opens  subscribers who opened it (machine opens left out, as the campaign report does)
--   unique_clicks subscribers who clicked a link in it
--   opens, clicks every open by a person and every click
-- Unique readers are the headline numbers (what Buttondown and Kit show); a reader who got the
-- step twice (re-entry) counts once. Each count is one index range (events_automation_step_idx,
-- automation_sends' key or automation_enrolments_step_idx).
create or replace view public.automation_step_report with (security_invoker = true) as
select st.id as step_id, st.automation_id,
       (select count(*) from public.automation_enrolments x
         where x.step_id = st.id and x.state = 'active')::integer as active,
       (select count(*) from public.automation_enrolments x
         where x.step_id = st.id and x.state = 'exited')::integer as exited,
       (select count(*) from public.automation_sends y
         where y.step_id = st.id and y.status in ('sent', 'bounced'))::integer as sent,
       (select count(*) from public.automation_sends y
         where y.step_id = st.id and y.status = 'failed')::integer as failed,
       (select count(*) from (
          select y.subscriber_id from public.automation_sends y
           where y.step_id = st.id and y.status = 'bounced'
          union
          select ev.subscriber_id from public.events ev
           where ev.automation_step_id = st.id and ev.type = 'bounced' and ev.subscriber_id is not null
        ) b)::integer as bounced,
       f.unsubscribed, f.unique_opens, f.unique_clicks, f.opens, f.clicks
  from public.automation_steps st
  cross join lateral (
    select count(distinct ev.subscriber_id) filter (where ev.type = 'unsubscribed')::integer as unsubscribed,
           count(distinct ev.subscriber_id) filter (
             where ev.type = 'opened' and not coalesce(ev.data ->> 'machine' = 'true', false))::integer as unique_opens,
           count(distinct ev.subscriber_id) filter (where ev.type = 'clicked')::integer as unique_clicks,
           count(*) filter (
             where ev.type = 'opened' and not coalesce(ev.data ->> 'machine' = 'true', false))::integer as opens,
           count(*) filter (where ev.type = 'clicked')::integer as clicks
      from public.events ev
     where ev.automation_step_id = st.id and ev.type in ('unsubscribed', 'opened', 'clicked')
  ) f;

-- Per automation: its enrolments by state (as before) and the sums of its steps' numbers (a reader
-- who opened two of its emails counts in both steps, so twice here).
create or replace view public.automation_report with (security_invoker = true) as
select a.id as automation_id,
       coalesce(e.active, 0)::integer as active, coalesce(e.completed, 0)::integer as completed,
       coalesce(e.exited, 0)::integer as exited, coalesce(s.sent, 0)::integer as sent,
       coalesce(s.failed, 0)::integer as failed, coalesce(s.bounced, 0)::integer as bounced,
       coalesce(s.unsubscribed, 0)::integer as unsubscribed,
       coalesce(s.unique_opens, 0)::integer as unique_opens,
       coalesce(s.unique_clicks, 0)::integer as unique_clicks,
       coalesce(s.opens, 0)::integer as opens, coalesce(s.clicks, 0)::integer as clicks
  from public.automations a
  left join lateral (
    select count(*) filter (where x.state = 'active') as active,
           count(*) filter (where x.state = 'completed') as completed,
           count(*) filter (where x.state = 'exited') as exited
      from public.automation_enrolments x where x.automation_id = a.id
  ) e on true
  left join lateral (
    select sum(r.sent) as sent, sum(r.failed) as failed, sum(r.bounced) as bounced,
           sum(r.unsubscribed) as unsubscribed, sum(r.unique_opens) as unique_opens,
           sum(r.unique_clicks) as unique_clicks, sum(r.opens) as opens, sum(r.clicks) as clicks
      from public.automation_step_report r where r.automation_id = a.id
  ) s on true;

grant select on public.automation_report, public.automation_step_report to authenticated, service_role;
