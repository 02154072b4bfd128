-- Managing tags (issue 24, /admin/subscribers/tags/): create one by name, see what uses a tag, and
-- never delete a tag something saved still names. Renaming needs no change (rename_tag,
-- 20261128100100: everything holds the tag's id).
--
-- What may name a tag: segments' rules ({"field": "tag", "value": id}, at any depth), and
-- automations: the trigger (trigger_tag_id), tag steps (automation_steps.tag_id) and the rules of
-- condition steps and of the goal. Deleting the tag would leave each of those broken without a
-- word: a "has tag" condition matching nobody and "has not" everybody (a segment a campaign leaves
-- out would leave out no one), a trigger enrolling nobody, a step doing nothing. So deleting a tag
-- that any of them names is refused (409) whatever the automation's status, by a trigger, for
-- every path (delete_tag, a DELETE through the API, the service role); the admin changes or deletes
-- them first, or renames the tag instead. tag_usage answers what the confirmation names.

-- Does a rule set name this tag? Every object at any depth with field "tag" is a tag condition;
-- its value is the tag's id (the compiler accepts any case of hex digits).
create function private.rules_name_tag(p_rules jsonb, p_tag uuid)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select p_rules is not null and exists (
    select 1 from jsonb_path_query(p_rules, 'strict $.**') r
     where jsonb_typeof(r) = 'object' and r ->> 'field' = 'tag' and lower(r ->> 'value') = p_tag::text)
$$;

-- What names a tag: {"segments": [{id, name}], "automations": [{id, name, status, uses}]}, each
-- by name; `uses` lists {"use": "trigger" | "goal"} and {"use": "tag_add" | "tag_remove" |
-- "condition", "step": n} with n the step's place in the automation (1 = first). Security
-- definer: the delete guard must see everything whoever deletes; members read all of it anyway.
create function private.tag_references(p_tag uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'segments', coalesce((
      select jsonb_agg(jsonb_build_object('id', g.id, 'name', g.name) order by lower(g.name), g.id)
        from public.segments g where private.rules_name_tag(g.rules, p_tag)), '[]'::jsonb),
    'automations', coalesce((
      select jsonb_agg(jsonb_build_object('id', a.id, 'name', a.name, 'status', a.status,
               'uses', u.uses) order by lower(a.name), a.id)
        from public.automations a
        cross join lateral (
          select jsonb_agg(x.use order by x.ord, x.step) as uses
            from (
              select jsonb_build_object('use', 'trigger') as use, 0 as ord, 0 as step
               where a.trigger_kind = 'tag' and a.trigger_tag_id = p_tag
              union all
              select jsonb_build_object('use', s.kind, 'step', s.n), 1, s.n
                from (select st.kind, st.tag_id, st.rules,
                             row_number() over (order by st.position)::integer as n
                        from public.automation_steps st where st.automation_id = a.id) s
               where (s.kind in ('tag_add', 'tag_remove') and s.tag_id = p_tag)
                  or (s.kind = 'condition' and private.rules_name_tag(s.rules, p_tag))
              union all
              select jsonb_build_object('use', 'goal'), 2, 0
               where private.rules_name_tag(a.goal_rules, p_tag)
            ) x
        ) u
       where u.uses is not null), '[]'::jsonb))
$$;

-- The guard: a tag named by a segment or an automation stays (its subscribers keep it too).
create function private.check_tag_unused()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  refs jsonb := private.tag_references(old.id);
  n_segments integer := jsonb_array_length(refs -> 'segments');
  n_automations integer := jsonb_array_length(refs -> 'automations');
begin
  if n_segments + n_automations > 0 then
    raise exception using errcode = 'PT409', message = format(
      'postbox:conflict: The tag “%s” is used by %s; change or delete %s first.', old.name,
      concat_ws(' and ',
        case n_segments when 0 then null when 1 then '1 segment' else n_segments || ' segments' end,
        case n_automations when 0 then null when 1 then '1 automation' else n_automations || ' automations' end),
      case when n_segments + n_automations = 1 then 'it' else 'them' end);
  end if;
  return old;
end;
$$;
create trigger tags_check_unused before delete on public.tags
  for each row execute function private.check_tag_unused();

-- Creates a tag by name (admins and owners), with the checks rename_tag makes: trimmed, 1-64
-- characters, no comma or semicolon (422 naming "name"), unique ignoring case (409).
create function public.create_tag(p_name text)
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
  begin
    insert into public.tags (name) values (names[1]) returning * into result;
  exception when unique_violation then
    raise exception using errcode = 'PT409', message = 'postbox:conflict: Another tag already has that name.';
  end;
  return result;
end;
$$;
comment on function public.create_tag(text) is 'Creates a tag (admins and owners); 422 for a bad name, 409 when another tag has it.';

-- What deleting a tag would touch, for its confirmation: {id, name, subscribers, segments,
-- automations} (the last two as private.tag_references). Members (viewers up); 404 for a tag that
-- does not exist. The subscribers are counted under the caller's RLS.
create function public.tag_usage(p_tag uuid)
returns jsonb
language plpgsql
stable
security invoker
set search_path = ''
as $$
declare
  t public.tags;
begin
  if not private.has_role('viewer') then
    raise exception using errcode = 'PT403', message = 'postbox:forbidden: You do not have permission to do that.';
  end if;
  select * into t from public.tags where id = p_tag;
  if t.id is null then
    raise exception using errcode = 'PT404', message = 'postbox:not_found: That tag does not exist.';
  end if;
  return jsonb_build_object('id', t.id, 'name', t.name,
           'subscribers', (select count(*) from public.subscriber_tags x where x.tag_id = t.id))
         || private.tag_references(t.id);
end;
$$;
comment on function public.tag_usage(uuid) is 'A tag''s subscribers count and the segments and automations naming it (members); a tag they name cannot be deleted.';

revoke execute on function private.rules_name_tag(jsonb, uuid), private.tag_references(uuid),
  private.check_tag_unused() from public;
grant execute on function private.tag_references(uuid) to authenticated, service_role;
revoke execute on function public.create_tag(text), public.tag_usage(uuid) from public, anon;
grant execute on function public.create_tag(text), public.tag_usage(uuid) to authenticated, service_role;
