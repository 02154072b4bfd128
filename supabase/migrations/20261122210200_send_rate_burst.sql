-- The send-rate row (20261122210000) with a small burst allowance: a slot may start up to a quarter
-- of a second (at most 5 slots) in the past, so a moment when every worker was busy does not lower
-- the rate for good, while an idle queue still starts with at most that small burst.
create or replace function public.acquire_send_tokens(p_wanted integer, p_rate double precision)
returns table (granted integer, wait_ms integer)
language plpgsql
security definer
set search_path = ''
as $$
declare
  now_at timestamptz := clock_timestamp();
  n integer := least(greatest(p_wanted, 1), 100);
  burst interval;
  slot timestamptz;
begin
  if p_rate is null or p_rate <= 0 then
    raise exception 'postbox:invalid_input: rate: must be positive' using errcode = 'P0001';
  end if;
  burst := make_interval(secs => least(0.25, 5 / p_rate));
  update private.send_rate r
     set next_at = greatest(r.next_at, now_at - burst) + make_interval(secs => n / p_rate)
   where r.id
  returning r.next_at - make_interval(secs => n / p_rate) into slot;
  granted := n;
  wait_ms := greatest(0, ceil(extract(epoch from (slot - now_at)) * 1000))::integer;
  return next;
end;
$$;
