-- Automations choose segments (issue 24): a "continue only if in a segment" step and a goal
-- ("exit when they join a segment") are rule sets naming a segment ({"field": "segment", "op":
-- "in", "value": id}), compiled with the segment's rules as they are when the step is due. A
-- segment they name is not deleted from under them: the step or goal could no longer be
-- evaluated. As for campaigns (20261128100600), the deletion is refused with a clear message.
create function private.keep_segments_of_automations()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  names_it constant jsonpath := '$.** ? (@.field == "segment" && @.value == $id)';
  vars jsonb := jsonb_build_object('id', old.id::text);
  used_by text;
begin
  select a.name into used_by
    from public.automations a
   where (a.goal_rules is not null and jsonb_path_exists(a.goal_rules, names_it, vars))
      or exists (select 1 from public.automation_steps st
                  where st.automation_id = a.id and st.kind = 'condition'
                    and jsonb_path_exists(st.rules, names_it, vars))
   order by a.created_at
   limit 1;
  if used_by is not null then
    raise exception using errcode = 'PT409',
      message = format('postbox:conflict: The automation “%s” uses this segment. Change its step or goal first.', used_by);
  end if;
  return old;
end;
$$;
revoke execute on function private.keep_segments_of_automations() from public;
create trigger segments_keep_for_automations before delete on public.segments
  for each row execute function private.keep_segments_of_automations();
