-- Dashboard and list counts (SPEC §2 /admin/, /admin/lists/). Security invoker: the caller's RLS
-- applies, so a non-member counts nothing and a member counts what they may read. Authenticated only.

-- Subscribers per status: one row per status that has subscribers ('enabled', 'blocklisted').
create function public.subscriber_status_counts()
returns table (status text, total bigint)
language sql
stable
security invoker
set search_path = ''
as $$
  select s.status, count(*) from public.subscribers s group by s.status order by s.status
$$;
comment on function public.subscriber_status_counts() is 'Dashboard: subscribers per status, counted under the caller''s RLS.';

-- Subscriptions per list and status: one row per readable list (zeros included), oldest list first.
create function public.list_subscription_counts()
returns table (list_id uuid, pending bigint, confirmed bigint, unsubscribed bigint)
language sql
stable
security invoker
set search_path = ''
as $$
  select l.id,
         count(s.list_id) filter (where s.status = 'pending'),
         count(s.list_id) filter (where s.status = 'confirmed'),
         count(s.list_id) filter (where s.status = 'unsubscribed')
    from public.lists l
    left join public.subscriptions s on s.list_id = l.id
   group by l.id, l.created_at
   order by l.created_at, l.id
$$;
comment on function public.list_subscription_counts() is 'Dashboard and lists page: pending/confirmed/unsubscribed per list, counted under the caller''s RLS.';

-- New subscribers per calendar day in `p_time_zone` (an IANA name such as 'Europe/Berlin'), for the
-- last `p_days` days (1-366) ending today; every day appears, oldest first, with 0 when empty.
create function public.signups_per_day(p_days integer default 30, p_time_zone text default 'UTC')
returns table (day date, signups bigint)
language sql
stable
security invoker
set search_path = ''
as $$
  with bounds as (
    select (now() at time zone p_time_zone)::date as today,
           least(greatest(coalesce(p_days, 30), 1), 366) as n
  ),
  counts as (
    select (s.created_at at time zone p_time_zone)::date as day, count(*) as signups
      from public.subscribers s, bounds b
     -- The first local midnight of the range, as an instant, so the created_at index can be used.
     where s.created_at >= ((b.today - (b.n - 1))::timestamp at time zone p_time_zone)
     group by 1
  )
  select (b.today - i)::date as day, coalesce(c.signups, 0)::bigint as signups
    from bounds b
   cross join generate_series(0, b.n - 1) as i
    left join counts c on c.day = b.today - i
   order by 1
$$;
comment on function public.signups_per_day(integer, text) is 'Dashboard chart: new subscribers per local day for the last p_days days, zeros included, oldest first.';

revoke execute on function public.subscriber_status_counts(), public.list_subscription_counts(),
  public.signups_per_day(integer, text) from public, anon;
grant execute on function public.subscriber_status_counts(), public.list_subscription_counts(),
  public.signups_per_day(integer, text) to authenticated, service_role;
