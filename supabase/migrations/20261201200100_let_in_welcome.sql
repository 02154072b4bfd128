-- Let in, optionally with the target list's welcome (issue 23, Waitlist): "People let in get the
-- access email only, not the target list's welcome as well (unless the admin chooses it)". The
-- welcome follows a confirm link only, one reader at a time; to send it to everyone a Let in moved
-- (up to 10,000) it goes out the way the team's confirmation resends do: a row in
-- confirmation_sends, now of kind 'welcome' with the list, whose items the resend-confirmation
-- function mails at the send rate, with progress the admin watches. Let in's "top N" also follows
-- the line with reward jumps (private.waitlist_places, 20261201200000).

alter table public.confirmation_sends
  add column kind text not null default 'confirmation' check (kind in ('confirmation', 'welcome')),
  add column list_id uuid references public.lists (id) on delete cascade,
  add constraint confirmation_sends_welcome_list check ((kind = 'welcome') = (list_id is not null));
comment on table public.confirmation_sends is 'A send of a system email with its progress: the confirmation email again to pending subscribers (kind confirmation), or a list''s welcome to the people a Let in moved onto it (kind welcome). Written only by the resend-confirmation function (service role), by triggers on imports and by let_in_from_waitlist.';
comment on column public.confirmation_sends.kind is 'confirmation: the confirm link to pending subscribers; welcome: list_id''s welcome.';
comment on column public.confirmation_sends.list_id is 'The list whose welcome a welcome send mails.';
comment on column public.confirmation_sends.skipped is 'Not mailed: no longer pending (a welcome: no longer confirmed on the list), blocklisted or deleted by the time its turn came.';

-- A welcome send to `p_subscribers` on `p_list`, queued and started at once. Security definer (the
-- sends are written by the service role only), so it checks the caller itself.
create function private.queue_welcome_send(p_list uuid, p_subscribers uuid[])
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  new_id uuid;
begin
  if not private.has_role('admin') then
    raise exception using errcode = 'PT403', message = 'postbox:forbidden: You do not have permission to do that.';
  end if;
  insert into public.confirmation_sends (kind, list_id, status, total, created_by)
  values ('welcome', p_list, 'queued', cardinality(p_subscribers), auth.uid())
  returning id into new_id;
  insert into private.confirmation_send_items (send_id, subscriber_id)
  select new_id, s from unnest(p_subscribers) s
  on conflict do nothing;
  perform private.kick_confirmation_sends();
  return new_id;
end;
$$;
revoke execute on function private.queue_welcome_send(uuid, uuid[]) from public;
grant execute on function private.queue_welcome_send(uuid, uuid[]) to authenticated;

-- The batch of a send. A confirmation send as before (20261128600000); a welcome send takes those
-- still enabled and confirmed on its list, with no per-address limit (a Let in moves a reader once)
-- and no link to make: {subscriber_id, email, list_names}.
create or replace function public.take_confirmation_batch(p_send uuid, p_token uuid, p_limit integer,
  p_lease_seconds integer)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  send public.confirmation_sends;
  taken uuid[];
  sub record;
  mails jsonb := '[]'::jsonb;
  n_limited integer := 0;
  n_skipped integer := 0;
  new_nonce text;
