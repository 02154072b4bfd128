-- Fix: the last-owner rule must answer 23514, not "permission denied for table users".
-- private.keep_an_owner() ran as the caller, and neither `authenticated` nor `service_role` may
-- read auth.users, so an owner removing themself (or the service role removing the last owner)
-- got 42501 (HTTP 403) from the auth.users look-up instead of the team rule. As security definer
-- it reads members and auth.users with its owner's rights; the rule itself is unchanged.
create or replace function private.keep_an_owner()
returns trigger
language plpgsql
security definer
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
-- A trigger function is never called directly; firing a trigger checks no EXECUTE privilege.
revoke execute on function private.keep_an_owner() from public, anon, authenticated;
