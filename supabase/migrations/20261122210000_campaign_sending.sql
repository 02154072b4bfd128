-- Campaign sending (SPEC §4, §7, §9): the actions of send-campaign, the per-message bookkeeping of
-- process-queue (record, renew and release claims, finish once), and a send-rate token bucket shared
-- by every worker. Every function is service_role only; each one is a single transaction.

alter table public.campaigns add column deferred integer not null default 0;
comment on column public.campaigns.deferred is 'Temporary failures (SMTP 4xx, timeouts) put back in the queue for a later attempt; a delivery can count up to twice.';

-- The transition rule of 20261122200000_campaigns.sql, plus one reopening: a sent campaign goes
-- back to sending only while retry_failed_deliveries runs (postbox.reopen = on), so failed
-- deliveries can be tried again. Everything else is unchanged.
create or replace function private.check_campaign_transition()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    if new.status <> 'draft' then
      raise exception 'postbox:conflict: A new campaign starts as a draft.' using errcode = 'P0001';
    end if;
    return new;
  end if;
  if new.status = old.status then
    if old.status <> 'draft' and (new.subject, new.preheader, new.body_md, new.name, new.from_name,
        new.from_email) is distinct from (old.subject, old.preheader, old.body_md, old.name,
        old.from_name, old.from_email) then
      raise exception 'postbox:conflict: Only drafts can be edited.' using errcode = 'P0001';
    end if;
    return new;
  end if;
  if not (old.status, new.status) in (
    ('draft', 'scheduled'), ('draft', 'sending'), ('draft', 'cancelled'),
    ('scheduled', 'sending'), ('scheduled', 'cancelled'), ('scheduled', 'draft'),
    ('sending', 'paused'), ('sending', 'sent'),
    ('paused', 'sending'), ('paused', 'cancelled')
  ) and not ((old.status, new.status) = ('sent', 'sending')
             and current_setting('postbox.reopen', true) = 'on') then
    raise exception 'postbox:conflict: A % campaign cannot become %.', old.status, new.status
      using errcode = 'P0001';
  end if;
  if new.status = 'sending' and new.started_at is null then
    new.started_at := now();
  end if;
  if new.status = 'sending' then
    new.finished_at := null;
  end if;
  if new.status in ('sent', 'cancelled') then
    new.finished_at := now();
  end if;
  return new;
end;
$$;

-- send-campaign's state changes (SPEC §4): schedule (draft/scheduled → scheduled at p_at), pause
-- (sending → paused), resume (paused → sending), cancel (draft/scheduled/paused → cancelled; a
-- sending campaign is paused and cancelled in this one transaction) and unschedule (scheduled →
-- draft, used when a scheduled send finds no recipients). Returns the campaign row.
create function public.campaign_action(p_campaign_id uuid, p_action text, p_at timestamptz default null)
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
    if campaign.status not in ('draft', 'scheduled', 'paused', 'sending') then
      raise exception 'postbox:conflict: A % campaign cannot be cancelled.', campaign.status using errcode = 'P0001';
    end if;
    if campaign.status = 'sending' then
      update public.campaigns set status = 'paused' where id = p_campaign_id;
    end if;
    update public.campaigns set status = 'cancelled' where id = p_campaign_id returning * into campaign;
  else
    raise exception 'postbox:invalid_input: action: unknown action' using errcode = 'P0001';
  end case;
  return campaign;
end;
$$;

-- Marks a sending campaign sent when no delivery is queued or being sent. The caller holds the
-- campaign row lock (or takes it here), so with many workers exactly one of them finishes it.
create function private.finish_campaign_if_done(p_campaign_id uuid)
returns boolean
language plpgsql
set search_path = ''
as $$
begin
  perform 1 from public.campaigns where id = p_campaign_id and status = 'sending' for update;
  if not found then
    return false;
  end if;
  if exists (select 1 from public.deliveries
              where campaign_id = p_campaign_id and status in ('queued', 'sending')) then
    return false;
  end if;
  update public.campaigns set status = 'sent' where id = p_campaign_id and status = 'sending';
  return found;
end;
$$;

-- Claims a batch (SPEC §9) through claim_deliveries and stamps it with the worker's token, so
-- later calls can tell the worker's own rows from rows someone else has reclaimed after a stale
-- claim (claimed_at alone changes on every heartbeat).
alter table public.deliveries add column claim_token uuid;
comment on column public.deliveries.claim_token is 'The process-queue run holding this delivery while it is sending.';
create index deliveries_claim_token_idx on public.deliveries (claim_token) where status = 'sending';

