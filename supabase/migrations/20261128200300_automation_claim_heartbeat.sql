-- Heartbeat for automation claims (issue 24), as renew_delivery_claims is for deliveries: a
-- process-queue run renews its claim about once a second while it sends, so a slow batch is never
-- taken for a crashed one; the answer is the rows the claim still holds and may send (not one
-- reclaimed, exited, or of an automation paused meanwhile).
create function public.renew_automation_claims(p_claim_token uuid)
returns table (automation_id uuid, subscriber_id uuid)
language plpgsql
security definer
set search_path = ''
as $$
begin
  return query
  update public.automation_enrolments e
     set claimed_at = now()
    from public.automations a
   where e.claim_token = p_claim_token and e.state = 'active'
     and a.id = e.automation_id and a.status = 'active'
  returning e.automation_id, e.subscriber_id;
end;
$$;
revoke execute on function public.renew_automation_claims(uuid) from public, anon, authenticated;
grant execute on function public.renew_automation_claims(uuid) to service_role;
