-- Reward milestones that move a reader up the line (issue 23, Waitlist): "at 3 referrals: jump 100
-- places". A milestone may carry `jump`, the places its reader moves ahead once they reach it; the
-- jumps of every milestone reached add up.
--
-- Jumps need a line that referrals do not already order: in SPEC §9's line (more confirmed
-- referrals first) everyone ahead of a reader has at least their referrals, so reached at least
-- their milestones and jumped as far, and a jump changes no place. A waitlist therefore chooses its
-- order (lists.waitlist_order): 'referrals', SPEC §9's and the default, where rewards are text
-- only; or 'joined', the order of confirmation, where milestones' jumps move readers up (as the
-- hosted waitlist tools do it: "each milestone moves you up N places").
--
-- The line: each reader's place in the chosen order (`base`) less their jumps, ties going to the
-- one who jumped further and then to the earlier base place, so a reader at 150 who jumps 100 is at
-- 50 and the reader who was there moves to 51. Everyone who reads a place reads it from
-- private.waitlist_places: the public place (private.waitlist_standing), the ranked admin view,
-- Let in's "top N", campaign merge tags and the waitlist_position rule.

alter table public.lists
  add column waitlist_order text not null default 'referrals' check (waitlist_order in ('referrals', 'joined'));
comment on column public.lists.waitlist_order is 'A waitlist''s line: referrals (more confirmed referrals first, then earlier confirmation; SPEC §9) or joined (order of confirmation, moved up by reward jumps).';

alter table public.waitlist_rewards
  add column jump integer not null default 0 check (jump between 0 and 1000000);
comment on column public.waitlist_rewards.jump is 'Places the reader moves ahead in line on reaching this milestone (0: none); every reached milestone''s jump adds up.';
grant insert (jump), update (jump) on public.waitlist_rewards to authenticated;

-- Every confirmed member of a waitlist with their place, in one pass (a sort of the list). Security
-- invoker: callers' own rights apply (members and the service role read subscriptions; the
-- definer functions below read for the public page).
create function private.waitlist_places(p_list uuid)
returns table (subscriber_id uuid, place bigint, referrals integer, confirmed_at timestamptz)
language sql
stable
security invoker
set search_path = ''
as $$
  with by_referrals as (
    select coalesce((select l.waitlist_order = 'referrals' from public.lists l where l.id = p_list),
                    true) as yes
  ), base as (
    select s.subscriber_id, s.referrals, s.confirmed_at,
           row_number() over (order by case when r.yes then -s.referrals else 0 end,
                                       s.confirmed_at, s.subscriber_id) as base
      from public.subscriptions s cross join by_referrals r
     where s.list_id = p_list and s.status = 'confirmed'
  ), steps as (
    select r.referrals, sum(r.jump) over (order by r.referrals) as jump
      from public.waitlist_rewards r
     where r.list_id = p_list and r.jump > 0
  ), jumped as (
    select b.*, coalesce((select st.jump from steps st where st.referrals <= b.referrals
                           order by st.referrals desc limit 1), 0) as jump
      from base b
  )
  select j.subscriber_id, row_number() over (order by j.base - j.jump, j.jump desc, j.base),
         j.referrals, j.confirmed_at
    from jumped j
$$;
comment on function private.waitlist_places(uuid) is 'The line of a waitlist: each confirmed member''s place, with reward jumps applied.';
revoke execute on function private.waitlist_places(uuid) from public;
grant execute on function private.waitlist_places(uuid) to authenticated, service_role;

