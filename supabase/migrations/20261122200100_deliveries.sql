-- Deliveries (SPEC §3, §4, §9): one row per recipient of a campaign, claimed by process-queue
-- workers with FOR UPDATE SKIP LOCKED, so any number of them can run without a double send.
create table public.deliveries (
  campaign_id uuid not null references public.campaigns (id) on delete cascade,
  subscriber_id uuid not null references public.subscribers (id) on delete cascade,
  status text not null default 'queued' check (status in ('queued', 'sending', 'sent', 'failed', 'bounced')),
  attempts integer not null default 0,
  last_error text,
  next_attempt_at timestamptz not null default now(),
  claimed_at timestamptz,
  sent_at timestamptz,
  message_id text,
  primary key (campaign_id, subscriber_id)
);
comment on table public.deliveries is 'queued → sending (claimed) → sent | failed; sent → bounced. A claim older than the claim timeout returns to queued.';
comment on column public.deliveries.next_attempt_at is 'When a deferred (temporarily failed) delivery may be tried again: back-off 1 then 5 minutes (SPEC §9).';

create index deliveries_queue_idx on public.deliveries (campaign_id, next_attempt_at) where status = 'queued';
create index deliveries_claimed_idx on public.deliveries (claimed_at) where status = 'sending';
create index deliveries_subscriber_idx on public.deliveries (subscriber_id);
create unique index deliveries_message_id_idx on public.deliveries (message_id) where message_id is not null;

alter table public.deliveries enable row level security;

create policy "Members see deliveries" on public.deliveries
  for select to authenticated using ((select private.has_role('viewer')));

grant select on public.deliveries to authenticated;
grant all on public.deliveries to service_role;

-- SPEC §4: the delivery states.
create function private.check_delivery_transition()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.status <> old.status and not (old.status, new.status) in (
    ('queued', 'sending'), ('sending', 'queued'), ('sending', 'sent'), ('sending', 'failed'),
    ('sent', 'bounced'), ('failed', 'queued')
  ) then
    raise exception 'postbox:conflict: A % delivery cannot become %.', old.status, new.status
      using errcode = 'P0001';
  end if;
  return new;
end;
$$;
create trigger deliveries_check_transition
  before update of status on public.deliveries
  for each row execute function private.check_delivery_transition();

-- Starts a send (SPEC §4): fixes the recipients in one statement — enabled subscribers with a
-- confirmed subscription to any chosen list, each address once — and moves the campaign to
-- sending. Parameters: campaign id, the sanitised HTML rendered from its Markdown. Returns the
-- number of recipients; raises postbox:no_recipients / postbox:conflict.
create function public.start_campaign_send(p_campaign_id uuid, p_body_html text)
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
revoke execute on function public.start_campaign_send(uuid, text) from public, anon, authenticated;
grant execute on function public.start_campaign_send(uuid, text) to service_role;

-- Claims up to p_limit due deliveries of sending campaigns for one worker (SPEC §9): first
-- returns claims older than p_claim_timeout to the queue, then locks rows with SKIP LOCKED so
-- concurrent workers never get the same row. Returns the claimed rows, oldest due first.
create function public.claim_deliveries(p_limit integer, p_claim_timeout interval default interval '10 minutes')
returns setof public.deliveries
language plpgsql
set search_path = ''
as $$
begin
  update public.deliveries set status = 'queued', claimed_at = null
   where status = 'sending' and claimed_at < now() - p_claim_timeout;
  return query
  with due as (
    select d.campaign_id, d.subscriber_id
      from public.deliveries d
      join public.campaigns c on c.id = d.campaign_id and c.status = 'sending'
     where d.status = 'queued' and d.next_attempt_at <= now()
     order by d.next_attempt_at
     limit p_limit
     for update of d skip locked
  )
  update public.deliveries d
     set status = 'sending', claimed_at = now(), attempts = d.attempts + 1
    from due
   where d.campaign_id = due.campaign_id and d.subscriber_id = due.subscriber_id
  returning d.*;
end;
$$;
revoke execute on function public.claim_deliveries(integer, interval) from public, anon, authenticated;
grant execute on function public.claim_deliveries(integer, interval) to service_role;
