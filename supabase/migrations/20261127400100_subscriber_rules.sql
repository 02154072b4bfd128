-- The one filter of subscribers (issue 23, SPEC §10): a JSON rule set compiled to parameterised
-- SQL, used by the subscribers page (list, count), export and bulk actions, and saved as-is by
-- segments later. Format (lib/admin/subscriber-rules.ts documents it for the UI):
--
--   group := {"match": "all" | "any", "rules": [rule | group, …]}        (empty group: everyone)
--   rule  := {"field": f, "op": o, "value": v}
--
--   field                op                                         value
--   search               contains                                   text (email or name)
--   email                eq neq contains not_contains starts_with ends_with   text
--   name                 eq neq contains not_contains starts_with ends_with empty not_empty
--   status               eq neq                                     "enabled" | "blocklisted"
--   created_at           before after                               date
--   subscription         has has_not                                {list?, status?, subscribed_before?,
--                                                                    subscribed_after?, confirmed_before?,
--                                                                    confirmed_after?}
--   attributes.<key>     eq neq contains not_contains exists not_exists gt lt before after
--   id                   in                                         [uuid, …] (a selection, ≤ 1,000)
--
--   date := "YYYY-MM-DD[THH:MM[:SS[.fff]][Z|±HH:MM]]" | {"days_ago": n}
--
-- Field names and operators come from the lists above and are the only words written into the
-- SQL; every value (attribute keys included) is an element of one jsonb array passed with USING
-- and read back as ($1->>n). Anything unknown is refused with `postbox:invalid_input: <path>: …`
-- and SQLSTATE PT422, which PostgREST answers as HTTP 422.

create function private.rules_refuse(p_path text, p_problem text)
returns void
language plpgsql
immutable
set search_path = ''
as $$
begin
  raise exception using errcode = 'PT422',
    message = format('postbox:invalid_input: %s: %s', p_path, p_problem);
end;
$$;

-- A LIKE pattern matching `p_text` literally; `p_shape` is 'contains', 'starts_with' or 'ends_with'.
create function private.rules_like(p_text text, p_shape text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case when p_shape = 'starts_with' then '' else '%' end
         || replace(replace(replace(p_text, '\', '\\'), '%', '\%'), '_', '\_')
         || case when p_shape = 'ends_with' then '' else '%' end
$$;

-- An attribute's value as a number or a time, null when it is not one (never an error per row).
create function private.rules_numeric(p_value jsonb)
returns numeric
language sql
immutable
set search_path = ''
as $$
  select case when jsonb_typeof(p_value) = 'number' then (p_value #>> '{}')::numeric
              when jsonb_typeof(p_value) = 'string'
                   and (p_value #>> '{}') ~ '^\s*-?[0-9]{1,30}(\.[0-9]{1,30})?\s*$'
                then (p_value #>> '{}')::numeric end
$$;

create function private.rules_timestamptz(p_value text)
returns timestamptz
language plpgsql
immutable
set search_path = ''
as $$
begin
  if p_value is null or p_value !~ '^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}(:?\d{2})?)?)?$' then
    return null;
  end if;
  return p_value::timestamptz;
exception when others then
  return null;
end;
$$;

-- Appends `p_value` to the parameters; answers the SQL that reads it back as text.
create function private.rules_param(inout p_params jsonb, p_value jsonb, out p_ref text)
language plpgsql
immutable
set search_path = ''
as $$
begin
  p_params := p_params || jsonb_build_array(p_value);
  p_ref := format('($1->>%s)', jsonb_array_length(p_params) - 1);
end;
$$;

-- A date value as SQL reading a parameter: an absolute time, or now() minus a number of days.
create function private.rules_date(inout p_params jsonb, p_value jsonb, p_path text, out p_sql text)
language plpgsql
immutable
set search_path = ''
as $$
declare
  ref text;
begin
  if jsonb_typeof(p_value) = 'string' then
    if private.rules_timestamptz(p_value #>> '{}') is null then
      perform private.rules_refuse(p_path, 'must be a date like 2026-01-31 or {"days_ago": n}');
    end if;
    select * into p_params, ref from private.rules_param(p_params, p_value);
    p_sql := format('%s::timestamptz', ref);
  elsif jsonb_typeof(p_value) = 'object' and (select array_agg(k) from jsonb_object_keys(p_value) k) = array['days_ago']
        and jsonb_typeof(p_value -> 'days_ago') = 'number'
        and (p_value ->> 'days_ago') ~ '^[0-9]{1,5}$' then
    select * into p_params, ref from private.rules_param(p_params, p_value -> 'days_ago');
    p_sql := format('(now() - make_interval(days => %s::integer))', ref);
  else
    perform private.rules_refuse(p_path, 'must be a date like 2026-01-31 or {"days_ago": n}');
  end if;
end;
$$;

-- A scalar text value, at most p_max characters.
create function private.rules_text(p_value jsonb, p_path text, p_max integer default 200)
returns text
language plpgsql
immutable
set search_path = ''
as $$
begin
  if jsonb_typeof(p_value) is distinct from 'string' or char_length(p_value #>> '{}') > p_max then
    perform private.rules_refuse(p_path, format('must be text of at most %s characters', p_max));
  end if;
  return p_value #>> '{}';
end;
$$;

revoke execute on function private.rules_refuse(text, text), private.rules_like(text, text),
  private.rules_param(jsonb, jsonb), private.rules_date(jsonb, jsonb, text),
  private.rules_text(jsonb, text, integer) from public;
grant execute on function private.rules_refuse(text, text), private.rules_like(text, text),
  private.rules_param(jsonb, jsonb), private.rules_date(jsonb, jsonb, text),
  private.rules_text(jsonb, text, integer) to authenticated, service_role;
-- Called per row by the compiled SQL, so the caller needs them.
revoke execute on function private.rules_numeric(jsonb), private.rules_timestamptz(text) from public;
grant execute on function private.rules_numeric(jsonb), private.rules_timestamptz(text)
  to authenticated, service_role;
