-- Unsubscribes on the preferences page count for the email that brought the reader there (issue 24,
-- as the unsubscribe function's do since 20261122250000 and 20261202100100). The preferences link
-- in a campaign or automation email now names that campaign (`c`) or step (`a`) in its signed
-- token, as the unsubscribe link does; the preferences function passes them here. Older links name
-- neither and credit nothing. Only 'unsubscribed' events are credited (switching a list on again is
-- not the email's doing), and only those of this transaction, written by the subscription trigger.

-- Credits the subscriber's 'unsubscribed' events of this transaction (created_at is the
-- transaction's now()) not yet credited to anything: to the automation step p_step (and its
-- automation in data, announced on team:automations), else to the campaign p_campaign. A step or
-- campaign deleted since the email went out is not named. Parameters: subscriber, campaign, step.
create function private.credit_unsubscribes(p_subscriber uuid, p_campaign uuid, p_step uuid)
returns void
language plpgsql
set search_path = ''
as $$
declare
  automation uuid;
begin
  if p_step is not null then
    select s.automation_id into automation from public.automation_steps s where s.id = p_step;
    if automation is null then
      return;
    end if;
    update public.events e
       set automation_step_id = p_step,
           data = e.data || jsonb_build_object('automation_id', automation)
     where e.subscriber_id = p_subscriber and e.type = 'unsubscribed' and e.created_at = now()
       and e.campaign_id is null and e.automation_step_id is null;
    if found then
      perform private.signal_automation(automation);
    end if;
  elsif exists (select 1 from public.campaigns c where c.id = p_campaign) then
    update public.events e set campaign_id = p_campaign
     where e.subscriber_id = p_subscriber and e.type = 'unsubscribed' and e.created_at = now()
       and e.campaign_id is null and e.automation_step_id is null;
  end if;
end;
$$;

-- The preferences form (update_preferences), its lists switched off credited to the email the
-- link came from. Parameters: as update_preferences, then campaign id and step id (at most one).
create function public.update_preferences_from_email(p_subscriber uuid, p_name text,
  p_lists jsonb, p_campaign uuid, p_step uuid)
returns jsonb
language plpgsql
set search_path = ''
as $$
declare
  result jsonb;
begin
  if p_campaign is not null and p_step is not null then
    raise exception 'postbox:token_invalid' using errcode = 'P0001';
  end if;
  result := public.update_preferences(p_subscriber, p_name, p_lists);
  perform private.credit_unsubscribes(p_subscriber, p_campaign, p_step);
  return result;
end;
$$;

-- "Unsubscribe from everything" on the preferences page (source 'preferences'), credited to the
-- email the link came from; answers the page again (get_preferences). Parameters: subscriber id,
-- campaign id, step id (at most one).
create function public.unsubscribe_all_from_email(p_subscriber uuid, p_campaign uuid, p_step uuid)
returns jsonb
language plpgsql
set search_path = ''
as $$
begin
  if p_campaign is not null and p_step is not null then
    raise exception 'postbox:token_invalid' using errcode = 'P0001';
  end if;
  perform public.unsubscribe_subscriber(p_subscriber, null, 'preferences');
  perform private.credit_unsubscribes(p_subscriber, p_campaign, p_step);
  return public.get_preferences(p_subscriber);
end;
$$;

revoke execute on function private.credit_unsubscribes(uuid, uuid, uuid),
  public.update_preferences_from_email(uuid, text, jsonb, uuid, uuid),
  public.unsubscribe_all_from_email(uuid, uuid, uuid)
  from public, anon, authenticated;
grant execute on function private.credit_unsubscribes(uuid, uuid, uuid),
  public.update_preferences_from_email(uuid, text, jsonb, uuid, uuid),
  public.unsubscribe_all_from_email(uuid, uuid, uuid)
  to service_role;
