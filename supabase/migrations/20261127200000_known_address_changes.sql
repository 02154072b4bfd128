-- subscribe for an address that already exists (issue 20 finding 2, issue 21 "Already
-- subscribed"): nothing the form submitted (name, attributes, lists) is applied until the owner of
-- the mailbox follows an emailed link. The submission is kept as the change set of a confirm
-- nonce; the confirm link that carries that nonce applies exactly it. A new address is written at
-- once, as before: there is no one else's data to protect.

alter table private.confirm_nonces add column changes jsonb
  check (changes is null or jsonb_typeof(changes) = 'object');
comment on column private.confirm_nonces.changes is 'For a link mailed to a known address: what the form asked for, applied when the link is used: {name?, attributes?, lists?: [list id]}. Null for a new address (its rows are already written).';

-- The answer's `status` depends on the lists only, and `mail` is null only for a blocklisted
-- address or a new one on single opt-in lists, so the caller never learns whether the address was
-- known. `mail.kind`:
--   confirm             a new address with pending lists, or a known address with no confirmed
--                       subscription: the double opt-in email (its link applies the changes);
--   already_subscribed  a known address confirmed on some list: the short notice with the
--                       preferences link and, when the form changed something, a link applying it.
create or replace function public.subscribe_visitor(p_email text, p_name text, p_lists text[], p_ref text, p_attributes jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  chosen uuid[];
  all_single boolean;
  answer text;
  sub record;
  referrer uuid;
  pending uuid[];
  wanted uuid[];
  changes jsonb;
  new_nonce text;
  is_confirmed boolean;
begin
  perform set_config('postbox.source', 'form', true);
  select r.ids, r.all_single into chosen, all_single from private.signup_lists(p_lists) r;
  answer := case when all_single then 'confirmed' else 'pending' end;
  if p_attributes is not null and not private.is_valid_attributes(p_attributes) then
    raise exception 'postbox:invalid_input: attributes: a JSON object of at most 4 KB' using errcode = 'P0001';
  end if;

  if p_ref is not null and p_ref <> '' then
    select r.id into referrer from public.subscribers r where r.referral_code = p_ref;
  end if;

  insert into public.subscribers (email, name, attributes, referred_by)
  values (p_email, coalesce(p_name, ''), coalesce(p_attributes, '{}'), referrer)
  on conflict (email) do nothing
  returning id, email into sub;

  if found then
    -- A new address: written at once, single opt-in lists confirmed, the rest pending.
    insert into public.subscriptions (subscriber_id, list_id, status)
    select sub.id, l.id, case when l.optin = 'single' then 'confirmed' else 'pending' end
    from public.lists l where l.id = any (chosen);
    select array_agg(s.list_id order by s.list_id) into pending
    from public.subscriptions s where s.subscriber_id = sub.id and s.status = 'pending';
    if pending is null then
      return jsonb_build_object('status', answer, 'mail', null);
    end if;
    wanted := pending;
  else
    -- A known address: nothing is written. What the form asked for that is not already so
    -- becomes the change set of a mailed link.
    select s.id, s.email, s.status, s.name, s.attributes into sub
    from public.subscribers s where s.email = lower(btrim(p_email));
    if sub.status = 'blocklisted' then
      return jsonb_build_object('status', answer, 'mail', null);
    end if;
    select array_agg(l.id order by l.created_at, l.id) into wanted
    from public.lists l
    where l.id = any (chosen) and not exists (select 1 from public.subscriptions s
      where s.subscriber_id = sub.id and s.list_id = l.id and s.status = 'confirmed');
    changes := jsonb_strip_nulls(jsonb_build_object(
      'name', case when coalesce(p_name, '') <> '' and p_name <> sub.name then p_name end,
      'attributes', case when p_attributes is not null and p_attributes <> '{}'::jsonb
        and not sub.attributes @> p_attributes then p_attributes end,
      'lists', to_jsonb(wanted)));
    is_confirmed := exists (select 1 from public.subscriptions s
      where s.subscriber_id = sub.id and s.status = 'confirmed');
  end if;

  if changes is null or changes <> '{}'::jsonb then
    new_nonce := encode(extensions.gen_random_bytes(16), 'hex');
    insert into private.confirm_nonces (nonce, subscriber_id, changes)
    values (new_nonce, sub.id, changes);
    if random() < 0.01 then
      delete from private.confirm_nonces where created_at < now() - interval '8 days';
    end if;
  end if;

  if coalesce(is_confirmed, false) then
    return jsonb_build_object('status', answer, 'mail', jsonb_build_object(
      'kind', 'already_subscribed',
      'subscriber_id', sub.id,
      'email', sub.email,
      -- The link's lists: every chosen one, so the page names them all once applied.
      'lists', (select jsonb_agg(l.id order by l.created_at, l.id) from public.lists l where l.id = any (chosen)),
      'subscribed_names', (select jsonb_agg(l.name order by l.created_at, l.id)
        from public.subscriptions s join public.lists l on l.id = s.list_id
        where s.subscriber_id = sub.id and s.status = 'confirmed'),
      'changes', case when new_nonce is null then null else jsonb_build_object(
        'name', changes ? 'name',
        'attributes', changes ? 'attributes',
        'list_names', coalesce((select jsonb_agg(l.name order by l.created_at, l.id)
          from public.lists l where l.id = any (wanted)), '[]'::jsonb)) end,
      'nonce', new_nonce,
      'settings', private.mail_settings()));
  end if;

  return jsonb_build_object('status', answer, 'mail', jsonb_build_object(
    'kind', 'confirm',
    'subscriber_id', sub.id,
    'email', sub.email,
    'lists', to_jsonb(wanted),
    'list_names', (select jsonb_agg(l.name order by l.created_at, l.id) from public.lists l where l.id = any (wanted)),
    'nonce', new_nonce,
    'settings', private.mail_settings()));
end;
$$;

-- confirm (SPEC §7): uses the nonce once; applies its change set (a known address's submission:
-- name, attributes merged over the stored ones, lists confirmed whatever their state); confirms
-- the token's pending subscriptions; answers what the page and the welcome mail need.
create or replace function public.confirm_signup(p_subscriber uuid, p_lists uuid[], p_nonce text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  sub record;
  change jsonb;
  newly integer := 0;
  applied integer := 0;
  code text;
  wl record;
  has_waitlist boolean;
begin
  perform set_config('postbox.source', 'confirm-link', true);
  delete from private.confirm_nonces n where n.nonce = p_nonce and n.subscriber_id = p_subscriber
  returning n.changes into change;
  if not found then
    raise exception 'postbox:token_invalid' using errcode = 'P0001';
  end if;
  select s.id, s.email, s.status into sub from public.subscribers s where s.id = p_subscriber;
  if not found or sub.status <> 'enabled' then
    raise exception 'postbox:token_invalid' using errcode = 'P0001';
  end if;

  if change ? 'name' or change ? 'attributes' then
    update public.subscribers s set
      name = coalesce(change->>'name', s.name),
      -- What was submitted wins over what is stored; a merge over the 4 KB limit keeps the old.
      attributes = case
        when change ? 'attributes' and octet_length((s.attributes || (change->'attributes'))::text) <= 4096
          then s.attributes || (change->'attributes')
        else s.attributes end
    where s.id = p_subscriber;
  end if;

  if change ? 'lists' then
    -- Lists since deleted or made private are left out, as the form would refuse them now.
    insert into public.subscriptions as cur (subscriber_id, list_id, status)
    select p_subscriber, l.id, 'confirmed' from public.lists l
    where l.id = any (p_lists) and l.visibility = 'public'
      and l.id in (select x::uuid from jsonb_array_elements_text(change->'lists') x)
    on conflict (subscriber_id, list_id) do update set status = 'confirmed'
    where cur.status <> 'confirmed';
    get diagnostics applied = row_count;
  end if;

  update public.subscriptions s set status = 'confirmed'
  where s.subscriber_id = p_subscriber and s.list_id = any (p_lists) and s.status = 'pending';
  get diagnostics newly = row_count;
  newly := newly + applied;

  -- Referral codes come with a waitlist subscription (a trigger); read it after the writes.
  select s.referral_code into code from public.subscribers s where s.id = p_subscriber;

  select l.id, l.slug, l.name into wl
  from public.subscriptions s join public.lists l on l.id = s.list_id
  where s.subscriber_id = p_subscriber and s.list_id = any (p_lists) and s.status = 'confirmed' and l.waitlist
  order by l.created_at, l.id limit 1;
  has_waitlist := found;

  return jsonb_build_object(
    'subscriber_id', sub.id,
    'email', sub.email,
    'newly_confirmed', newly,
    'updated', coalesce(change ? 'name' or change ? 'attributes', false),
    'lists', coalesce((select jsonb_agg(jsonb_build_object('slug', l.slug, 'name', l.name) order by l.created_at, l.id)
      from public.subscriptions s join public.lists l on l.id = s.list_id
      where s.subscriber_id = p_subscriber and s.list_id = any (p_lists) and s.status = 'confirmed'), '[]'::jsonb),
    'waitlist', case when not has_waitlist then null else
      jsonb_build_object('list', jsonb_build_object('slug', wl.slug, 'name', wl.name), 'code', code)
      || private.waitlist_standing(wl.id, p_subscriber) end,
    'settings', private.mail_settings());
end;
$$;
