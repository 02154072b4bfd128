-- SPEC §9: "5 per email and 30 per client IP per 10 minutes". The limits counted in fixed windows
-- aligned to the clock, so around a window's end twice the limit passed within seconds (5 just
-- before 12:10, 5 more just after). Now each allowed attempt is remembered with its time, and an
-- attempt is allowed while fewer than the limit were allowed in the window before it: no stretch of
-- 10 minutes ever holds more than the limit. A refused attempt is not counted, so the wait it is
-- told (Retry-After) is exact: until the oldest of those attempts is a window old.

drop function public.hit_rate_limit(text, text, integer, integer);
drop table private.rate_limits;

-- The name and the `key` column stay: delete_subscriber_data forgets an address's attempts by key.
create table private.rate_limits (
  bucket text not null,
  key text not null,
  at timestamptz not null
);
comment on table private.rate_limits is 'One row per allowed attempt (bucket, key, time); rows older than a day are deleted in passing.';
create index rate_limits_key_at_idx on private.rate_limits (bucket, key, at);
create index rate_limits_at_idx on private.rate_limits (at);
alter table private.rate_limits enable row level security;
grant all on private.rate_limits to service_role;

-- Counts one attempt against `bucket`/`key` and answers how many seconds to wait (0 = allowed).
create function public.hit_rate_limit(p_bucket text, p_key text, p_limit integer, p_window_seconds integer)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_window interval := make_interval(secs => p_window_seconds);
  v_now timestamptz := clock_timestamp();
  v_count integer;
  v_oldest timestamptz;
begin
  -- Attempts on one key take turns, so two at once cannot both take the last place.
  perform pg_advisory_xact_lock(hashtextextended('rate limit ' || p_bucket || ' ' || p_key, 0));
  select count(*), min(r.at) into v_count, v_oldest
  from private.rate_limits r
  where r.bucket = p_bucket and r.key = p_key and r.at > v_now - v_window;
  if v_count >= p_limit then
    return greatest(1, ceil(extract(epoch from (v_oldest + v_window - v_now))))::integer;
  end if;
  insert into private.rate_limits (bucket, key, at) values (p_bucket, p_key, v_now);
  -- Housekeeping in passing: attempts a day old count for no window.
  if random() < 0.01 then
    delete from private.rate_limits where at < v_now - interval '1 day';
  end if;
  return 0;
end;
$$;
comment on function public.hit_rate_limit(text, text, integer, integer) is 'Service role only (edge functions): counts an allowed attempt in a sliding window and answers the seconds to wait, 0 when allowed.';
revoke execute on function public.hit_rate_limit(text, text, integer, integer) from public, anon, authenticated;
grant execute on function public.hit_rate_limit(text, text, integer, integer) to service_role;