create function public.claim_delivery_batch(
  p_limit integer, p_claim_timeout interval, p_claim_token uuid)
returns setof public.deliveries
language plpgsql
set search_path = ''
as $$
declare
  campaign_ids uuid[];
  subscriber_ids uuid[];
begin
  -- Two statements: the second must see the rows the first one claimed.
  select array_agg(c.campaign_id), array_agg(c.subscriber_id) into campaign_ids, subscriber_ids
    from public.claim_deliveries(p_limit, p_claim_timeout) c;
  return query
  update public.deliveries d set claim_token = p_claim_token
    from unnest(campaign_ids, subscriber_ids) as m(campaign_id, subscriber_id)
   where d.campaign_id = m.campaign_id and d.subscriber_id = m.subscriber_id
  returning d.*;
end;
$$;

-- The result of one send attempt (SPEC §9), recorded as soon as it is known, for a delivery the
-- worker still holds (a row reclaimed by someone else after a stale claim is not touched and the
-- answer says so). Outcomes: sent; deferred (temporary failure: back to the queue after 1 then 5
-- minutes, failed on the last attempt); failed (permanent). The campaign row is locked first, so
-- the "nothing left" checks of the last two recordings cannot both miss each other.
create function public.record_delivery(
  p_campaign_id uuid, p_subscriber_id uuid, p_claim_token uuid, p_outcome text,
  p_message_id text default null, p_error text default null, p_max_attempts integer default 3)
returns jsonb
language plpgsql
set search_path = ''
as $$
declare
  delivery public.deliveries;
  outcome text := p_outcome;
begin
  perform 1 from public.campaigns where id = p_campaign_id for update;
  select * into delivery from public.deliveries
   where campaign_id = p_campaign_id and subscriber_id = p_subscriber_id
     and status = 'sending' and claim_token = p_claim_token
   for update;
  if not found then
    return jsonb_build_object('recorded', false, 'outcome', null, 'finished', false);
  end if;
  if outcome = 'deferred' and delivery.attempts >= p_max_attempts then
    outcome := 'failed';
  end if;
  case outcome
  when 'sent' then
    update public.deliveries
       set status = 'sent', sent_at = now(), message_id = p_message_id, last_error = null
     where campaign_id = p_campaign_id and subscriber_id = p_subscriber_id;
    update public.campaigns set sent = sent + 1 where id = p_campaign_id;
  when 'deferred' then
    update public.deliveries
       set status = 'queued', claimed_at = null, claim_token = null, last_error = left(p_error, 1000),
           next_attempt_at = now() + case when delivery.attempts <= 1 then interval '1 minute'
                                          else interval '5 minutes' end
     where campaign_id = p_campaign_id and subscriber_id = p_subscriber_id;
    update public.campaigns set deferred = deferred + 1 where id = p_campaign_id;
  when 'failed' then
    update public.deliveries set status = 'failed', last_error = left(p_error, 1000)
     where campaign_id = p_campaign_id and subscriber_id = p_subscriber_id;
    update public.campaigns set failed = failed + 1 where id = p_campaign_id;
  else
    raise exception 'postbox:invalid_input: outcome: unknown outcome' using errcode = 'P0001';
  end case;
  return jsonb_build_object('recorded', true, 'outcome', outcome,
    'finished', private.finish_campaign_if_done(p_campaign_id));
end;
$$;

-- A worker's heartbeat: refreshes claimed_at of the rows it still holds so a long batch never looks
-- stale, and reports each row's campaign status so the worker stops within moments of a pause or
-- cancel. Rows not returned are no longer its own.
create function public.renew_delivery_claims(p_claim_token uuid)
returns table (campaign_id uuid, subscriber_id uuid, campaign_status text)
language sql
set search_path = ''
as $$
  with renewed as (
    update public.deliveries d set claimed_at = now()
     where d.claim_token = p_claim_token and d.status = 'sending'
    returning d.campaign_id, d.subscriber_id
  )
  select r.campaign_id, r.subscriber_id, c.status
    from renewed r join public.campaigns c on c.id = r.campaign_id;
$$;

-- Gives the worker's unsent rows back to the queue (campaign paused or cancelled, or its time is
-- up); the attempt they were counted for never happened.
create function public.release_delivery_claims(p_claim_token uuid)
returns integer
language plpgsql
set search_path = ''
as $$
declare
  released integer;
