-- The numbers of a campaign's report page (SPEC §2) in one call: deliveries by status, the
-- deferral counter, and the events carrying the campaign's id (unsubscribes, bounces, complaints,
-- opens with machine opens apart, clicks unique by subscriber and total). Security invoker, so RLS
-- decides: a member (viewer and up) gets the row; anyone else gets no row.
-- Events are counted through events_campaign_idx (campaign_id, type), deliveries through their
-- primary key (campaign_id, subscriber_id): both stay within the one campaign.
create function public.campaign_report(p_campaign_id uuid)
returns table (
  campaign_id uuid,
  status text,
  recipients integer,
  queued bigint,
  sending bigint,
  sent bigint,
  failed bigint,
  bounced bigint,
  deferred integer,
  unsubscribed bigint,
  complained bigint,
  opens bigint,
  unique_opens bigint,
  machine_opens bigint,
  clicks bigint,
  unique_clicks bigint,
  started_at timestamptz,
  finished_at timestamptz
)
language sql
stable
security invoker
set search_path = ''
as $$
  with d as (
    select
      count(*) filter (where dl.status = 'queued') as queued,
      count(*) filter (where dl.status = 'sending') as sending,
      -- A bounced message was sent first (sent → bounced), so it counts as sent too.
      count(*) filter (where dl.status in ('sent', 'bounced')) as sent,
      count(*) filter (where dl.status = 'failed') as failed
    from public.deliveries dl
    where dl.campaign_id = p_campaign_id
  ), b as (
    -- Bounced recipients: a delivery marked bounced or a 'bounced' event of the campaign (the
    -- webhook writes both; either alone still counts), each subscriber once.
    select count(*) as bounced from (
      select dl.subscriber_id from public.deliveries dl
       where dl.campaign_id = p_campaign_id and dl.status = 'bounced'
      union
      select ev.subscriber_id from public.events ev
       where ev.campaign_id = p_campaign_id and ev.type = 'bounced' and ev.subscriber_id is not null
    ) s
  ), e as (
    select
      count(distinct ev.subscriber_id) filter (where ev.type = 'unsubscribed') as unsubscribed,
      count(distinct ev.subscriber_id) filter (where ev.type = 'complained') as complained,
      count(*) filter (where ev.type = 'opened' and not coalesce(ev.data ->> 'machine' = 'true', false)) as opens,
      count(distinct ev.subscriber_id) filter (
        where ev.type = 'opened' and not coalesce(ev.data ->> 'machine' = 'true', false)) as unique_opens,
      count(*) filter (where ev.type = 'opened' and ev.data ->> 'machine' = 'true') as machine_opens,
      count(*) filter (where ev.type = 'clicked') as clicks,
      count(distinct ev.subscriber_id) filter (where ev.type = 'clicked') as unique_clicks
    from public.events ev
    where ev.campaign_id = p_campaign_id
      and ev.type in ('unsubscribed', 'complained', 'opened', 'clicked')
  )
  select c.id, c.status, c.recipients, d.queued, d.sending, d.sent, d.failed, b.bounced,
         c.deferred, e.unsubscribed, e.complained, e.opens, e.unique_opens,
         e.machine_opens, e.clicks, e.unique_clicks, c.started_at, c.finished_at
    from public.campaigns c, d, b, e
   where c.id = p_campaign_id
     -- The archive policy lets anyone read a sent archived campaign; its report is for members.
     and (select private.has_role('viewer'));
$$;

revoke execute on function public.campaign_report(uuid) from public, anon;
grant execute on function public.campaign_report(uuid) to authenticated;
