-- Campaign feedback (SPEC §3, §4, issue 5): bounces and complaints from the provider's webhook
-- (email-events), opens and clicks from the tracking links (track), and unsubscribes attributed to
-- the campaign whose email carried the link. Each write is one service-role SQL function.

-- The campaign a transaction acts for: functions set `postbox.campaign_id` (like `postbox.source`)
-- so the subscription trigger can attribute its events. Empty or absent = none.
create function private.event_campaign()
returns uuid
language plpgsql
stable
set search_path = ''
as $$
declare
  value text := nullif(current_setting('postbox.campaign_id', true), '');
begin
  return value::uuid;
exception when invalid_text_representation then
  return null;
end;
$$;

-- As in 20261122100600_events.sql, plus events.campaign_id from private.event_campaign().
create or replace function private.record_subscription_event()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  old_status text := case when tg_op = 'UPDATE' then old.status end;
  details jsonb;
  campaign uuid := private.event_campaign();
begin
  if old_status is not distinct from new.status then
    return null;
  end if;
  details := jsonb_build_object('list_id', new.list_id,
    'list', (select l.slug from public.lists l where l.id = new.list_id),
    'from', old_status, 'to', new.status, 'source', private.event_source());
  if old_status is null then
    insert into public.events (subscriber_id, campaign_id, type, data)
    values (new.subscriber_id, campaign, 'subscribed', details);
    if new.status = 'confirmed' then
      insert into public.events (subscriber_id, campaign_id, type, data)
      values (new.subscriber_id, campaign, 'confirmed', details);
    end if;
  elsif new.status = 'unsubscribed' then
    insert into public.events (subscriber_id, campaign_id, type, data)
    values (new.subscriber_id, campaign, 'unsubscribed', details);
  elsif old_status = 'unsubscribed' then
    insert into public.events (subscriber_id, campaign_id, type, data)
    values (new.subscriber_id, campaign, 'resubscribed', details);
  elsif new.status = 'confirmed' then
    insert into public.events (subscriber_id, campaign_id, type, data)
    values (new.subscriber_id, campaign, 'confirmed', details);
  end if;
  return null;
end;
$$;

-- The unsubscribe function's write when the link came from a campaign email: the same as
-- unsubscribe_subscriber, with the campaign named on the 'unsubscribed' events. p_campaign null =
-- not from a campaign. Parameters: subscriber id, list ids or null, event source, campaign id.
create function public.unsubscribe_with_campaign(p_subscriber uuid, p_lists uuid[], p_source text,
  p_campaign uuid)
returns jsonb
language plpgsql
set search_path = ''
as $$
declare
  result jsonb;
begin
  -- A campaign deleted since the mail went out is no longer named (events.campaign_id is a key).
  perform set_config('postbox.campaign_id', coalesce(
    (select c.id::text from public.campaigns c where c.id = p_campaign), ''), true);
  result := public.unsubscribe_subscriber(p_subscriber, p_lists, p_source);
  perform set_config('postbox.campaign_id', '', true);
  return result;
end;
$$;

-- Which webhook events were already applied, so a provider's retry records nothing twice.
-- key: the Message-ID (or, without one, address and time); kind: bounced:hard, bounced:soft,
-- complained.
create table private.email_event_receipts (
  key text not null,
  kind text not null,
  received_at timestamptz not null default now(),
  primary key (key, kind)
);

-- Applies a batch of provider events, already validated by email-events:
-- [{type: 'bounce'|'complaint', email, kind: 'hard'|'soft'|null, message_id, reason, occurred_at}].
-- A hard bounce or a complaint blocklists the subscriber (the trigger unsubscribes them from every
-- list); a hard bounce marks the delivery with that Message-ID bounced; every event writes
-- 'bounced' {kind, reason} or 'complained' with the delivery's campaign. Unknown addresses and
-- repeats are skipped. Returns {received, recorded, duplicates, ignored}.
create function public.record_email_events(p_events jsonb)
returns jsonb
language plpgsql
set search_path = ''
as $$
declare
  item jsonb;
  who public.subscribers;
  delivery public.deliveries;
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
    if item->>'message_id' is not null then
      select * into delivery from public.deliveries d
       where d.message_id = item->>'message_id' and d.subscriber_id = who.id;
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
    if item->>'type' = 'complaint' then
      insert into public.events (subscriber_id, campaign_id, type, data, created_at)
      values (who.id, delivery.campaign_id, 'complained',
        jsonb_strip_nulls(jsonb_build_object('message_id', item->>'message_id',
          'reason', item->>'reason')), happened);
    else
      insert into public.events (subscriber_id, campaign_id, type, data, created_at)
      values (who.id, delivery.campaign_id, 'bounced',
        jsonb_build_object('kind', coalesce(item->>'kind', 'hard'), 'reason', item->>'reason')
          || jsonb_strip_nulls(jsonb_build_object('message_id', item->>'message_id')), happened);
    end if;
    recorded := recorded + 1;
  end loop;
  return jsonb_build_object('received', jsonb_array_length(p_events), 'recorded', recorded,
    'duplicates', duplicates, 'ignored', ignored);
end;
$$;

-- One open or click from the track function. Recorded only while the matching switch
-- (settings.track_opens / track_clicks) is on and the subscriber and the campaign still exist; an open within
-- 10 seconds of the delivery's send counts as a machine open (a scanner or proxy fetching at
-- delivery, not a person). Parameters: 'opened' | 'clicked', subscriber id, campaign id, data
-- ({machine} for opens, from the function's User-Agent check; {url} for clicks). Returns whether
-- an event was written.
create function public.record_tracking_event(p_type text, p_subscriber uuid, p_campaign uuid,
  p_data jsonb)
returns boolean
language plpgsql
set search_path = ''
as $$
declare
  enabled boolean;
  sent timestamptz;
  details jsonb := coalesce(p_data, '{}'::jsonb);
begin
  if p_type not in ('opened', 'clicked') then
    raise exception 'postbox:invalid_input: type: must be opened or clicked' using errcode = 'P0001';
  end if;
  select case when p_type = 'opened' then st.track_opens else st.track_clicks end
    into enabled from public.settings st;
  if not coalesce(enabled, false)
     or not exists (select 1 from public.subscribers s where s.id = p_subscriber)
     or not exists (select 1 from public.campaigns c where c.id = p_campaign) then
    return false;
  end if;
  if p_type = 'opened' then
    select d.sent_at into sent from public.deliveries d
     where d.campaign_id = p_campaign and d.subscriber_id = p_subscriber;
    details := jsonb_build_object('machine', coalesce((details->>'machine')::boolean, false)
      or coalesce(now() - sent < interval '10 seconds', false));
  end if;
  insert into public.events (subscriber_id, campaign_id, type, data)
  values (p_subscriber, p_campaign, p_type, details);
  return true;
end;
$$;


revoke all on table private.email_event_receipts from public, anon, authenticated;
grant all on table private.email_event_receipts to service_role;
revoke execute on function private.event_campaign() from public;
revoke execute on function public.unsubscribe_with_campaign(uuid, uuid[], text, uuid),
  public.record_email_events(jsonb), public.record_tracking_event(text, uuid, uuid, jsonb)
  from public, anon, authenticated;
grant execute on function public.unsubscribe_with_campaign(uuid, uuid[], text, uuid),
  public.record_email_events(jsonb), public.record_tracking_event(text, uuid, uuid, jsonb)
  to service_role;
