-- Tagging many subscribers at once (issue 24), in the style of bulk_update_subscribers
-- (20261127400300): the subscribers matching a rule set (the selected rows are a rule
-- {"field": "id", "op": "in", …}; one subscriber is a selection of one) in batches walked by id,
-- each batch one set-based statement. Renaming and deleting a tag act everywhere at once because
-- subscribers hold the tag's id. Security invoker: the caller's row-level security applies; the
-- role is checked up front so a viewer is told "forbidden" rather than changing nothing.

-- Tag names as the caller wrote them: trimmed, 1-64 characters, no comma or semicolon, at most 20
-- of them; duplicates (ignoring case) removed. Refuses with invalid_input naming p_path.
create function private.clean_tag_names(p_names text[], p_path text)
returns text[]
language plpgsql
immutable
set search_path = ''
as $$
declare
  result text[];
begin
  if p_names is null or cardinality(p_names) = 0 or cardinality(p_names) > 20 then
    perform private.rules_refuse(p_path, 'name between 1 and 20 tags');
  end if;
  if exists (select 1 from unnest(p_names) n
              where n is null or char_length(btrim(n)) not between 1 and 64 or btrim(n) ~ '[,;[:cntrl:]]') then
    perform private.rules_refuse(p_path, 'a tag has 1 to 64 characters and no comma or semicolon');
  end if;
  select array_agg(n order by first) into result
    from (select distinct on (lower(btrim(n))) btrim(n) as n, ord as first
            from unnest(p_names) with ordinality u(n, ord) order by lower(btrim(n)), ord) d;
  return result;
end;
$$;

-- p_action 'add' (creating tags that do not exist yet) or 'remove' (tags that do not exist are
-- ignored). Answers {processed: matches taken in this batch, changed: subscribers whose tags
-- changed, last_id, done}, like bulk_update_subscribers.
create function public.tag_subscribers(p_action text, p_tags text[], p_rules jsonb default null,
  p_after uuid default null, p_limit integer default 10000)
returns jsonb
language plpgsql
volatile
security invoker
set search_path = ''
as $$
declare
  w record;
  names text[];
  tag_ids uuid[];
  ids uuid[];
  changed integer := 0;
begin
  if p_action is null or p_action not in ('add', 'remove') then
    perform private.rules_refuse('action', 'must be add or remove');
  end if;
  if not private.has_role('admin') then
    raise exception using errcode = 'PT403', message = 'postbox:forbidden: You do not have permission to do that.';
  end if;
  names := private.clean_tag_names(p_tags, 'tags');
  if p_limit is null or p_limit < 1 or p_limit > 50000 then
    perform private.rules_refuse('limit', 'must be between 1 and 50000');
  end if;

  select * into w from private.subscriber_rules_where(p_rules);
  execute format('select array_agg(b.id order by b.id) from (select s.id from public.subscribers s
                   where %s and ($2::uuid is null or s.id > $2) order by s.id limit $3) b', w.clause)
     into ids using w.params, p_after, p_limit;
  if ids is null then
    return jsonb_build_object('processed', 0, 'changed', 0, 'last_id', p_after, 'done', true);
  end if;

  if p_action = 'add' then
    insert into public.tags (name) select n from unnest(names) n
    on conflict ((lower(name))) do nothing;
  end if;
  select array_agg(t.id) into tag_ids from public.tags t
   where lower(t.name) in (select lower(n) from unnest(names) n);

  if tag_ids is null then
    changed := 0;
  elsif p_action = 'add' then
    with added as (
      insert into public.subscriber_tags (subscriber_id, tag_id)
      select i, t from unnest(ids) i cross join unnest(tag_ids) t
      on conflict do nothing
      returning subscriber_id)
    select count(distinct subscriber_id) into changed from added;
  else
    with gone as (
      delete from public.subscriber_tags x
       where x.subscriber_id = any (ids) and x.tag_id = any (tag_ids)
      returning x.subscriber_id)
    select count(distinct subscriber_id) into changed from gone;
  end if;

  return jsonb_build_object('processed', cardinality(ids), 'changed', changed,
    'last_id', ids[cardinality(ids)], 'done', cardinality(ids) < p_limit);
end;
$$;
comment on function public.tag_subscribers(text, text[], jsonb, uuid, integer) is
  'One batch of adding or removing tags (by name) on the subscribers matching a rule set, after p_after by id; under the caller''s RLS.';

-- Renames a tag everywhere (subscribers and rules hold its id). Another tag with that name,
-- ignoring case, is a conflict rather than a silent merge.
create function public.rename_tag(p_tag uuid, p_name text)
returns public.tags
language plpgsql
volatile
security invoker
set search_path = ''
as $$
declare
  names text[];
  result public.tags;
begin
  if not private.has_role('admin') then
    raise exception using errcode = 'PT403', message = 'postbox:forbidden: You do not have permission to do that.';
  end if;
  names := private.clean_tag_names(array[p_name], 'name');
  if exists (select 1 from public.tags t where lower(t.name) = lower(names[1]) and t.id <> p_tag) then
    raise exception using errcode = 'PT409', message = 'postbox:conflict: Another tag already has that name.';
  end if;
  update public.tags set name = names[1] where id = p_tag returning * into result;
  if result.id is null then
    raise exception using errcode = 'PT404', message = 'postbox:not_found: That tag does not exist.';
  end if;
  return result;
end;
$$;
comment on function public.rename_tag(uuid, text) is 'Renames a tag (admins and owners); 409 when another tag has the name.';

-- Deletes a tag from every subscriber and answers how many had it.
create function public.delete_tag(p_tag uuid)
returns integer
language plpgsql
volatile
security invoker
set search_path = ''
as $$
declare
  had integer;
begin
  if not private.has_role('admin') then
    raise exception using errcode = 'PT403', message = 'postbox:forbidden: You do not have permission to do that.';
  end if;
  select count(*) into had from public.subscriber_tags x where x.tag_id = p_tag;
  delete from public.tags where id = p_tag;
  if not found then
    raise exception using errcode = 'PT404', message = 'postbox:not_found: That tag does not exist.';
  end if;
  return had;
end;
$$;
comment on function public.delete_tag(uuid) is 'Deletes a tag from every subscriber (admins and owners); answers how many had it.';

-- The tags with how many subscribers have each (the tag picker and the tags list).
create function public.tag_counts()
returns table (id uuid, name text, created_at timestamptz, subscribers bigint)
language sql
stable
security invoker
set search_path = ''
as $$
  select t.id, t.name, t.created_at, count(x.subscriber_id)
    from public.tags t left join public.subscriber_tags x on x.tag_id = t.id
   group by t.id order by lower(t.name)
$$;
comment on function public.tag_counts() is 'Every tag with its number of subscribers, by name; under the caller''s RLS.';

revoke execute on function private.clean_tag_names(text[], text) from public;
grant execute on function private.clean_tag_names(text[], text) to authenticated, service_role;
revoke execute on function public.tag_subscribers(text, text[], jsonb, uuid, integer),
  public.rename_tag(uuid, text), public.delete_tag(uuid), public.tag_counts() from public, anon;
grant execute on function public.tag_subscribers(text, text[], jsonb, uuid, integer),
  public.rename_tag(uuid, text), public.delete_tag(uuid), public.tag_counts()
  to authenticated, service_role;
