-- Issue 23 (Waitlist): a confirm link opened a second time shows the subscriber's current state
-- instead of "This link is not valid". Using a link now marks its nonce used (used_at) instead of
-- deleting it, so a later click can prove it is the same link (the token is signed with the
-- subscriber id and nonce, and the used row still pairs them) without re-applying anything. Rows
-- are purged after 8 days as before; the token itself expires after 7, so expiry is unchanged.

alter table private.confirm_nonces add column used_at timestamptz;
comment on column private.confirm_nonces.used_at is 'When the link was used; a used link answers the current state read-only (nothing is applied twice).';
comment on table private.confirm_nonces is 'Confirm links mailed (one row each, purged after 8 days). Using a link sets used_at; a second use changes nothing and answers the current state.';

-- confirm (SPEC §7): the first use of a nonce applies its change set (a known address's
-- submission) and confirms the token's pending subscriptions; a later use of the same nonce writes
-- nothing and answers the same shape with `already: true`. Lists answered are the token's lists
-- confirmed now (after an unsubscribe, fewer or none).
create or replace function public.confirm_signup(p_subscriber uuid, p_lists uuid[], p_nonce text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  sub record;
  change jsonb;
  reused boolean := false;
  newly integer := 0;
  applied integer := 0;
  code text;
  wl record;
  has_waitlist boolean;
begin
  perform set_config('postbox.source', 'confirm-link', true);
  select s.id, s.email, s.status into sub from public.subscribers s where s.id = p_subscriber;
  if not found or sub.status <> 'enabled' then
    raise exception 'postbox:token_invalid' using errcode = 'P0001';
  end if;

  update private.confirm_nonces n set used_at = now()
  where n.nonce = p_nonce and n.subscriber_id = p_subscriber and n.used_at is null
  returning n.changes into change;
  if not found then
    if not exists (select 1 from private.confirm_nonces n
        where n.nonce = p_nonce and n.subscriber_id = p_subscriber) then
      raise exception 'postbox:token_invalid' using errcode = 'P0001';
    end if;
    reused := true;
  end if;

  if not reused and (change ? 'name' or change ? 'attributes') then
    update public.subscribers s set
      name = coalesce(change->>'name', s.name),
      -- What was submitted wins over what is stored; a merge over the 4 KB limit keeps the old.
      attributes = case
        when change ? 'attributes' and octet_length((s.attributes || (change->'attributes'))::text) <= 4096
          then s.attributes || (change->'attributes')
        else s.attributes end
    where s.id = p_subscriber;
  end if;

  if not reused and change ? 'lists' then
    -- Lists since deleted or made private are left out, as the form would refuse them now.
    insert into public.subscriptions as cur (subscriber_id, list_id, status)
    select p_subscriber, l.id, 'confirmed' from public.lists l
    where l.id = any (p_lists) and l.visibility = 'public'
      and l.id in (select x::uuid from jsonb_array_elements_text(change->'lists') x)
    on conflict (subscriber_id, list_id) do update set status = 'confirmed'
    where cur.status <> 'confirmed';
    get diagnostics applied = row_count;
  end if;

  if not reused then
    update public.subscriptions s set status = 'confirmed'
    where s.subscriber_id = p_subscriber and s.list_id = any (p_lists) and s.status = 'pending';
    get diagnostics newly = row_count;
    newly := newly + applied;
  end if;

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
    'already', reused,
    'updated', not reused and coalesce(change ? 'name' or change ? 'attributes', false),
    'lists', coalesce((select jsonb_agg(jsonb_build_object('slug', l.slug, 'name', l.name) order by l.created_at, l.id)
      from public.subscriptions s join public.lists l on l.id = s.list_id
      where s.subscriber_id = p_subscriber and s.list_id = any (p_lists) and s.status = 'confirmed'), '[]'::jsonb),
    'waitlist', case when not has_waitlist then null else
      jsonb_build_object('list', jsonb_build_object('slug', wl.slug, 'name', wl.name), 'code', code)
      || private.waitlist_standing(wl.id, p_subscriber) end,
    'settings', private.mail_settings());
end;
$$;