begin
  update public.confirmation_sends
     set lease_until = clock_timestamp() + make_interval(secs => p_lease_seconds)
   where id = p_send and status = 'running' and lease_token = p_token
  returning * into send;
  if send.id is null then
    raise exception 'postbox:conflict: This send is not held by this run.' using errcode = 'P0001';
  end if;

  with gone as (
    delete from private.confirmation_send_items i
     where i.send_id = p_send and i.subscriber_id in (
       select j.subscriber_id from private.confirmation_send_items j
        where j.send_id = p_send order by j.subscriber_id limit greatest(p_limit, 1)
        for update skip locked)
    returning i.subscriber_id)
  select array_agg(subscriber_id order by subscriber_id) into taken from gone;

  if send.kind = 'welcome' then
    select coalesce(jsonb_agg(jsonb_build_object('subscriber_id', s.id, 'email', s.email,
             'list_names', jsonb_build_array(l.name)) order by s.id), '[]'::jsonb)
      into mails
      from unnest(coalesce(taken, '{}'::uuid[])) t(id)
      join public.subscribers s on s.id = t.id and s.status = 'enabled'
      join public.subscriptions x on x.subscriber_id = s.id and x.list_id = send.list_id
                                 and x.status = 'confirmed'
      join public.lists l on l.id = send.list_id;
    n_skipped := coalesce(cardinality(taken), 0) - jsonb_array_length(mails);
  else
    for sub in
      select t.id as taken_id, s.id, s.email,
             (select array_agg(x.list_id order by l.created_at, l.id)
                from public.subscriptions x join public.lists l on l.id = x.list_id
               where x.subscriber_id = s.id and x.status = 'pending') as lists,
             (select jsonb_agg(l.name order by l.created_at, l.id)
                from public.subscriptions x join public.lists l on l.id = x.list_id
               where x.subscriber_id = s.id and x.status = 'pending') as list_names
        from unnest(coalesce(taken, '{}'::uuid[])) t(id)
        left join public.subscribers s on s.id = t.id and s.status = 'enabled'
    loop
      if sub.id is null or sub.lists is null then
        n_skipped := n_skipped + 1;
      elsif public.hit_rate_limit('subscribe:email', sub.email, 5, 600) > 0 then
        n_limited := n_limited + 1;
      else
        new_nonce := encode(extensions.gen_random_bytes(16), 'hex');
        insert into private.confirm_nonces (nonce, subscriber_id) values (new_nonce, sub.id);
        mails := mails || jsonb_build_object('subscriber_id', sub.id, 'email', sub.email,
          'lists', to_jsonb(sub.lists), 'list_names', sub.list_names, 'nonce', new_nonce);
      end if;
    end loop;
  end if;

  update public.confirmation_sends
     set limited = limited + n_limited, skipped = skipped + n_skipped
   where id = p_send;
  return jsonb_build_object('mails', mails, 'settings', private.mail_settings(),
    'remaining', (select count(*) from private.confirmation_send_items i where i.send_id = p_send));
end;
$$;
comment on function public.take_confirmation_batch(uuid, uuid, integer, integer) is 'Service role only (resend-confirmation): the next addresses of a send; a confirmation send''s are rate-limited per address and get fresh confirm nonces.';

drop function public.let_in_from_waitlist(uuid, uuid, integer, uuid[], boolean);

-- Let in (20261201100000), now with p_welcome: the target list's welcome to everyone this Let in
-- subscribed to it (not to those already confirmed there). Answers {let_in, campaign_id,
-- welcome_send_id}.
create function public.let_in_from_waitlist(
  p_list uuid,
  p_target uuid,
  p_top integer default null,
  p_subscribers uuid[] default null,
  p_access_email boolean default false,
  p_welcome boolean default false)
returns jsonb
language plpgsql
security invoker
set search_path = ''
as $$
declare
  chosen uuid[];
  joined uuid[];
  moved integer;
  waitlist_name text;
  target_name text;
  label text;
  tag_id uuid;
  segment_id uuid;
  campaign_id uuid;
  welcome_id uuid;
  tag_rules jsonb;
  n integer := 1;
