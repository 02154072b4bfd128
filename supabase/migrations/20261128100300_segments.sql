-- Segments (issue 24): a saved, named rule set in the subscriber rule format (20261127400100),
-- checked by the compiler whenever it is written, so a saved segment always compiles. A segment
-- is used as a condition {"field": "segment", "op": "in" | "not_in", "value": id} (the subscribers
-- page's filter, campaign audiences, automations), so a segment's own rules may not name another
-- segment (no cycles, and a segment means the same wherever it is used).
--
-- Roles: members (viewers and editors) read segments and count them; admins and owners create,
-- change and delete them, as they change subscribers (SPEC §6: editors write campaigns, not the
-- audience).
create table public.segments (
  id uuid primary key default gen_random_uuid(),
  name text not null check (name = btrim(name) and char_length(name) between 1 and 100),
  rules jsonb not null default '{"match": "all", "rules": []}',
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.segments is 'Saved subscriber rule sets (issue 24); rules are checked by the rule compiler on every write.';
create unique index segments_name_key on public.segments (lower(name));

create function private.check_segment_rules()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if jsonb_path_exists(new.rules, 'strict $.**.field ? (@ == "segment")') then
    perform private.rules_refuse('rules', 'a segment cannot use another segment');
  end if;
  -- Refuses with invalid_input naming the path, as the subscribers page's filter does.
  perform private.subscriber_rules_where(new.rules);
  if new.rules is null or jsonb_typeof(new.rules) <> 'object' then
    perform private.rules_refuse('rules', 'must be a group {"match": "all" | "any", "rules": […]}');
  end if;
  return new;
end;
$$;
create trigger segments_check_rules before insert or update of rules on public.segments
  for each row execute function private.check_segment_rules();
create trigger segments_touch_updated_at before update on public.segments
  for each row execute function private.touch_updated_at();

-- A name taken (ignoring case) is a conflict in the spec's shape rather than a bare 23505.
create function private.check_segment_name()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if exists (select 1 from public.segments g where lower(g.name) = lower(new.name) and g.id <> new.id) then
    raise exception using errcode = 'PT409', message = 'postbox:conflict: Another segment already has that name.';
  end if;
  return new;
end;
$$;
create trigger segments_check_name before insert or update of name on public.segments
  for each row execute function private.check_segment_name();

alter table public.segments enable row level security;
create policy "Members can see segments" on public.segments
  for select to authenticated using ((select private.has_role('viewer')));
create policy "Admins add segments" on public.segments
  for insert to authenticated with check ((select private.has_role('admin')));
create policy "Admins change segments" on public.segments
  for update to authenticated using ((select private.has_role('admin')))
  with check ((select private.has_role('admin')));
create policy "Admins delete segments" on public.segments
  for delete to authenticated using ((select private.has_role('admin')));

grant select, insert, update (name, rules), delete on public.segments to authenticated;
grant all on public.segments to service_role;
revoke execute on function private.check_segment_rules(), private.check_segment_name() from public;
