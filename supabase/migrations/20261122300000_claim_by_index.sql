-- Claims walk the queue index instead of sorting the queue (issue 5). claim_deliveries picked the
-- first due rows of all sending campaigns with one ORDER BY over every queued delivery: on a
-- campaign of 100,000 that sorted the whole queue for each batch of 100 (0.1-0.3 s), worse with
-- the statistics of a just-filled table. Now each sending campaign's due rows are read in
-- next_attempt_at order from deliveries_queue_idx, which stops after the batch, and the claim
-- token is set in the same UPDATE as the claim (one new row version per claimed row, not two).
-- Same signature and answer as before: claimed rows, oldest due first; SKIP LOCKED, so concurrent
-- workers never get the same row; claims older than p_claim_timeout return to the queue first.
create or replace function public.claim_delivery_batch(
  p_limit integer, p_claim_timeout interval, p_claim_token uuid)
returns setof public.deliveries
language plpgsql
set search_path = ''
as $$
begin
  update public.deliveries set status = 'queued', claimed_at = null
   where status = 'sending' and claimed_at < now() - p_claim_timeout;
  return query
  with due as (
    select q.campaign_id, q.subscriber_id
      from public.campaigns c
      cross join lateral (
        select d.campaign_id, d.subscriber_id, d.next_attempt_at
          from public.deliveries d
         where d.campaign_id = c.id and d.status = 'queued' and d.next_attempt_at <= now()
         order by d.next_attempt_at
         limit p_limit
           for update of d skip locked
      ) q
     where c.status = 'sending'
     order by q.next_attempt_at
     limit p_limit
  )
  update public.deliveries d
     set status = 'sending', claimed_at = now(), attempts = d.attempts + 1,
         claim_token = p_claim_token
    from due
   where d.campaign_id = due.campaign_id and d.subscriber_id = due.subscriber_id
  returning d.*;
end;
$$;
