-- The signup side (SPEC §7, issue 4): single-use confirm nonces, the subscribe and confirm writes,
-- waitlist positions (SPEC §9) and the two team writes. Every function here is called by an edge
-- function with the service role only; each one is a single transaction.

-- A confirm link is single-use: its nonce lives here until the link is used (then the row goes).
-- Several links may be outstanding (someone subscribes twice); each works once. Rows older than
-- the link lifetime are useless (the signature has expired) and are deleted in passing.
create table private.confirm_nonces (
  nonce text primary key,
  subscriber_id uuid not null references public.subscribers (id) on delete cascade,
  created_at timestamptz not null default now()
);
comment on table private.confirm_nonces is 'Outstanding confirm links (one row each); using a link deletes its row, so a second use is token_invalid.';
create index confirm_nonces_subscriber_idx on private.confirm_nonces (subscriber_id);
create index confirm_nonces_created_idx on private.confirm_nonces (created_at);
alter table private.confirm_nonces enable row level security;
grant all on private.confirm_nonces to service_role;

-- Waitlist ranking (SPEC §9) reads confirmed subscriptions of one list in confirmation order.
create index subscriptions_confirmed_rank_idx on public.subscriptions (list_id, confirmed_at, subscriber_id)
  where status = 'confirmed';

-- What outgoing mail needs from settings, so a function gets it in the same round trip.
create function private.mail_settings()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object('site_name', s.site_name, 'sender_name', s.sender_name,
    'sender_email', s.sender_email, 'reply_to', s.reply_to, 'postal_address', s.postal_address)
  from public.settings s where s.id
$$;