begin
  if not private.has_role('admin') then
    raise exception using errcode = 'PT403', message = 'postbox:forbidden: You do not have permission to do that.';
  end if;
  select l.name into waitlist_name from public.lists l where l.id = p_list and l.waitlist;
  if waitlist_name is null then
    raise exception using errcode = 'PT404', message = 'postbox:list_not_found: That waitlist does not exist.';
  end if;
  select l.name into target_name from public.lists l where l.id = p_target and l.id <> p_list;
  if target_name is null then
    raise exception using errcode = 'P0001', message = 'postbox:invalid_input: target: another list';
  end if;
  if (p_top is null) = (p_subscribers is null) then
    raise exception using errcode = 'P0001', message = 'postbox:invalid_input: top: either top or subscribers';
  end if;
  if coalesce(p_top, cardinality(p_subscribers)) not between 1 and 10000 then
    raise exception using errcode = 'P0001', message = 'postbox:invalid_input: top: between 1 and 10,000 people';
  end if;
  perform set_config('postbox.source', 'let-in', true);

  if p_subscribers is null then
    select array_agg(w.subscriber_id order by w.place) into chosen
      from (select w.subscriber_id, w.place from private.waitlist_places(p_list) w
             order by w.place limit p_top) w;
  else
    select array_agg(s.subscriber_id) into chosen from public.subscriptions s
     where s.list_id = p_list and s.status = 'confirmed' and s.subscriber_id = any (p_subscribers);
  end if;
  if chosen is null then
    return jsonb_build_object('let_in', 0, 'campaign_id', null, 'welcome_send_id', null);
  end if;

  with joined_rows as (
    insert into public.subscriptions as cur (subscriber_id, list_id, status)
    select c, p_target, 'confirmed' from unnest(chosen) c
    on conflict (subscriber_id, list_id) do update set status = 'confirmed'
    where cur.status <> 'confirmed'
    returning cur.subscriber_id)
  select array_agg(j.subscriber_id) into joined from joined_rows j;

  update public.subscriptions s set status = 'unsubscribed'
  where s.list_id = p_list and s.subscriber_id = any (chosen) and s.status = 'confirmed';
  get diagnostics moved = row_count;

  if p_welcome and joined is not null then
    welcome_id := private.queue_welcome_send(p_target, joined);
  end if;

  if p_access_email then
    -- One tag per let-in, named for the waitlist and the moment (a tag name holds no comma or
    -- semicolon and at most 64 characters; a second let-in in the same second gets " (2)").
    label := format('Let in: %s %s', left(btrim(translate(waitlist_name, ',;', '  ')), 34),
      to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS'));
    loop
      insert into public.tags (name)
      values (case when n = 1 then label else format('%s (%s)', label, n) end)
      on conflict do nothing
      returning id into tag_id;
      exit when tag_id is not null;
      n := n + 1;
    end loop;
    if n > 1 then
      label := format('%s (%s)', label, n);
    end if;
    insert into public.subscriber_tags (subscriber_id, tag_id)
    select c, tag_id from unnest(chosen) c;

    tag_rules := jsonb_build_object('match', 'all', 'rules', jsonb_build_array(
      jsonb_build_object('field', 'tag', 'op', 'has', 'value', tag_id)));
    insert into public.segments (name, rules) values (label, tag_rules)
    on conflict do nothing
    returning id into segment_id;
    if segment_id is null then
      -- A segment the team named like this already exists: keep it, save ours beside it.
      insert into public.segments (name, rules)
      values (left(label || ' ' || left(tag_id::text, 8), 100), tag_rules)
      returning id into segment_id;
    end if;

    insert into public.campaigns (name, subject, preheader, body_md)
    values (
      left(format('Access email: %s', label), 200),
      'You''re in: {{ site.name }}',
      left(format('Your wait on the %s list is over.', waitlist_name), 200),
      format(E'Hi {{ subscriber.name | default: "there" }},\n\n'
        'Good news: your place on the %s waitlist came up, and you''re in.\n\n'
        '**How to get started:** write here what they do next: a link, a code, the first steps.\n\n'
        'Thank you for waiting, and for every friend you brought along.', waitlist_name))
    returning id into campaign_id;
    insert into public.campaign_lists (campaign_id, list_id) values (campaign_id, p_target);
    insert into public.campaign_segments (campaign_id, segment_id, mode)
    values (campaign_id, segment_id, 'include');
  end if;
  return jsonb_build_object('let_in', moved, 'campaign_id', campaign_id, 'welcome_send_id', welcome_id);
end;
$$;
comment on function public.let_in_from_waitlist(uuid, uuid, integer, uuid[], boolean, boolean) is 'Admins and owners: move the top N (or chosen) confirmed members of a waitlist to another list, confirmed, and off the waitlist; with p_access_email also tag them and draft the access email to exactly them; with p_welcome send the target list''s welcome to those it subscribed.';
revoke execute on function public.let_in_from_waitlist(uuid, uuid, integer, uuid[], boolean, boolean) from public, anon;
grant execute on function public.let_in_from_waitlist(uuid, uuid, integer, uuid[], boolean, boolean) to authenticated, service_role;
