-- Bulk imports subscribe thousands of addresses per statement, and private.initial_referrals runs
-- for each new subscription. Its join let the planner start from every confirmed subscription of
-- the list (the estimate for a freshly filled table is one row), which made a 5,000-row batch
-- take half a minute and grow with the list. Same result: ask the referred_by index first, and
-- count only when this subscriber has referred anyone at all (most never have).
create or replace function private.initial_referrals()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not exists (select 1 from public.subscribers r where r.referred_by = new.subscriber_id) then
    new.referrals := 0;
    return new;
  end if;
  new.referrals := (select count(*) from public.subscribers r
    join public.subscriptions rs on rs.subscriber_id = r.id and rs.list_id = new.list_id and rs.status = 'confirmed'
    where r.referred_by = new.subscriber_id);
  return new;
end;
$$;
revoke execute on function private.initial_referrals() from public;
