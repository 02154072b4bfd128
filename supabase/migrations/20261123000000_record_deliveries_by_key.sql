-- record_deliveries finds each result's delivery by primary key. Its join on the claim token let
-- the planner (with a freshly filled queue's statistics) scan every row claimed by any run through
-- deliveries_claim_token_idx and merge-join them: 2.5 of the 4 ms a group of ~30 results took.
-- Only the held rows' lookup changes; everything else is as in 20261122260100.
create or replace function public.record_deliveries(p_results jsonb, p_max_attempts integer default 3)
returns jsonb
language plpgsql
set search_path = ''
as $$
declare
  c record;
  outcomes jsonb;
  finished jsonb := '[]'::jsonb;
begin
  if jsonb_typeof(p_results) is distinct from 'array' then
    raise exception 'postbox:invalid_input: results: must be an array' using errcode = 'P0001';
  end if;
  if exists (select 1 from jsonb_to_recordset(p_results) as r(outcome text)
              where r.outcome is null or r.outcome not in ('sent', 'deferred', 'failed')) then
    raise exception 'postbox:invalid_input: outcome: unknown outcome' using errcode = 'P0001';
  end if;
  -- Campaign rows first, in id order, so two groups of the same campaigns never deadlock; NO KEY
  -- UPDATE so a claim's foreign-key check (KEY SHARE) on the same campaign is not blocked.
  perform 1 from public.campaigns
   where id in (select (r->>'campaign_id')::uuid from jsonb_array_elements(p_results) r)
   order by id
     for no key update;

  -- Each result finds its row by primary key, locked in key order (results is sorted and
  -- materialised, and the lateral lookup runs once per result, in that order): the same run's
  -- heartbeat renews these rows while its results are written, and locking in two orders
  -- deadlocks. A join on the claim token instead made the planner read every claimed row of the
  -- queue through the token index and merge them, ~2 ms a group on a 10,000-row send.
  with results as materialized (
    select distinct on (r.campaign_id, r.subscriber_id) r.*
      from jsonb_to_recordset(p_results)
           as r(campaign_id uuid, subscriber_id uuid, claim_token uuid, outcome text,
                message_id text, error text, sent_at timestamptz)
     order by r.campaign_id, r.subscriber_id
  ),
  held as (
    select d.campaign_id, d.subscriber_id, r.message_id, r.error,
           least(coalesce(r.sent_at, now()), clock_timestamp()) as sent_at,
           case when r.outcome = 'deferred' and d.attempts >= p_max_attempts then 'failed'
                else r.outcome end as outcome,
           d.attempts
      from results r
      cross join lateral (
        -- The key alone, so no partial index on status can look cheaper to a planner whose
        -- statistics predate the send; OFFSET 0 keeps the checks below out of this lookup.
        select d.campaign_id, d.subscriber_id, d.attempts, d.status, d.claim_token
          from public.deliveries d
         where d.campaign_id = r.campaign_id and d.subscriber_id = r.subscriber_id
        offset 0
           for update
      ) d
     where d.status = 'sending' and d.claim_token = r.claim_token
  ),
  updated as (
    update public.deliveries d
       set status = case h.outcome when 'sent' then 'sent' when 'failed' then 'failed' else 'queued' end,
           sent_at = case when h.outcome = 'sent' then h.sent_at else d.sent_at end,
           message_id = case when h.outcome = 'sent' then h.message_id else d.message_id end,
           last_error = case when h.outcome = 'sent' then null else left(h.error, 1000) end,
           claimed_at = case when h.outcome = 'deferred' then null else d.claimed_at end,
           claim_token = case when h.outcome = 'deferred' then null else d.claim_token end,
           next_attempt_at = case when h.outcome <> 'deferred' then d.next_attempt_at
                                  when h.attempts <= 1 then now() + interval '1 minute'
                                  else now() + interval '5 minutes' end
      from held h
     where d.campaign_id = h.campaign_id and d.subscriber_id = h.subscriber_id
    returning d.campaign_id, d.subscriber_id, h.outcome
  ),
  per_campaign as (
    select campaign_id,
           count(*) filter (where outcome = 'sent') as sent,
           count(*) filter (where outcome = 'deferred') as deferred,
           count(*) filter (where outcome = 'failed') as failed
      from updated group by campaign_id
  ),
  counted as (
    update public.campaigns cc
       set sent = cc.sent + p.sent, deferred = cc.deferred + p.deferred, failed = cc.failed + p.failed
      from per_campaign p
     where cc.id = p.campaign_id
    returning cc.id
  )
  select coalesce(jsonb_object_agg(u.campaign_id || '/' || u.subscriber_id, u.outcome), '{}'::jsonb)
    into outcomes
    from updated u
   where u.campaign_id in (select id from counted);

  -- Under the campaign locks taken above, so exactly one recording finishes each campaign.
  for c in select distinct (r->>'campaign_id')::uuid as id from jsonb_array_elements(p_results) r loop
    if private.finish_campaign_if_done(c.id) then
      finished := finished || to_jsonb(c.id);
    end if;
  end loop;
  return jsonb_build_object('outcomes', outcomes, 'finished', finished);
end;
$$;
