-- Fixed-window rate limits for the public functions (SPEC §9), kept in Postgres so that every
-- edge-function instance shares them.
create table private.rate_limits (
  bucket text not null,
  key text not null,
  window_start timestamptz not null,
  hits integer not null default 0,
  primary key (bucket, key, window_start)
);
comment on table private.rate_limits is 'One row per (bucket, key, window). Old windows are deleted as new ones are counted.';
alter table private.rate_limits enable row level security;
grant all on private.rate_limits to service_role;

-- Counts one attempt against `bucket`/`key` in the current window of `window_seconds` and answers
-- how many seconds to wait (0 = allowed). Parameters: bucket, key, limit, window length in seconds.
create function public.hit_rate_limit(p_bucket text, p_key text, p_limit integer, p_window_seconds integer)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  start timestamptz := to_timestamp(floor(extract(epoch from now()) / p_window_seconds) * p_window_seconds);
  count integer;
begin
  insert into private.rate_limits as r (bucket, key, window_start, hits)
  values (p_bucket, p_key, start, 1)
  on conflict (bucket, key, window_start) do update set hits = r.hits + 1
  returning r.hits into count;
  -- Housekeeping in passing: windows that ended long ago are no use to anybody.
  if random() < 0.01 then
    delete from private.rate_limits where window_start < now() - interval '1 day';
  end if;
  if count <= p_limit then
    return 0;
  end if;
  return greatest(1, ceil(extract(epoch from (start + make_interval(secs => p_window_seconds) - now())))::integer);
end;
$$;
comment on function public.hit_rate_limit(text, text, integer, integer) is 'Service role only (edge functions): counts an attempt and answers the seconds to wait, 0 when allowed.';
revoke execute on function public.hit_rate_limit(text, text, integer, integer) from public, anon, authenticated;
grant execute on function public.hit_rate_limit(text, text, integer, integer) to service_role;