-- The SPEC §9 position of one subscriber on one waitlist list: confirmed referrals (desc), then
-- confirmation time (asc), then id. Set-based without ranking the whole list: the ones ahead are
-- (a) referrers with more confirmed referrals, (b) referrers with as many and an earlier
-- confirmation, and, when I have none, (c) everyone confirmed before me (an index range count on
-- subscriptions_confirmed_rank_idx) less the referrers among them already counted. Only subscribers
-- with confirmed referrals are aggregated, so the cost follows the referrals, not the list size.
-- Confirmed implies enabled: blocklisting unsubscribes from every list and a blocklisted subscriber
-- cannot be confirmed (triggers on subscriptions/subscribers), so the range count needs no join.
create function private.waitlist_standing(p_list uuid, p_subscriber uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  me record;
  my_refs integer;
  ahead integer;
  total integer;
begin
  select count(*) into my_refs
  from public.subscribers r
  join public.subscriptions rs on rs.subscriber_id = r.id and rs.list_id = p_list and rs.status = 'confirmed'
  where r.referred_by = p_subscriber;

  select count(*) into total from public.subscriptions s where s.list_id = p_list and s.status = 'confirmed';

  select s.status, s.confirmed_at into me
  from public.subscriptions s join public.subscribers u on u.id = s.subscriber_id
  where s.list_id = p_list and s.subscriber_id = p_subscriber and u.status = 'enabled'
    and s.status = 'confirmed';
  if not found then
    return jsonb_build_object('position', null, 'total', total, 'referrals', my_refs);
  end if;

  with referrers as (
    select r.referred_by as id, count(*)::integer as refs
    from public.subscribers r
    join public.subscriptions rs on rs.subscriber_id = r.id and rs.list_id = p_list and rs.status = 'confirmed'
    where r.referred_by is not null
    group by r.referred_by
  ), ranked as (
    select f.id, f.refs, s.confirmed_at
    from referrers f
    join public.subscriptions s on s.subscriber_id = f.id and s.list_id = p_list and s.status = 'confirmed'
  )
  select
    count(*) filter (where r.refs > my_refs
      or (r.refs = my_refs and (r.confirmed_at, r.id) < (me.confirmed_at, p_subscriber)))
    - case when my_refs = 0
        then count(*) filter (where (r.confirmed_at, r.id) < (me.confirmed_at, p_subscriber))
        else 0 end
  into ahead
  from ranked r;

  if my_refs = 0 then
    ahead := ahead + (select count(*) from public.subscriptions s
      where s.list_id = p_list and s.status = 'confirmed'
        and (s.confirmed_at, s.subscriber_id) < (me.confirmed_at, p_subscriber));
  end if;
  return jsonb_build_object('position', ahead + 1, 'total', total, 'referrals', my_refs);
end;
$$;

-- The lists a signup names (none = the main list: the oldest public one; lists created together,
-- as a seed makes them, are told apart by non-waitlist first, then slug) and whether every one is
-- single opt-in. An unknown or private slug is list_not_found.
create function private.signup_lists(p_lists text[], out ids uuid[], out all_single boolean)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  wanted integer;
begin
  if p_lists is null or cardinality(p_lists) = 0 then
    select array[l.id], l.optin = 'single' into ids, all_single
    from public.lists l where l.visibility = 'public' order by l.created_at, l.waitlist, l.slug limit 1;
  else
    select count(distinct x) into wanted from unnest(p_lists) x;
    select array_agg(l.id order by l.created_at, l.id), bool_and(l.optin = 'single') into ids, all_single
    from public.lists l where l.slug = any (p_lists) and l.visibility = 'public';
    if coalesce(cardinality(ids), 0) <> wanted then
      ids := null;
    end if;
  end if;
  if ids is null then
    raise exception 'postbox:list_not_found' using errcode = 'P0001';
  end if;
end;
$$;

-- What subscribe answers without writing anything (the honeypot path): the status for these lists.
create function public.signup_status(p_lists text[])
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select case when r.all_single then 'confirmed' else 'pending' end from private.signup_lists(p_lists) r
$$;

-- subscribe (SPEC §7): resolves the lists, upserts the subscriber and the subscriptions and, when
-- a double opt-in list is pending, stores a fresh confirm nonce. The answer's `status` depends on
-- the lists only; `mail` is null when nothing is to be sent (blocklisted, or nothing pending), and
-- the caller never learns whether the address was known.
create function public.subscribe_visitor(p_email text, p_name text, p_lists text[], p_ref text, p_attributes jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  chosen uuid[];
  all_single boolean;
  sub record;
  referrer uuid;
  pending uuid[];
  new_nonce text;
begin
  perform set_config('postbox.source', 'form', true);
  select r.ids, r.all_single into chosen, all_single from private.signup_lists(p_lists) r;
  if p_attributes is not null and not private.is_valid_attributes(p_attributes) then
    raise exception 'postbox:invalid_input: attributes: a JSON object of at most 4 KB' using errcode = 'P0001';
  end if;

  if p_ref is not null and p_ref <> '' then
    select r.id into referrer from public.subscribers r where r.referral_code = p_ref;
  end if;

  insert into public.subscribers (email, name, attributes, referred_by)
  values (p_email, coalesce(p_name, ''), coalesce(p_attributes, '{}'), referrer)
  on conflict (email) do nothing
  returning id, status into sub;
  if not found then
    -- A known address: a visitor may add what is missing, never overwrite or re-enable.
    select s.id, s.status into sub from public.subscribers s where s.email = lower(btrim(p_email)) for update;
    if sub.status = 'blocklisted' then
      return jsonb_build_object('status', case when all_single then 'confirmed' else 'pending' end, 'mail', null);
    end if;
    update public.subscribers s set
      name = case when s.name = '' and coalesce(p_name, '') <> '' then p_name else s.name end,
      attributes = case
        when p_attributes is null or p_attributes = '{}'::jsonb then s.attributes
        when octet_length((p_attributes || s.attributes)::text) <= 4096 then p_attributes || s.attributes
        else s.attributes end
    where s.id = sub.id
      and ((s.name = '' and coalesce(p_name, '') <> '')
        or (p_attributes is not null and p_attributes <> '{}'::jsonb and not s.attributes @> p_attributes));
  end if;

  insert into public.subscriptions as cur (subscriber_id, list_id, status)
  select sub.id, l.id, case when l.optin = 'single' then 'confirmed' else 'pending' end
  from public.lists l where l.id = any (chosen)
  on conflict (subscriber_id, list_id) do update set status = excluded.status
  where cur.status = 'unsubscribed' or (cur.status = 'pending' and excluded.status = 'confirmed');

  select array_agg(s.list_id order by s.list_id) into pending
  from public.subscriptions s where s.subscriber_id = sub.id and s.list_id = any (chosen) and s.status = 'pending';

  if pending is not null then
    new_nonce := encode(extensions.gen_random_bytes(16), 'hex');
    insert into private.confirm_nonces (nonce, subscriber_id) values (new_nonce, sub.id);
    if random() < 0.01 then
      delete from private.confirm_nonces where created_at < now() - interval '8 days';
    end if;
  end if;

  return jsonb_build_object(
    'status', case when all_single then 'confirmed' else 'pending' end,
    'mail', case when pending is null then null else jsonb_build_object(
      'subscriber_id', sub.id,
      'email', (select s.email from public.subscribers s where s.id = sub.id),
      'lists', pending,
      'list_names', (select jsonb_agg(l.name order by l.created_at, l.id) from public.lists l where l.id = any (pending)),
      'nonce', new_nonce,
      'settings', private.mail_settings()) end);
end;
$$;

-- confirm (SPEC §7): uses the nonce once, confirms the token's pending subscriptions of an enabled
-- subscriber, and answers what the page and the welcome mail need.
create function public.confirm_signup(p_subscriber uuid, p_lists uuid[], p_nonce text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  sub record;
  newly integer;
  wl record;
  has_waitlist boolean;
begin
  perform set_config('postbox.source', 'confirm-link', true);
  delete from private.confirm_nonces n where n.nonce = p_nonce and n.subscriber_id = p_subscriber;
  if not found then
    raise exception 'postbox:token_invalid' using errcode = 'P0001';
  end if;
  select s.id, s.email, s.status, s.referral_code into sub from public.subscribers s where s.id = p_subscriber;
  if not found or sub.status <> 'enabled' then
    raise exception 'postbox:token_invalid' using errcode = 'P0001';
  end if;

  update public.subscriptions s set status = 'confirmed'
  where s.subscriber_id = p_subscriber and s.list_id = any (p_lists) and s.status = 'pending';
  get diagnostics newly = row_count;

  select l.id, l.slug, l.name into wl
  from public.subscriptions s join public.lists l on l.id = s.list_id
  where s.subscriber_id = p_subscriber and s.list_id = any (p_lists) and s.status = 'confirmed' and l.waitlist
  order by l.created_at, l.id limit 1;
  has_waitlist := found;

  return jsonb_build_object(
    'subscriber_id', sub.id,
    'email', sub.email,
    'newly_confirmed', newly,
    'lists', coalesce((select jsonb_agg(jsonb_build_object('slug', l.slug, 'name', l.name) order by l.created_at, l.id)
      from public.subscriptions s join public.lists l on l.id = s.list_id
      where s.subscriber_id = p_subscriber and s.list_id = any (p_lists) and s.status = 'confirmed'), '[]'::jsonb),
    'waitlist', case when not has_waitlist then null else
      jsonb_build_object('list', jsonb_build_object('slug', wl.slug, 'name', wl.name), 'code', sub.referral_code)
      || private.waitlist_standing(wl.id, p_subscriber) end,
    'settings', private.mail_settings());
end;
$$;

-- waitlist (SPEC §7): a referral code's standing on a waitlist list (the named one, else the
-- subscriber's oldest waitlist list). Unknown code, blocklisted subscriber or no live waitlist
-- subscription: not_found.
create function public.waitlist_status(p_code text, p_list text)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  sub record;
  wl record;
begin
  select s.id, s.referral_code into sub from public.subscribers s
  where s.referral_code = p_code and s.status = 'enabled';
  if not found then
    raise exception 'postbox:not_found: No waitlist place has that code.' using errcode = 'P0001';
  end if;
  select l.id, l.slug, l.name, s.status into wl
  from public.subscriptions s join public.lists l on l.id = s.list_id
  where s.subscriber_id = sub.id and l.waitlist and s.status in ('pending', 'confirmed')
    and (p_list is null or l.slug = p_list)
  order by l.created_at, l.id limit 1;
  if not found then
    raise exception 'postbox:not_found: No waitlist place has that code.' using errcode = 'P0001';
  end if;
  return jsonb_build_object('list', jsonb_build_object('slug', wl.slug, 'name', wl.name),
    'status', wl.status, 'code', sub.referral_code) || private.waitlist_standing(wl.id, sub.id);
end;
$$;

-- invite-member: who the address is in auth and whether they are on the team already.
create function public.member_candidate(p_email text)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'user_id', (select u.id from auth.users u where lower(u.email) = lower(btrim(p_email)) limit 1),
    'is_member', exists (select 1 from public.members m
      where lower(m.email) = lower(btrim(p_email))
         or m.user_id = (select u.id from auth.users u where lower(u.email) = lower(btrim(p_email)) limit 1)))
$$;

-- invite-member: adds the row; a member already there is a conflict.
create function public.add_member(p_user_id uuid, p_email text, p_role text, p_invited_by uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.members (user_id, email, role, invited_by)
  values (p_user_id, lower(btrim(p_email)), p_role, p_invited_by)
  on conflict (user_id) do nothing;
  if not found then
    raise exception 'postbox:conflict: That person is already on the team.' using errcode = 'P0001';
  end if;
  return jsonb_build_object('user_id', p_user_id, 'email', lower(btrim(p_email)), 'role', p_role);
end;
$$;

-- claim-owner: the POSTBOX_OWNER_EMAIL user becomes (or stays) owner; calling it again is harmless.
create function public.claim_owner(p_user_id uuid, p_email text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  m record;
begin
  insert into public.members as cur (user_id, email, role)
  values (p_user_id, lower(btrim(p_email)), 'owner')
  on conflict (user_id) do update set role = 'owner', email = excluded.email
  where cur.role <> 'owner' or cur.email <> excluded.email
  returning user_id, email, role into m;
  if not found then
    select cur.user_id, cur.email, cur.role into m from public.members cur where cur.user_id = p_user_id;
  end if;
  return jsonb_build_object('user_id', m.user_id, 'email', m.email, 'role', m.role);
end;
$$;

revoke execute on function private.mail_settings(), private.waitlist_standing(uuid, uuid),
  private.signup_lists(text[]) from public;
revoke execute on function public.subscribe_visitor(text, text, text[], text, jsonb), public.signup_status(text[]),
  public.confirm_signup(uuid, uuid[], text), public.waitlist_status(text, text),
  public.member_candidate(text), public.add_member(uuid, text, text, uuid),
  public.claim_owner(uuid, text) from public, anon, authenticated;
grant execute on function public.subscribe_visitor(text, text, text[], text, jsonb), public.signup_status(text[]),
  public.confirm_signup(uuid, uuid[], text), public.waitlist_status(text, text),
  public.member_candidate(text), public.add_member(uuid, text, text, uuid),
  public.claim_owner(uuid, text) to service_role;
