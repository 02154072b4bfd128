-- SPEC §5: a campaign needs at least one list to send. A send of a campaign without lists was
-- `no_recipients`, while scheduling it was `invalid_input` naming the lists; both are now the
-- validation error (as schedule already answers), and `no_recipients` is left for lists that were
-- chosen but have nobody to send to. Otherwise as 20261124020000_start_send_as_read.sql.
create or replace function public.start_campaign_send(
  p_campaign_id uuid,
  p_body_html text,
  p_body_md text,
  p_subject text
)
returns integer
language plpgsql
set search_path = ''
as $$
declare
  campaign public.campaigns;
  total integer;
begin
  select * into campaign from public.campaigns where id = p_campaign_id for update;
  if not found then
    raise exception 'postbox:not_found: That campaign does not exist.' using errcode = 'P0001';
  end if;
  if campaign.status not in ('draft', 'scheduled') then
    raise exception 'postbox:conflict: Only a draft or scheduled campaign can be sent.' using errcode = 'P0001';
  end if;
  if (campaign.body_md, campaign.subject) is distinct from (p_body_md, p_subject) then
    raise exception 'postbox:conflict: The campaign changed while it was being sent. Try again.'
      using errcode = 'P0001';
  end if;
  if char_length(btrim(campaign.subject)) = 0 then
    raise exception 'postbox:invalid_input: subject: must be 1 to 200 characters' using errcode = 'P0001';
  end if;
  if not exists (select 1 from public.campaign_lists where campaign_id = p_campaign_id) then
    raise exception 'postbox:invalid_input: lists: choose at least one list' using errcode = 'P0001';
  end if;
  insert into public.deliveries (campaign_id, subscriber_id)
  select distinct p_campaign_id, s.id
  from public.campaign_lists cl
  join public.subscriptions sub on sub.list_id = cl.list_id and sub.status = 'confirmed'
  join public.subscribers s on s.id = sub.subscriber_id and s.status = 'enabled'
  where cl.campaign_id = p_campaign_id
  on conflict do nothing;
  get diagnostics total = row_count;
  if total = 0 then
    raise exception 'postbox:no_recipients: This campaign has no recipients.' using errcode = 'P0001';
  end if;
  update public.campaigns
     set status = 'sending', recipients = total, body_html = p_body_html
   where id = p_campaign_id;
  return total;
end;
$$;
