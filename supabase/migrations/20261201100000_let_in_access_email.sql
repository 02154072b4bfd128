-- Let in with an access email (issue 23): "Let in" can also prepare the email the people let in
-- get. The function then tags them ("Let in: <waitlist> <time>"), saves a segment of that tag, and
-- creates a draft campaign to the target list narrowed to that segment, with a starting text the
-- team edits in the campaign editor and sends like any campaign (rate, merge tags, report). The
-- target list's welcome is still not sent: only the access email, and only once the team sends it.
-- Without p_access_email the function behaves as before. Answers {let_in: n, campaign_id}.
drop function public.let_in_from_waitlist(uuid, uuid, integer, uuid[]);

create function public.let_in_from_waitlist(
  p_list uuid,
  p_target uuid,
  p_top integer default null,
  p_subscribers uuid[] default null,
  p_access_email boolean default false)
returns jsonb
language plpgsql
security invoker
set search_path = ''
as $$
declare
  chosen uuid[];
  moved integer;
  waitlist_name text;
  target_name text;
  label text;
  tag_id uuid;
  segment_id uuid;
  campaign_id uuid;
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

  select array_agg(s.subscriber_id) into chosen from (
    select s.subscriber_id from public.subscriptions s
    where s.list_id = p_list and s.status = 'confirmed'
      and (p_subscribers is null or s.subscriber_id = any (p_subscribers))
    order by s.referrals desc, s.confirmed_at, s.subscriber_id
    limit coalesce(p_top, 10000)
  ) s;
  if chosen is null then
    return jsonb_build_object('let_in', 0, 'campaign_id', null);
  end if;

  insert into public.subscriptions as cur (subscriber_id, list_id, status)
  select c, p_target, 'confirmed' from unnest(chosen) c
  on conflict (subscriber_id, list_id) do update set status = 'confirmed'
  where cur.status <> 'confirmed';

  update public.subscriptions s set status = 'unsubscribed'
  where s.list_id = p_list and s.subscriber_id = any (chosen) and s.status = 'confirmed';
  get diagnostics moved = row_count;

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
    label := case when n = 1 then label else format('%s (%s)', label, n) end;
    insert into public.subscriber_tags (subscriber_id, tag_id)
    select c, tag_id from unnest(chosen) c;

    insert into public.segments (name, rules)
    values (label, jsonb_build_object('match', 'all', 'rules', jsonb_build_array(
      jsonb_build_object('field', 'tag', 'op', 'has', 'value', tag_id))))
    on conflict do nothing
    returning id into segment_id;
    if segment_id is null then
      -- A segment the team named like this already exists: keep it, save ours beside it.
      insert into public.segments (name, rules)
      values (left(label || ' ' || left(tag_id::text, 8), 100),
        jsonb_build_object('match', 'all', 'rules', jsonb_build_array(
          jsonb_build_object('field', 'tag', 'op', 'has', 'value', tag_id))))
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
  return jsonb_build_object('let_in', moved, 'campaign_id', campaign_id);
end;
$$;
comment on function public.let_in_from_waitlist(uuid, uuid, integer, uuid[], boolean) is 'Admins and owners: move the top N (or chosen) confirmed members of a waitlist to another list, confirmed, and off the waitlist; with p_access_email also tag them and draft the access email to exactly them.';
revoke execute on function public.let_in_from_waitlist(uuid, uuid, integer, uuid[], boolean) from public, anon;
grant execute on function public.let_in_from_waitlist(uuid, uuid, integer, uuid[], boolean) to authenticated, service_role;
