-- A segment used as a rule ({"field": "segment", "op": "in"}) compiles to its own conditions, not
-- to one opaque expression, and an attribute equality is estimated fairly (issue 24's count
-- benchmark).
--
-- The segment's group was wrapped as `coalesce((a and b and c), false)`. To the planner that is one
-- expression it can only evaluate row by row: the subscription condition inside it (an EXISTS) ran
-- as a subplan per subscriber and nothing could use an index, so counting a three-condition segment
-- over 1,000,000 subscribers took 3.4-3.6 s (bench/segments.ts). Without the wrapper the group's
-- conditions are plain quals joined by AND/OR; an EXISTS among the top-level ANDs becomes a semi-join.
--
-- The planner then needs a fair guess of how many subscribers the other conditions keep. A jsonb
-- attribute has no statistics, and for `value = 'pro'` PostgreSQL assumes 0.5 % of the rows match:
-- 505 of the 197,000 that did in the benchmark, so it probed the subscriptions index once per row
-- (a nested loop, 2.0-2.9 s at load 15-18) where hashing the list's subscriptions takes about half
-- that. An attribute equality is now `coalesce(… = value, false)`, which it cannot see into and
-- guesses at 50 %: it hashes when many may match and still finds a rare value quickly (measured:
-- 0.5 s for a value nobody has, against 0.6 s with the old guess).
--
-- Both keep the matches. A rule set is monotone (groups are only all/any; the one negation, `not_in`, keeps
-- its coalesce) and every caller uses the compiled clause as a WHERE condition or inside EXISTS /
-- NOT EXISTS / coalesce(…, false), where a null is not a match. Under three-valued logic a monotone
-- AND/OR is true exactly when it is true with every null read as false, which is what the coalesce
-- did. The function is otherwise as in 20261201200010.
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
      -- eq inside coalesce: the same matches, and the planner's guess (see the top).
      p_sql := case op when 'eq' then format('coalesce((%s #>> ''{}'') = %s, false)', col, ref)
                       else format('((%s #>> ''{}'') is distinct from %s)', col, ref) end;
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
    -- The segment's rules compile in place (their values join these parameters). `in` is the
    -- group itself, so the planner sees its conditions (see the top); a condition that is null for
    -- a row (an attribute that is not a number) does not match, so not_in takes every row the
    -- segment does not match.
    select g.p_params, g.p_count, g.p_sql into p_params, inner_count, inner_sql
      from private.subscriber_group_sql(seg_rules, format('%s.segment.', p_path), 1, p_params, 0) g;
    p_sql := case op when 'in' then inner_sql
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
