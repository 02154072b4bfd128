-- A send starts only with the campaign as it was read (SPEC §4: sending fixes what goes out).
-- send-campaign reads body_md and subject, renders the HTML, then calls start_campaign_send, which
-- locks the row; an editor's autosave in between left body_html (what every recipient and the
-- archive get) rendered from a body that is no longer the stored one. The caller now passes the
-- body_md and subject it rendered from, and the start is refused as a conflict when, under the
-- lock, they differ from the row's; the editor's page shows it and the admin sends again.
create function public.start_campaign_send(
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
comment on function public.start_campaign_send(uuid, text, text, text) is
  'Starts a send with p_body_html rendered from p_body_md; refuses (conflict) when body_md or subject changed since they were read.';
revoke execute on function public.start_campaign_send(uuid, text, text, text) from public, anon, authenticated;
grant execute on function public.start_campaign_send(uuid, text, text, text) to service_role;

-- The two-argument form stays for tests and benchmarks that start a send with HTML of their own:
-- it locks the row and starts with the body and subject as they are under that lock.
create or replace function public.start_campaign_send(p_campaign_id uuid, p_body_html text)
returns integer
language plpgsql
set search_path = ''
as $$
declare
  current_body text;
  current_subject text;
begin
  select body_md, subject into current_body, current_subject
    from public.campaigns where id = p_campaign_id for update;
  return public.start_campaign_send(p_campaign_id, p_body_html, current_body, current_subject);
end;
$$;
