-- Issue 23 (Team): an invitee's "Invited" turns into a member on the team card the moment they
-- first sign in, without reloading. Auth records the first sign-in (last_sign_in_at) or the
-- confirmation of the address (email_confirmed_at) on auth.users; for a team member that
-- announces 'changed' on the private topic `team:members`, which members may receive like the
-- other team feeds (20261127100000). The message names nobody: the card reads team_sign_ins again.

create function private.signal_team_sign_in()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if exists (select 1 from public.members m where m.user_id = new.id) then
    perform private.signal('team:members', 'changed', '{}'::jsonb, true);
  end if;
  return null;
end;
$$;
revoke execute on function private.signal_team_sign_in() from public, anon, authenticated;

create trigger users_signal_team_sign_in
  after update of last_sign_in_at, email_confirmed_at on auth.users
  for each row
  when ((old.last_sign_in_at is null and new.last_sign_in_at is not null)
        or (old.email_confirmed_at is null and new.email_confirmed_at is not null))
  execute function private.signal_team_sign_in();

create policy "Members receive the team's sign-ins" on realtime.messages
  for select to authenticated
  using (
    extension = 'broadcast'
    and (select realtime.topic()) = 'team:members'
    and (select private.has_role('viewer'))
  );
