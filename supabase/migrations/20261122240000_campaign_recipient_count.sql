-- The editor's live recipient count (SPEC §4): enabled subscribers with a confirmed subscription to
-- any of the given lists, each address once — the same set start_campaign_send fixes. Security
-- invoker, so RLS decides what is counted: members read subscriptions, anyone else counts 0.
create function public.campaign_recipient_count(p_list_ids uuid[])
returns integer
language sql
stable
security invoker
set search_path = ''
as $$
  select count(distinct s.id)::integer
  from public.subscriptions sub
  join public.subscribers s on s.id = sub.subscriber_id and s.status = 'enabled'
  where sub.list_id = any (coalesce(p_list_ids, '{}'::uuid[]))
    and sub.status = 'confirmed';
$$;
comment on function public.campaign_recipient_count(uuid[]) is
  'Recipients a campaign to these lists would have now; 0 for callers RLS shows no subscriptions.';

revoke execute on function public.campaign_recipient_count(uuid[]) from public, anon;
grant execute on function public.campaign_recipient_count(uuid[]) to authenticated, service_role;
