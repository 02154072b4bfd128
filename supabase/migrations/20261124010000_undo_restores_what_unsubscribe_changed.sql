-- The unsubscribe page's undo restores exactly what the unsubscribe link removed, each
-- subscription to the status it had before (SPEC §4), instead of confirming every unsubscribed
-- subscription in the token's scope: that revived lists left earlier (through preferences, an
-- admin, another link) and turned pending subscriptions into confirmed ones without an opt-in.
--
-- What the link removed is already recorded: each of its changes wrote an 'unsubscribed' event
-- {list_id, from, source: 'unsubscribe-page' | 'one-click'} in one transaction, so with the
-- subscription's unsubscribed_at equal to the event's time. The undo takes the latest such
-- unsubscribe within the token's lists and restores the subscriptions it moved that have not
-- changed since (still unsubscribed, at that same time) to the event's `from`. A page opened after
-- a one-click unsubscribe changes nothing itself, so its undo restores what the one-click removed.
create or replace function public.resubscribe_subscriber(p_subscriber uuid, p_lists uuid[])
returns jsonb
language plpgsql
set search_path = ''
as $$
declare
  who public.subscribers := private.self_service_subscriber(p_subscriber);
  link_sources constant text[] := array['unsubscribe-page', 'one-click'];
  last_at timestamptz;
begin
  if who.status = 'blocklisted' then
    raise exception 'postbox:conflict: This address is blocked, so it cannot be subscribed again.'
      using errcode = 'P0001';
  end if;
  select max(e.created_at) into last_at
    from public.events e
   where e.subscriber_id = who.id and e.type = 'unsubscribed'
     and e.data->>'source' = any (link_sources)
     and (p_lists is null or (e.data->>'list_id')::uuid = any (p_lists));
  perform set_config('postbox.source', 'undo', true);
  update public.subscriptions sub set status = e.data->>'from'
    from public.events e
   where sub.subscriber_id = who.id and sub.status = 'unsubscribed'
     and sub.unsubscribed_at = last_at
     and (p_lists is null or sub.list_id = any (p_lists))
     and e.subscriber_id = who.id and e.type = 'unsubscribed' and e.created_at = last_at
     and e.data->>'source' = any (link_sources)
     and (e.data->>'list_id')::uuid = sub.list_id
     and e.data->>'from' in ('pending', 'confirmed');
  return public.get_unsubscribe(p_subscriber, p_lists);
end;
$$;
