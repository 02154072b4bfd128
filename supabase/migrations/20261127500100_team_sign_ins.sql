-- Issue 23 (Team): an invitee shows as "Invited" until they first sign in. auth.users is not
-- readable by clients, so members read each member's first-sign-in state through this function;
-- it answers nothing to a caller who is not on the team.
create function public.team_sign_ins()
returns table (user_id uuid, invited boolean, invited_at timestamptz, last_sign_in_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select m.user_id,
    -- Never signed in and never confirmed: the invite is still open.
    u.last_sign_in_at is null and u.email_confirmed_at is null,
    u.invited_at,
    u.last_sign_in_at
  from public.members m
  join auth.users u on u.id = m.user_id
  where (select private.has_role('viewer'))
$$;
comment on function public.team_sign_ins() is 'For members only: each member''s sign-in state (invited = never signed in nor confirmed), for the team list.';
revoke execute on function public.team_sign_ins() from public, anon;
grant execute on function public.team_sign_ins() to authenticated, service_role;
