-- Let in's "also send the list's welcome" (20261201200100) enrols the people it subscribed to the
-- target list in that list's active sign-ups-only automations (its seeded welcome: issue 24), which
-- skipped them because a Let in is not a sign-up, and starts a process-queue run so the welcome
-- goes out at once. No welcome send is queued any more: answers {let_in, campaign_id,
-- welcome_send_id (always null now), welcome_enrolled}. The welcome sends still unfinished become
-- enrolments the same way, so nobody queued before this migration loses their welcome.

drop function public.let_in_from_waitlist(uuid, uuid, integer, uuid[], boolean, boolean);

-- Enrols these subscribers in the active sign-ups-only automations of p_list (its welcome), as a
-- sign-up would have; starts a process-queue run when anyone was enrolled. Answers how many
-- enrolments were made.
create function private.enrol_in_welcome(p_list uuid, p_subscribers uuid[])
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  a_ids uuid[];
  s_ids uuid[];
  n integer := 0;
begin
  if (select auth.role()) = 'authenticated' and not private.has_role('admin') then
    raise exception using errcode = 'PT403', message = 'postbox:forbidden: You do not have permission to do that.';
  end if;
  select array_agg(a.id), array_agg(s.id) into a_ids, s_ids
    from public.automations a
    cross join unnest(p_subscribers) s(id)
   where a.trigger_kind = 'list' and a.trigger_list_id = p_list and a.status = 'active'
     and a.trigger_signups_only;
  if a_ids is not null then
    n := private.enrol(a_ids, s_ids);
  end if;
  if n > 0 then
    perform private.kick_process_queue();
  end if;
  return n;
end;
$$;
revoke execute on function private.enrol_in_welcome(uuid, uuid[]) from public;
grant execute on function private.enrol_in_welcome(uuid, uuid[]) to authenticated;

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
  welcomed integer := 0;
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
    return jsonb_build_object('let_in', 0, 'campaign_id', null, 'welcome_send_id', null,
      'welcome_enrolled', 0);
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
    welcomed := private.enrol_in_welcome(p_target, joined);
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
  return jsonb_build_object('let_in', moved, 'campaign_id', campaign_id, 'welcome_send_id', null,
    'welcome_enrolled', welcomed);
end;
$$;
comment on function public.let_in_from_waitlist(uuid, uuid, integer, uuid[], boolean, boolean) is 'Admins and owners: move the top N (or chosen) confirmed members of a waitlist to another list, confirmed, and off the waitlist; with p_access_email also tag them and draft the access email to exactly them; with p_welcome enrol those it subscribed in the target list''s welcome (its sign-ups-only automations).';
revoke execute on function public.let_in_from_waitlist(uuid, uuid, integer, uuid[], boolean, boolean) from public, anon;
grant execute on function public.let_in_from_waitlist(uuid, uuid, integer, uuid[], boolean, boolean) to authenticated, service_role;

-- Welcome sends a Let in queued before this migration and not finished: their remaining people are
-- enrolled in the list's welcome instead, and the send is done (they count as skipped there).
do $$
declare
  w record;
begin
  for w in
    select c.id, c.list_id, array_agg(i.subscriber_id) as subs
      from public.confirmation_sends c
      join private.confirmation_send_items i on i.send_id = c.id
     where c.kind = 'welcome' and c.status <> 'done'
     group by c.id, c.list_id
  loop
    perform private.enrol_in_welcome(w.list_id, w.subs);
    delete from private.confirmation_send_items where send_id = w.id;
    update public.confirmation_sends
       set skipped = skipped + cardinality(w.subs), status = 'done', finished_at = now(),
           lease_token = null, lease_until = null
     where id = w.id;
  end loop;
  update public.confirmation_sends set status = 'done', finished_at = coalesce(finished_at, now())
   where kind = 'welcome' and status <> 'done';
end;
$$;

drop function private.queue_welcome_send(uuid, uuid[]);
