-- SPEC §4: draft, scheduled or paused → cancelled; a sending campaign is paused first. cancel used
-- to pause and cancel a sending campaign in one transaction, which the page offered as one click;
-- now a sending campaign answers 409 conflict and the page offers Pause, then Cancel. (A pause
-- takes effect within one batch, so the messages still in flight land either way.) The rest of
-- campaign_action is as in 20261122210000.
create or replace function public.campaign_action(p_campaign_id uuid, p_action text, p_at timestamptz default null)
returns public.campaigns
language plpgsql
set search_path = ''
as $$
declare
  campaign public.campaigns;
begin
  select * into campaign from public.campaigns where id = p_campaign_id for update;
  if not found then
    raise exception 'postbox:not_found: That campaign does not exist.' using errcode = 'P0001';
  end if;
  case p_action
  when 'schedule' then
    if campaign.status not in ('draft', 'scheduled') then
      raise exception 'postbox:conflict: Only a draft can be scheduled.' using errcode = 'P0001';
    end if;
    if p_at is null or p_at <= now() then
      raise exception 'postbox:invalid_input: at: must be a time in the future' using errcode = 'P0001';
    end if;
    if char_length(btrim(campaign.subject)) = 0 then
      raise exception 'postbox:invalid_input: subject: must be 1 to 200 characters' using errcode = 'P0001';
    end if;
    if not exists (select 1 from public.campaign_lists where campaign_id = p_campaign_id) then
      raise exception 'postbox:invalid_input: lists: choose at least one list' using errcode = 'P0001';
    end if;
    update public.campaigns set status = 'scheduled', scheduled_at = p_at
     where id = p_campaign_id returning * into campaign;
  when 'unschedule' then
    if campaign.status <> 'scheduled' then
      raise exception 'postbox:conflict: Only a scheduled campaign can go back to draft.' using errcode = 'P0001';
    end if;
    update public.campaigns set status = 'draft', scheduled_at = null
     where id = p_campaign_id returning * into campaign;
  when 'pause' then
    if campaign.status <> 'sending' then
      raise exception 'postbox:conflict: Only a sending campaign can be paused.' using errcode = 'P0001';
    end if;
    update public.campaigns set status = 'paused' where id = p_campaign_id returning * into campaign;
  when 'resume' then
    if campaign.status <> 'paused' then
      raise exception 'postbox:conflict: Only a paused campaign can be resumed.' using errcode = 'P0001';
    end if;
    update public.campaigns set status = 'sending' where id = p_campaign_id returning * into campaign;
    -- Everything may have been sent before the pause took effect: finish it now.
    perform private.finish_campaign_if_done(p_campaign_id);
    select * into campaign from public.campaigns where id = p_campaign_id;
  when 'cancel' then
    if campaign.status = 'sending' then
      raise exception 'postbox:conflict: Pause the campaign before cancelling it.' using errcode = 'P0001';
    end if;
    if campaign.status not in ('draft', 'scheduled', 'paused') then
      raise exception 'postbox:conflict: A % campaign cannot be cancelled.', campaign.status using errcode = 'P0001';
    end if;
    update public.campaigns set status = 'cancelled' where id = p_campaign_id returning * into campaign;
  else
    raise exception 'postbox:invalid_input: action: unknown action' using errcode = 'P0001';
  end case;
  return campaign;
end;
$$;