begin
  update public.deliveries d
     set status = 'queued', claimed_at = null, claim_token = null,
         attempts = greatest(d.attempts - 1, 0)
   where d.claim_token = p_claim_token and d.status = 'sending';
  get diagnostics released = row_count;
  return released;
end;
$$;

-- Sending campaigns with nothing left to send (e.g. resumed after the last message went out, or
-- whose last rows were released): marked sent, each by exactly one caller.
create function public.finish_idle_campaigns()
returns integer
language plpgsql
set search_path = ''
as $$
declare
  c uuid;
  finished integer := 0;
begin
  for c in
    select id from public.campaigns cc where cc.status = 'sending'
       and not exists (select 1 from public.deliveries d
                        where d.campaign_id = cc.id and d.status in ('queued', 'sending'))
  loop
    if private.finish_campaign_if_done(c) then
      finished := finished + 1;
    end if;
  end loop;
  return finished;
end;
$$;

-- The retry action: failed deliveries back to the queue with their attempts reset; a sent campaign
-- reopens to sending (postbox.reopen lets the transition trigger allow it). Returns how many.
create function public.retry_failed_deliveries(p_campaign_id uuid)
returns integer
language plpgsql
set search_path = ''
as $$
declare
  campaign public.campaigns;
  retried integer;
begin
  select * into campaign from public.campaigns where id = p_campaign_id for update;
  if not found then
    raise exception 'postbox:not_found: That campaign does not exist.' using errcode = 'P0001';
  end if;
  if campaign.status not in ('sending', 'paused', 'sent') then
    raise exception 'postbox:conflict: Only a sending, paused or sent campaign has deliveries to retry.'
      using errcode = 'P0001';
  end if;
  update public.deliveries
     set status = 'queued', attempts = 0, last_error = null, next_attempt_at = now(), claimed_at = null
   where campaign_id = p_campaign_id and status = 'failed';
  get diagnostics retried = row_count;
  if retried > 0 then
    perform set_config('postbox.reopen', 'on', true);
    update public.campaigns
       set failed = greatest(failed - retried, 0),
           status = case when status = 'sent' then 'sending' else status end
     where id = p_campaign_id;
    perform set_config('postbox.reopen', 'off', true);
  end if;
  return retried;
end;
$$;

-- The send rate shared by every worker (POSTBOX_SEND_RATE, SPEC §9): one row holding the next free
-- send slot. Each call reserves p_wanted consecutive slots at p_rate per second and answers how
-- many were granted and how long to wait before the first; the i-th may go i/p_rate later. Slots
-- never start in the past, so an idle period does not allow a burst.
create table private.send_rate (
  id boolean primary key default true check (id),
  next_at timestamptz not null default now()
);
insert into private.send_rate (id) values (true);

create function public.acquire_send_tokens(p_wanted integer, p_rate double precision)
returns table (granted integer, wait_ms integer)
language plpgsql
security definer
set search_path = ''
as $$
declare
  now_at timestamptz := clock_timestamp();
  slot timestamptz;
  n integer := least(greatest(p_wanted, 1), 100);
begin
  if p_rate is null or p_rate <= 0 then
    raise exception 'postbox:invalid_input: rate: must be positive' using errcode = 'P0001';
  end if;
  update private.send_rate r
     set next_at = greatest(r.next_at, now_at) + make_interval(secs => n / p_rate)
   where r.id
  returning r.next_at - make_interval(secs => n / p_rate) into slot;
  granted := n;
  wait_ms := greatest(0, ceil(extract(epoch from (slot - now_at)) * 1000))::integer;
  return next;
end;
$$;

do $$
declare
  f text;
begin
  foreach f in array array[
    'public.campaign_action(uuid, text, timestamptz)',
    'public.claim_delivery_batch(integer, interval, uuid)',
    'public.record_delivery(uuid, uuid, uuid, text, text, text, integer)',
    'public.renew_delivery_claims(uuid)',
    'public.release_delivery_claims(uuid)',
    'public.finish_idle_campaigns()',
    'public.retry_failed_deliveries(uuid)',
    'public.acquire_send_tokens(integer, double precision)'
  ] loop
    execute format('revoke execute on function %s from public, anon, authenticated', f);
    execute format('grant execute on function %s to service_role', f);
  end loop;
end;
$$;
revoke execute on function private.finish_campaign_if_done(uuid) from public, anon, authenticated;
grant execute on function private.finish_campaign_if_done(uuid) to service_role;
