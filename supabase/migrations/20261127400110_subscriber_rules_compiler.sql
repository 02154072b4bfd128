-- The compiler of the subscriber rule format (20261127400100 describes it): one rule, one group,
-- and the entry point answering a WHERE clause over `public.subscribers s` plus its parameters.

-- One condition. p_params grows by the values it reads; p_sql is its SQL over `s`.
create function private.subscriber_rule_sql(p_rule jsonb, p_path text, inout p_params jsonb,
  out p_sql text)
language plpgsql
immutable
set search_path = ''
as $$
declare
  field text := p_rule ->> 'field';
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

-- A group: its conditions joined by and/or; p_count counts conditions against the limit.
-- p_path is the group's own path with a trailing dot ('' at the top, 'rules.2.' when nested).
create function private.subscriber_group_sql(p_group jsonb, p_path text, p_depth integer,
  inout p_params jsonb, inout p_count integer, out p_sql text)
language plpgsql
immutable
set search_path = ''
as $$
declare
  item jsonb;
  i integer := 0;
  part text;
  parts text[] := '{}';
begin
  if jsonb_typeof(p_group) is distinct from 'object' then
    perform private.rules_refuse(coalesce(nullif(rtrim(p_path, '.'), ''), 'rules'), 'must be a group {"match": "all" | "any", "rules": […]}');
  end if;
  if exists (select 1 from jsonb_object_keys(p_group) k where k not in ('match', 'rules')) then
    perform private.rules_refuse(coalesce(nullif(rtrim(p_path, '.'), ''), 'rules'), 'a group has only match and rules');
  end if;
  if (p_group ->> 'match') is null or (p_group ->> 'match') not in ('all', 'any') then
    perform private.rules_refuse(p_path || 'match', 'must be all or any');
  end if;
  if jsonb_typeof(p_group -> 'rules') is distinct from 'array' then
    perform private.rules_refuse(p_path || 'rules', 'must be a list');
  end if;
  if p_depth > 3 then
    perform private.rules_refuse(rtrim(p_path, '.'), 'groups nest at most 3 deep');
  end if;
  for item in select e from jsonb_array_elements(p_group -> 'rules') e loop
    if jsonb_typeof(item) = 'object' and item ? 'match' then
      select * into p_params, p_count, part
        from private.subscriber_group_sql(item, format('%srules.%s.', p_path, i), p_depth + 1, p_params, p_count);
    elsif jsonb_typeof(item) = 'object' then
      p_count := p_count + 1;
      if p_count > 20 then
        perform private.rules_refuse(format('%srules.%s', p_path, i), 'a filter has at most 20 conditions');
      end if;
      select * into p_params, part
        from private.subscriber_rule_sql(item, format('%srules.%s', p_path, i), p_params);
    else
      perform private.rules_refuse(format('%srules.%s', p_path, i), 'must be a rule or a group');
    end if;
    parts := parts || part;
    i := i + 1;
  end loop;
  -- An empty group does not narrow anything, whether it asks for all or any.
  p_sql := case when cardinality(parts) = 0 then 'true'
                else '(' || array_to_string(parts, case p_group ->> 'match' when 'all' then ' and ' else ' or ' end) || ')' end;
end;
$$;

-- The entry point: a WHERE clause over `public.subscribers s` reading its values from $1 (jsonb
-- array `params`). Null rules match everyone.
create function private.subscriber_rules_where(p_rules jsonb, out clause text, out params jsonb)
language plpgsql
immutable
set search_path = ''
as $$
begin
  params := '[]'::jsonb;
  if p_rules is null or p_rules = 'null'::jsonb then
    clause := 'true';
    return;
  end if;
  select g.p_params, g.p_sql into params, clause
    from private.subscriber_group_sql(p_rules, '', 1, params, 0) g;
end;
$$;

revoke execute on function private.subscriber_rule_sql(jsonb, text, jsonb),
  private.subscriber_group_sql(jsonb, text, integer, jsonb, integer),
  private.subscriber_rules_where(jsonb) from public;
grant execute on function private.subscriber_rule_sql(jsonb, text, jsonb),
  private.subscriber_group_sql(jsonb, text, integer, jsonb, integer),
  private.subscriber_rules_where(jsonb) to authenticated, service_role;
