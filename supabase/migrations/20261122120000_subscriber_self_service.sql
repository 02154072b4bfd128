-- Subscriber self-service (SPEC §1, §7): what the unsubscribe and preferences functions read and
-- write. The edge functions verify the signed token and the input; each write here is one SQL
-- function, so it runs in one transaction and a failure leaves nothing half-done. Service role only.

-- The subscriber a (verified) token names, or `postbox:token_invalid` when it no longer exists
-- (deleted data must not come back through an old link). Parameter: subscriber id.
create function private.self_service_subscriber(p_subscriber uuid)
returns public.subscribers
language plpgsql
stable
set search_path = ''
as $$
declare
  who public.subscribers;
begin
  select * into who from public.subscribers s where s.id = p_subscriber;
  if who.id is null then
    raise exception 'postbox:token_invalid' using errcode = 'P0001';
  end if;
  return who;
end;
$$;

-- What the unsubscribe page shows. Parameters: subscriber id, the token's list ids (null = all of
-- the subscriber's lists). Lists come in creation order; the address is masked by the function.
create function public.get_unsubscribe(p_subscriber uuid, p_lists uuid[])
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
declare
  who public.subscribers := private.self_service_subscriber(p_subscriber);
begin
  return jsonb_build_object(
    'email', who.email,
    'lists', coalesce((
      select jsonb_agg(jsonb_build_object('slug', l.slug, 'name', l.name, 'status', sub.status)
        order by l.created_at, l.slug)
      from public.subscriptions sub
      join public.lists l on l.id = sub.list_id
      where sub.subscriber_id = who.id and (p_lists is null or sub.list_id = any (p_lists))
    ), '[]'::jsonb));
end;
$$;

-- Unsubscribes from the token's lists (null = every list); already unsubscribed ones stay as they
-- are, so repeating it is harmless. Parameters: subscriber id, list ids or null, event source.
create function public.unsubscribe_subscriber(p_subscriber uuid, p_lists uuid[], p_source text)
returns jsonb
language plpgsql
set search_path = ''
as $$
declare
  who public.subscribers := private.self_service_subscriber(p_subscriber);
begin
  perform set_config('postbox.source', p_source, true);
  update public.subscriptions sub set status = 'unsubscribed'
   where sub.subscriber_id = who.id and sub.status <> 'unsubscribed'
     and (p_lists is null or sub.list_id = any (p_lists));
  return public.get_unsubscribe(p_subscriber, p_lists);
end;
$$;

-- The unsubscribe page's undo: the token's unsubscribed subscriptions become confirmed again (the
-- link proves the mailbox, so no new opt-in mail). Never for a blocklisted address.
-- Parameters: subscriber id, list ids or null.
create function public.resubscribe_subscriber(p_subscriber uuid, p_lists uuid[])
returns jsonb
language plpgsql
set search_path = ''
as $$
declare
  who public.subscribers := private.self_service_subscriber(p_subscriber);
begin
  if who.status = 'blocklisted' then
    raise exception 'postbox:conflict: This address is blocked, so it cannot be subscribed again.'
      using errcode = 'P0001';
  end if;
  perform set_config('postbox.source', 'undo', true);
  update public.subscriptions sub set status = 'confirmed'
   where sub.subscriber_id = who.id and sub.status = 'unsubscribed'
     and (p_lists is null or sub.list_id = any (p_lists));
  return public.get_unsubscribe(p_subscriber, p_lists);
end;
$$;

-- What the preferences page shows: every public list, plus the private lists the subscriber has a
-- subscription on (in any state, so a private list switched off can be switched on again).
-- subscribed = pending or confirmed. Parameter: subscriber id. Public lists first, each group in
-- creation order (then by slug, for lists created together).
create function public.get_preferences(p_subscriber uuid)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
declare
  who public.subscribers := private.self_service_subscriber(p_subscriber);
begin
  return jsonb_build_object(
    'email', who.email,
    'name', who.name,
    'lists', coalesce((
      select jsonb_agg(jsonb_build_object('slug', l.slug, 'name', l.name,
          'description', l.description,
          'subscribed', coalesce(sub.status in ('pending', 'confirmed'), false))
        order by l.visibility = 'private', l.created_at, l.slug)
      from public.lists l
      left join public.subscriptions sub on sub.list_id = l.id and sub.subscriber_id = who.id
      where l.visibility = 'public' or sub.subscriber_id is not null
    ), '[]'::jsonb));
end;
$$;

-- Applies a preferences form in one go. Parameters: subscriber id, the new name (null = keep),
-- {slug: bool} (null = no list changes). On = confirmed at once (the link proves the mailbox);
-- off = unsubscribed. An unknown slug, or a private list the subscriber is not on, is
-- list_not_found; switching a list on for a blocklisted address is a conflict. Nothing is written
-- unless everything is valid.
create function public.update_preferences(p_subscriber uuid, p_name text, p_lists jsonb)
returns jsonb
language plpgsql
set search_path = ''
as $$
declare
  who public.subscribers := private.self_service_subscriber(p_subscriber);
  entry record;
  target public.lists;
  current_status text;