-- The public place. In the referrals order it stays one range count on
-- subscriptions_waitlist_rank_idx (jumps change nothing there); in the joined order it is read from
-- the whole line.
create or replace function private.waitlist_standing(p_list uuid, p_subscriber uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  me record;
  total integer;
  ahead integer;
  place bigint;
begin
  select count(*) into total from public.subscriptions s where s.list_id = p_list and s.status = 'confirmed';
  select s.referrals, s.confirmed_at into me
  from public.subscriptions s join public.subscribers u on u.id = s.subscriber_id
  where s.list_id = p_list and s.subscriber_id = p_subscriber and s.status = 'confirmed' and u.status = 'enabled';
  if not found then
    return jsonb_build_object('position', null, 'total', total, 'referrals',
      (select count(*) from public.subscribers r
        join public.subscriptions rs on rs.subscriber_id = r.id and rs.list_id = p_list and rs.status = 'confirmed'
        where r.referred_by = p_subscriber));
  end if;
  if exists (select 1 from public.lists l where l.id = p_list and l.waitlist_order = 'joined') then
    select w.place into place from private.waitlist_places(p_list) w where w.subscriber_id = p_subscriber;
    return jsonb_build_object('position', place, 'total', total, 'referrals', me.referrals);
  end if;
  select count(*) into ahead from public.subscriptions s
  where s.list_id = p_list and s.status = 'confirmed'
    and (-s.referrals, s.confirmed_at, s.subscriber_id) < (-me.referrals, me.confirmed_at, p_subscriber);
  return jsonb_build_object('position', ahead + 1, 'total', total, 'referrals', me.referrals);
end;
$$;

-- Changing the order, or a milestone of a waitlist in the joined order, moves places: the
-- waitlist's public topic says so, as a confirmation does (the pages re-read their place).
create function private.signal_waitlist_order()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  list public.lists;
begin
  if tg_table_name = 'lists' then
    list := new;
  else
    select * into list from public.lists l
     where l.id = coalesce(new.list_id, old.list_id) and l.waitlist_order = 'joined';
  end if;
  if list.id is not null and list.waitlist then
    perform private.signal('waitlist:' || list.slug, 'positions', jsonb_build_object('list', list.slug), false);
  end if;
  return null;
end;
$$;
revoke execute on function private.signal_waitlist_order() from public;
create trigger lists_signal_waitlist_order after update of waitlist_order on public.lists
  for each row when (old.waitlist_order is distinct from new.waitlist_order)
  execute function private.signal_waitlist_order();
create trigger waitlist_rewards_signal_jumps after insert or update or delete on public.waitlist_rewards
  for each row execute function private.signal_waitlist_order();

-- The ranked admin view, in the line's order.
create or replace function public.waitlist_ranking(
  p_list uuid,
  p_search text default null,
  p_limit integer default 50,
  p_offset integer default 0)
returns table (place bigint, subscriber_id uuid, email text, name text, referrals integer,
  joined_at timestamptz, total bigint, matches bigint)
language sql
stable
security invoker
set search_path = ''
as $$
  with ranked as (
    select w.place, w.subscriber_id, u.email, u.name, w.referrals, w.confirmed_at as joined_at,
      count(*) over () as total
    from private.waitlist_places(p_list) w
    join public.subscribers u on u.id = w.subscriber_id
    where exists (select 1 from public.lists l where l.id = p_list and l.waitlist)
  ), found as (
    select r.*, count(*) over () as matches from ranked r
    where coalesce(btrim(p_search), '') = ''
       or strpos(lower(r.email), lower(btrim(p_search))) > 0
       or strpos(lower(r.name), lower(btrim(p_search))) > 0
  )
  select f.place, f.subscriber_id, f.email, f.name, f.referrals, f.joined_at, f.total, f.matches
  from found f
  order by f.place
  limit least(greatest(coalesce(p_limit, 50), 1), 500) offset greatest(coalesce(p_offset, 0), 0)
$$;

-- Campaign merge tags: a batch's places read from one pass over the line, not one per reader.
create or replace function public.campaign_waitlist_standings(
  p_campaign_id uuid,
  p_subscribers uuid[]
)
returns table (subscriber_id uuid, list_slug text, referral_code text, standing jsonb)
language sql
stable
security definer
set search_path = ''
as $$
  with wl as (
    select l.id, l.slug
    from public.campaign_lists cl
    join public.lists l on l.id = cl.list_id
    where cl.campaign_id = p_campaign_id and l.waitlist
    order by l.created_at, l.id
    limit 1
  ), line as (
    select w.* from wl cross join lateral private.waitlist_places(wl.id) w
  )
  select s.id, wl.slug, s.referral_code,
    case when p.subscriber_id is not null and s.status = 'enabled'
      then jsonb_build_object('position', p.place,
        'total', (select count(*) from line), 'referrals', p.referrals)
      else private.waitlist_standing(wl.id, s.id) end
  from wl
  cross join public.subscribers s
  left join line p on p.subscriber_id = s.id
  where s.id = any(p_subscribers);
$$;

-- The rule compiler (20261128100400) with one change: waitlist_position reads the line from
-- private.waitlist_places, so a segment matches the places the team and the readers see.
create or replace function private.subscriber_rule_sql(p_rule jsonb, p_path text, inout p_params jsonb,
  out p_sql text)
language plpgsql
stable
set search_path = ''
as $$
declare
  field text := p_rule ->> 'field';
  inner_sql text;
  inner_count integer;
  seg_rules jsonb;
  op text := p_rule ->> 'op';
  v jsonb := p_rule -> 'value';
  ref text;
  key_ref text;
  col text;
  conds text[] := '{}';
  sub_key text;
  d text;
begin
  if exists (select 1 from jsonb_object_keys(p_rule) k where k not in ('field', 'op', 'value')) then
    perform private.rules_refuse(p_path, 'a rule has only field, op and value');
  end if;
  if jsonb_typeof(p_rule -> 'field') is distinct from 'string' then
    perform private.rules_refuse(p_path || '.field', 'is required');
  end if;
  if jsonb_typeof(p_rule -> 'op') is distinct from 'string' then
    perform private.rules_refuse(p_path || '.op', 'is required');
  end if;

  if field = 'search' then
    if op <> 'contains' then perform private.rules_refuse(p_path || '.op', 'search only takes contains'); end if;
    select * into p_params, ref from private.rules_param(p_params,
      to_jsonb(private.rules_like(lower(btrim(private.rules_text(v, p_path || '.value'))), 'contains')));
    p_sql := format('(s.email like %1$s or lower(s.name) like %1$s)', ref);

  elsif field in ('email', 'name') then
    col := case field when 'email' then 's.email' else 'lower(s.name)' end;
    if op in ('empty', 'not_empty') and field = 'name' then
      p_sql := case op when 'empty' then '(s.name = '''')' else '(s.name <> '''')' end;
    elsif op in ('eq', 'neq') then
      select * into p_params, ref from private.rules_param(p_params,
        to_jsonb(lower(btrim(private.rules_text(v, p_path || '.value', 254)))));
      p_sql := format('(%s %s %s)', col, case op when 'eq' then '=' else '<>' end, ref);
    elsif op in ('contains', 'not_contains', 'starts_with', 'ends_with') then
      select * into p_params, ref from private.rules_param(p_params, to_jsonb(private.rules_like(
        lower(btrim(private.rules_text(v, p_path || '.value'))),
        case op when 'not_contains' then 'contains' else op end)));
      p_sql := format('(%s %s %s)', col, case op when 'not_contains' then 'not like' else 'like' end, ref);
    else
      perform private.rules_refuse(p_path || '.op', format('%s does not take %s', field, left(op, 40)));
    end if;

  elsif field = 'status' then
    if op not in ('eq', 'neq') then perform private.rules_refuse(p_path || '.op', 'status takes eq or neq'); end if;
    if coalesce(jsonb_typeof(v), 'missing') <> 'string' or (v #>> '{}') not in ('enabled', 'blocklisted') then
      perform private.rules_refuse(p_path || '.value', 'must be enabled or blocklisted');
    end if;
    select * into p_params, ref from private.rules_param(p_params, v);
    p_sql := format('(s.status %s %s)', case op when 'eq' then '=' else '<>' end, ref);

  elsif field = 'created_at' then
    if op not in ('before', 'after') then perform private.rules_refuse(p_path || '.op', 'created_at takes before or after'); end if;
    select * into p_params, d from private.rules_date(p_params, v, p_path || '.value');
    p_sql := format('(s.created_at %s %s)', case op when 'before' then '<' else '>=' end, d);

  elsif field = 'subscription' then
    if op not in ('has', 'has_not') then perform private.rules_refuse(p_path || '.op', 'subscription takes has or has_not'); end if;
    if jsonb_typeof(v) is distinct from 'object' then
      perform private.rules_refuse(p_path || '.value', 'must be an object like {"list": id, "status": "confirmed"}');
    end if;
    for sub_key in select k from jsonb_object_keys(v) k order by k loop
      if sub_key = 'list' then
        if jsonb_typeof(v -> 'list') <> 'string' or (v ->> 'list') !~* '^[0-9a-f]{8}-([0-9a-f]{4}-){3}[0-9a-f]{12}$' then
          perform private.rules_refuse(p_path || '.value.list', 'must be a list id');
        end if;
        select * into p_params, ref from private.rules_param(p_params, v -> 'list');
        conds := conds || format('x.list_id = %s::uuid', ref);
      elsif sub_key = 'status' then
        if jsonb_typeof(v -> 'status') <> 'string' or (v ->> 'status') not in ('pending', 'confirmed', 'unsubscribed') then
          perform private.rules_refuse(p_path || '.value.status', 'must be pending, confirmed or unsubscribed');
        end if;
        select * into p_params, ref from private.rules_param(p_params, v -> 'status');
        conds := conds || format('x.status = %s', ref);
      elsif sub_key in ('subscribed_before', 'subscribed_after', 'confirmed_before', 'confirmed_after') then
        select * into p_params, d from private.rules_date(p_params, v -> sub_key, p_path || '.value.' || sub_key);
        conds := conds || format('x.%s %s %s',
          case when sub_key like 'subscribed%' then 'created_at' else 'confirmed_at' end,
          case when sub_key like '%before' then '<' else '>=' end, d);
      else
        perform private.rules_refuse(p_path || '.value', format('unknown key %s', left(sub_key, 40)));
      end if;
    end loop;
    p_sql := format('(%s exists (select 1 from public.subscriptions x where x.subscriber_id = s.id%s))',
      case op when 'has_not' then 'not' else '' end,
      coalesce((select string_agg(' and ' || c, '') from unnest(conds) c), ''));

  elsif field like 'attributes.%' then
    if char_length(field) > 75 or substr(field, 12) !~ '^[A-Za-z0-9_][A-Za-z0-9_ .-]{0,63}$' then
      perform private.rules_refuse(p_path || '.field', 'an attribute name has letters, digits, _ . - or spaces (at most 64)');
    end if;
    select * into p_params, key_ref from private.rules_param(p_params, to_jsonb(substr(field, 12)));
    col := format('(s.attributes -> %s)', key_ref);
    if op = 'exists' then
      p_sql := format('(s.attributes ? %s)', key_ref);
    elsif op = 'not_exists' then
      p_sql := format('(not s.attributes ? %s)', key_ref);
    elsif op in ('eq', 'neq') then
      if coalesce(jsonb_typeof(v), 'missing') not in ('string', 'number', 'boolean') or char_length(v #>> '{}') > 200 then
        perform private.rules_refuse(p_path || '.value', 'must be text, a number or true/false');
      end if;
      select * into p_params, ref from private.rules_param(p_params, to_jsonb(v #>> '{}'));
      p_sql := format('((%s #>> ''{}'') %s %s)', col, case op when 'eq' then '=' else 'is distinct from' end, ref);
    elsif op in ('contains', 'not_contains') then
      select * into p_params, ref from private.rules_param(p_params,
        to_jsonb(private.rules_like(lower(private.rules_text(v, p_path || '.value')), 'contains')));
      p_sql := format('(coalesce(lower(%s #>> ''{}''), '''') %s %s)', col,
        case op when 'contains' then 'like' else 'not like' end, ref);
    elsif op in ('gt', 'lt') then
      if coalesce(jsonb_typeof(v), 'missing') <> 'number' then perform private.rules_refuse(p_path || '.value', 'must be a number'); end if;
      select * into p_params, ref from private.rules_param(p_params, v);
      p_sql := format('(private.rules_numeric(%s) %s %s::numeric)', col, case op when 'gt' then '>' else '<' end, ref);
    elsif op in ('before', 'after') then
      select * into p_params, d from private.rules_date(p_params, v, p_path || '.value');
      p_sql := format('(private.rules_timestamptz(%s #>> ''{}'') %s %s)', col, case op when 'before' then '<' else '>=' end, d);
    else
      perform private.rules_refuse(p_path || '.op', format('attributes do not take %s', left(op, 40)));
    end if;

  elsif field = 'tag' then
    if op not in ('has', 'has_not') then perform private.rules_refuse(p_path || '.op', 'tag takes has or has_not'); end if;
    if coalesce(jsonb_typeof(v), 'missing') <> 'string' or (v #>> '{}') !~* '^[0-9a-f]{8}-([0-9a-f]{4}-){3}[0-9a-f]{12}$' then
      perform private.rules_refuse(p_path || '.value', 'must be a tag id');
    end if;
    select * into p_params, ref from private.rules_param(p_params, v);
    p_sql := format('(%s exists (select 1 from public.subscriber_tags x where x.subscriber_id = s.id and x.tag_id = %s::uuid))',
      case op when 'has_not' then 'not' else '' end, ref);

  elsif field = 'source' then
    if op not in ('eq', 'neq') then perform private.rules_refuse(p_path || '.op', 'source takes eq or neq'); end if;
    if coalesce(jsonb_typeof(v), 'missing') <> 'string' or (v #>> '{}') not in ('form', 'import', 'team', 'api') then
      perform private.rules_refuse(p_path || '.value', 'must be form, import, team or api');
    end if;
    select * into p_params, ref from private.rules_param(p_params, v);
    p_sql := format('(s.signup_source %s %s)', case op when 'eq' then '=' else '<>' end, ref);

  elsif field in ('referrals', 'received') then
    if op not in ('gt', 'lt') then perform private.rules_refuse(p_path || '.op', format('%s takes gt or lt', field)); end if;
    if coalesce(jsonb_typeof(v), 'missing') <> 'number' or (v #>> '{}') !~ '^[0-9]{1,9}$' then
      perform private.rules_refuse(p_path || '.value', 'must be a whole number, 0 or more');
    end if;
    select * into p_params, ref from private.rules_param(p_params, v);
    -- referrals: people this subscriber referred (as in their own export); received: campaigns
    -- sent to them (deliveries accepted by the relay).
    p_sql := format(case field
        when 'referrals' then '((select count(*) from public.subscribers r where r.referred_by = s.id) %s %s::integer)'
        else '((select count(*) from public.deliveries d where d.subscriber_id = s.id and d.status = ''sent'') %s %s::integer)' end,
      case op when 'gt' then '>' else '<' end, ref);

  elsif field = 'waitlist_position' then
    if op not in ('gt', 'lt') then perform private.rules_refuse(p_path || '.op', 'waitlist_position takes gt or lt'); end if;
    if jsonb_typeof(v) is distinct from 'object'
       or exists (select 1 from jsonb_object_keys(v) k where k not in ('list', 'position')) then
      perform private.rules_refuse(p_path || '.value', 'must be {"list": id, "position": n}');
    end if;
    if coalesce(jsonb_typeof(v -> 'list'), 'missing') <> 'string' or (v ->> 'list') !~* '^[0-9a-f]{8}-([0-9a-f]{4}-){3}[0-9a-f]{12}$' then
      perform private.rules_refuse(p_path || '.value.list', 'must be a list id');
    end if;
    if coalesce(jsonb_typeof(v -> 'position'), 'missing') <> 'number' or (v ->> 'position') !~ '^[0-9]{1,9}$' then
      perform private.rules_refuse(p_path || '.value.position', 'must be a whole number, 0 or more');
    end if;
    select * into p_params, key_ref from private.rules_param(p_params, v -> 'list');
    select * into p_params, ref from private.rules_param(p_params, v -> 'position');
    -- The place the reader sees (the line with reward jumps), for every subscriber on the list in
    -- one pass; not on the list: no place.
    p_sql := format('(s.id in (select w.subscriber_id from private.waitlist_places(%s::uuid) w
        where w.place %s %s::integer))',
      key_ref, case op when 'gt' then '>' else '<' end, ref);

  elsif field in ('opened', 'clicked') then
    if op not in ('since', 'not_since') then perform private.rules_refuse(p_path || '.op', format('%s takes since or not_since', field)); end if;
    select * into p_params, d from private.rules_date(p_params, v, p_path || '.value');
    -- Any campaign; machine opens (mail scanners) are not people opening (as the report counts).
    p_sql := format('(%s exists (select 1 from public.events e where e.subscriber_id = s.id and e.type = %L%s and e.created_at >= %s))',
      case op when 'not_since' then 'not' else '' end, field,
      case field when 'opened' then ' and not coalesce(e.data ->> ''machine'' = ''true'', false)' else '' end, d);

  elsif field = 'segment' then
    if op not in ('in', 'not_in') then perform private.rules_refuse(p_path || '.op', 'segment takes in or not_in'); end if;
    if coalesce(jsonb_typeof(v), 'missing') <> 'string' or (v #>> '{}') !~* '^[0-9a-f]{8}-([0-9a-f]{4}-){3}[0-9a-f]{12}$' then
      perform private.rules_refuse(p_path || '.value', 'must be a segment id');
    end if;
    select g.rules into seg_rules from public.segments g where g.id = (v #>> '{}')::uuid;
    if seg_rules is null then
      perform private.rules_refuse(p_path || '.value', 'no such segment');
    end if;
    if jsonb_path_exists(seg_rules, 'strict $.**.field ? (@ == "segment")') then
      perform private.rules_refuse(p_path || '.value', 'a segment cannot use another segment');
    end if;
    -- The segment's rules compile in place (their values join these parameters); a condition
    -- that is null for a row (an attribute that is not a number) does not match, so not_in
    -- takes every row the segment does not match.
    select g.p_params, g.p_count, g.p_sql into p_params, inner_count, inner_sql
      from private.subscriber_group_sql(seg_rules, format('%s.segment.', p_path), 1, p_params, 0) g;
    p_sql := case op when 'in' then format('coalesce(%s, false)', inner_sql)
                     else format('(not coalesce(%s, false))', inner_sql) end;

  elsif field = 'id' then
    if op <> 'in' then perform private.rules_refuse(p_path || '.op', 'id takes in'); end if;
    if jsonb_typeof(v) is distinct from 'array' or jsonb_array_length(v) > 1000
       or exists (select 1 from jsonb_array_elements(v) e
                   where jsonb_typeof(e) <> 'string'
                      or (e #>> '{}') !~* '^[0-9a-f]{8}-([0-9a-f]{4}-){3}[0-9a-f]{12}$') then
      perform private.rules_refuse(p_path || '.value', 'must be a list of at most 1000 subscriber ids');
    end if;
    select * into p_params, ref from private.rules_param(p_params, v);
    -- ($1->n) is the array itself: ref reads it as text, so the element form is rebuilt from the key.
    p_sql := format('(s.id in (select e::uuid from jsonb_array_elements_text($1->%s) e))',
      jsonb_array_length(p_params) - 1);

  else
    perform private.rules_refuse(p_path || '.field', format('unknown field "%s"', left(field, 40)));
  end if;
end;
$$;
