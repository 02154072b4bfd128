-- The subscribers page reads through the rule compiler (20261127400110): one page of matching
-- subscribers in a sort order after a keyset cursor, and the number matching. Security invoker:
-- the caller's row-level security decides what exists (members read; anon sees nothing).

-- p_sort: 'created-desc' (default), 'created-asc' or 'email-asc'. p_cursor: {"direction":
-- "after" | "before", "created_at", "id", "email"} (the row the page starts next to), or null for
-- the first page. Rows come in the sort order read in the cursor's direction: reading "before"
-- answers them reversed, nearest to the cursor first, as lib/admin/subscriber-query.ts expects.
-- PostgREST can embed subscriptions on the answer (it is setof subscribers).
create function public.subscribers_matching(p_rules jsonb default null,
  p_sort text default 'created-desc', p_cursor jsonb default null, p_limit integer default 51)
returns setof public.subscribers
language plpgsql
stable
security invoker
set search_path = ''
as $$
declare
  w record;
  backwards boolean := coalesce(p_cursor ->> 'direction', 'after') = 'before';
  ascending boolean;
  keyset text := 'true';
  ordering text;
begin
  if p_sort is null or p_sort not in ('created-desc', 'created-asc', 'email-asc') then
    perform private.rules_refuse('sort', 'must be created-desc, created-asc or email-asc');
  end if;
  if p_limit is null or p_limit < 1 or p_limit > 1000 then
    perform private.rules_refuse('limit', 'must be between 1 and 1000');
  end if;
  if p_cursor is not null and (jsonb_typeof(p_cursor) <> 'object'
      or coalesce(p_cursor ->> 'direction', 'after') not in ('after', 'before')) then
    perform private.rules_refuse('cursor', 'must be {direction, created_at, id, email}');
  end if;
  select * into w from private.subscriber_rules_where(p_rules);
  ascending := (p_sort <> 'created-desc') <> backwards;
  if p_sort = 'email-asc' then
    ordering := case when ascending then 's.email' else 's.email desc' end;
    if p_cursor is not null then
      keyset := format('s.email %s ($2 ->> ''email'')', case when ascending then '>' else '<' end);
    end if;
  else
    ordering := case when ascending then 's.created_at, s.id' else 's.created_at desc, s.id desc' end;
    if p_cursor is not null then
      keyset := format('(s.created_at, s.id) %s (($2 ->> ''created_at'')::timestamptz, ($2 ->> ''id'')::uuid)',
        case when ascending then '>' else '<' end);
    end if;
  end if;
  return query execute format(
    'select s.* from public.subscribers s where %s and %s order by %s limit $3',
    w.clause, keyset, ordering)
    using w.params, p_cursor, p_limit;
end;
$$;
comment on function public.subscribers_matching(jsonb, text, jsonb, integer) is
  'One keyset page of the subscribers matching a rule set (the subscribers page); under the caller''s RLS.';

create function public.count_subscribers_matching(p_rules jsonb default null)
returns bigint
language plpgsql
stable
security invoker
set search_path = ''
as $$
declare
  w record;
  n bigint;
begin
  select * into w from private.subscriber_rules_where(p_rules);
  execute format('select count(*) from public.subscribers s where %s', w.clause) into n using w.params;
  return n;
end;
$$;
comment on function public.count_subscribers_matching(jsonb) is
  'How many subscribers match a rule set; under the caller''s RLS (0 for who may not read them).';

revoke execute on function public.subscribers_matching(jsonb, text, jsonb, integer),
  public.count_subscribers_matching(jsonb) from public, anon;
grant execute on function public.subscribers_matching(jsonb, text, jsonb, integer),
  public.count_subscribers_matching(jsonb) to authenticated, service_role;
