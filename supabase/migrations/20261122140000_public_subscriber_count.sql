-- The home page's optional live subscriber count (SPEC §2): visitors cannot read subscribers, so a
-- security definer function answers one number, and only when the owner turned the count on.
create function public.public_subscriber_count()
returns bigint
language sql
stable
security definer
set search_path = ''
as $$
  -- Enabled subscribers with at least one confirmed subscription to a public list; null when
  -- settings.show_subscriber_count is off (or there is no settings row).
  select case when coalesce((select s.show_subscriber_count from public.settings s where s.id), false) then
    (select count(*)
       from public.subscribers p
      where p.status = 'enabled'
        and exists (
          select 1
            from public.subscriptions sub
            join public.lists l on l.id = sub.list_id
           where sub.subscriber_id = p.id
             and sub.status = 'confirmed'
             and l.visibility = 'public'))
  end;
$$;
comment on function public.public_subscriber_count() is
  'Confirmed, enabled subscribers of the public lists, or null unless settings.show_subscriber_count.';

revoke execute on function public.public_subscriber_count() from public;
grant execute on function public.public_subscriber_count() to anon, authenticated, service_role;