begin
  if p_name is not null and not private.is_valid_name(btrim(p_name)) then
    raise exception 'postbox:invalid_input: name: at most 100 characters, no control characters'
      using errcode = 'P0001';
  end if;
  perform set_config('postbox.source', 'preferences', true);
  if p_name is not null then
    update public.subscribers s set name = p_name where s.id = who.id;
  end if;
  for entry in select key, value from jsonb_each(coalesce(p_lists, '{}'::jsonb)) order by key loop
    select * into target from public.lists l where l.slug = entry.key;
    select sub.status into current_status from public.subscriptions sub
     where sub.subscriber_id = who.id and sub.list_id = target.id;
    if target.id is null or (target.visibility = 'private' and current_status is null) then
      raise exception 'postbox:list_not_found' using errcode = 'P0001';
    end if;
    if jsonb_typeof(entry.value) <> 'boolean' then
      raise exception 'postbox:invalid_input: lists: every value must be true or false'
        using errcode = 'P0001';
    end if;
    if entry.value = 'true'::jsonb then
      if current_status is distinct from 'confirmed' and who.status = 'blocklisted' then
        raise exception 'postbox:conflict: This address is blocked, so it cannot be subscribed again.'
          using errcode = 'P0001';
      end if;
      insert into public.subscriptions as sub (subscriber_id, list_id, status)
      values (who.id, target.id, 'confirmed')
      on conflict (subscriber_id, list_id) do update set status = 'confirmed'
        where sub.status <> 'confirmed';
    elsif current_status in ('pending', 'confirmed') then
      update public.subscriptions sub set status = 'unsubscribed'
       where sub.subscriber_id = who.id and sub.list_id = target.id;
    end if;
  end loop;
  return public.get_preferences(p_subscriber);
end;
$$;

-- Everything Postbox holds on one address (the "download my data" button), and an 'exported'
-- event recording that it was handed out. Other people appear only as counts: the referrer and the
-- people this subscriber referred are not named. Deliveries (the campaigns sent to the address)
-- are read when that table exists: it comes with the campaigns, in a later migration.
-- Parameter: subscriber id.
create function public.export_subscriber(p_subscriber uuid)
returns jsonb
language plpgsql
set search_path = ''
as $$
declare
  who public.subscribers := private.self_service_subscriber(p_subscriber);
  result jsonb;
  deliveries jsonb := '[]'::jsonb;
begin
  if to_regclass('public.deliveries') is not null then
    execute 'select coalesce(jsonb_agg(to_jsonb(d) - ''subscriber_id''), ''[]''::jsonb)
               from public.deliveries d where d.subscriber_id = $1'
      into deliveries using who.id;
  end if;
  result := jsonb_build_object(
    'subscriber', jsonb_build_object(
      'id', who.id, 'email', who.email, 'name', who.name, 'attributes', who.attributes,
      'status', who.status, 'created_at', who.created_at, 'updated_at', who.updated_at),
    'referral', jsonb_build_object(
      'code', who.referral_code,
      'referred_by_someone', who.referred_by is not null,
      'referrals', (select count(*) from public.subscribers r where r.referred_by = who.id)),
    'subscriptions', coalesce((
      select jsonb_agg(jsonb_build_object('list', jsonb_build_object('slug', l.slug, 'name', l.name),
          'status', sub.status, 'created_at', sub.created_at, 'confirmed_at', sub.confirmed_at,
          'unsubscribed_at', sub.unsubscribed_at)
        order by l.created_at, l.slug)
      from public.subscriptions sub join public.lists l on l.id = sub.list_id
      where sub.subscriber_id = who.id), '[]'::jsonb),
    'events', coalesce((
      select jsonb_agg(jsonb_build_object('type', e.type, 'data', e.data,
          'campaign_id', e.campaign_id, 'created_at', e.created_at) order by e.id)
      from public.events e where e.subscriber_id = who.id), '[]'::jsonb),
    'deliveries', deliveries);
  insert into public.events (subscriber_id, type, data)
  values (who.id, 'exported', jsonb_build_object('source', 'preferences'));
  return result;
end;
$$;

-- Erases a subscriber: subscriptions and events go with the row (cascade), people they referred
-- lose the link, and the trigger leaves one anonymous 'deleted' event. Rate-limit windows keyed by
-- the address go too, so nothing holding it is left behind. Parameter: subscriber id.
create function public.delete_subscriber_data(p_subscriber uuid)
returns jsonb
language plpgsql
set search_path = ''
as $$
declare
  who public.subscribers := private.self_service_subscriber(p_subscriber);
begin
  perform set_config('postbox.source', 'preferences', true);
  delete from public.subscribers s where s.id = who.id;
  delete from private.rate_limits r where r.key = who.email;
  return jsonb_build_object('deleted', true);
end;
$$;

revoke execute on function private.self_service_subscriber(uuid) from public;
revoke execute on function public.get_unsubscribe(uuid, uuid[]),
  public.unsubscribe_subscriber(uuid, uuid[], text), public.resubscribe_subscriber(uuid, uuid[]),
  public.get_preferences(uuid), public.update_preferences(uuid, text, jsonb),
  public.export_subscriber(uuid), public.delete_subscriber_data(uuid)
  from public, anon, authenticated;
grant execute on function private.self_service_subscriber(uuid) to service_role;
grant execute on function public.get_unsubscribe(uuid, uuid[]),
  public.unsubscribe_subscriber(uuid, uuid[], text), public.resubscribe_subscriber(uuid, uuid[]),
  public.get_preferences(uuid), public.update_preferences(uuid, text, jsonb),
  public.export_subscriber(uuid), public.delete_subscriber_data(uuid)
  to service_role;
