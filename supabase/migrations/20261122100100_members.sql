-- The team (SPEC §3, §6): who may use the admin and with which role.
create table public.members (
  user_id uuid primary key references auth.users (id) on delete cascade,
  email text not null,
  role text not null check (role in ('owner', 'admin', 'editor', 'viewer')),
  invited_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now()
);
comment on table public.members is 'Team members. The POSTBOX_OWNER_EMAIL address becomes owner on first sign-in (claim-owner); everyone else joins through invite-member.';
comment on column public.members.email is 'Copied from auth.users when the member is added, so the team list can show it (auth.users is not readable by clients).';

alter table public.members enable row level security;

-- Role of the signed-in user, or null for anon and non-members. Security definer so that policies
-- on members itself can call it without recursing through members' own policies.
create function private.member_role()
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select m.role from public.members m where m.user_id = (select auth.uid())
$$;

-- True when the signed-in user's role is at least `minimum` (viewer < editor < admin < owner).
create function private.has_role(minimum text)
returns boolean
language sql
stable
set search_path = ''
as $$
  select coalesce(
    array_position(array['viewer', 'editor', 'admin', 'owner'], private.member_role())
      >= array_position(array['viewer', 'editor', 'admin', 'owner'], minimum),
    false)
$$;
comment on function private.has_role(text) is 'Policy helper: the caller is a member whose role ranks at least `minimum`.';

revoke execute on function private.member_role(), private.has_role(text) from public;
grant execute on function private.member_role(), private.has_role(text) to anon, authenticated, service_role;

create policy "Members can see the team" on public.members
  for select to authenticated using ((select private.has_role('viewer')));
create policy "The owner adds members" on public.members
  for insert to authenticated with check ((select private.has_role('owner')));
create policy "The owner changes roles" on public.members
  for update to authenticated using ((select private.has_role('owner')))
  with check ((select private.has_role('owner')));
create policy "The owner removes members" on public.members
  for delete to authenticated using ((select private.has_role('owner')));

-- A team always keeps at least one owner: the last one can neither leave nor be demoted.
create function private.keep_an_owner()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if old.role = 'owner' and (tg_op = 'DELETE' or new.role <> 'owner') then
    if not exists (select 1 from public.members m where m.role = 'owner' and m.user_id <> old.user_id) then
      -- Deleting the auth user (cascade) is allowed: there is nobody left to protect.
      if tg_op = 'DELETE' and not exists (select 1 from auth.users u where u.id = old.user_id) then
        return old;
      end if;
      raise exception 'The team must keep at least one owner.' using errcode = '23514';
    end if;
  end if;
  return case when tg_op = 'DELETE' then old else new end;
end;
$$;
create trigger members_keep_an_owner
  before update of role or delete on public.members
  for each row execute function private.keep_an_owner();

grant select, insert, update, delete on public.members to authenticated;
grant all on public.members to service_role;
