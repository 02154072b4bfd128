-- SPEC §6: "the address in POSTBOX_OWNER_EMAIL becomes owner on first sign-in". claim_owner used
-- to make that address owner on every call, and the site calls it whenever a signed-in user has no
-- members row, so the team could neither demote nor remove that account: its next sign-in made it
-- owner again. Now each address claims once. Once claimed, the team decides: a demoted account
-- keeps its role, a removed one stays out. Pointing POSTBOX_OWNER_EMAIL at a new address (the
-- deployer's way back in) lets that address claim once.

create table private.owner_claims (
  email text primary key,
  user_id uuid not null,
  claimed_at timestamptz not null default now()
);
comment on table private.owner_claims is 'Owner addresses that have claimed ownership (SPEC §6: on first sign-in); each claims once.';
alter table private.owner_claims enable row level security;
grant all on private.owner_claims to service_role;

-- Deployments that ran the old claim: every current owner has had their first sign-in.
insert into private.owner_claims (email, user_id)
select m.email, m.user_id from public.members m where m.role = 'owner'
on conflict (email) do nothing;

-- The caller (claim-owner) has checked that p_email is the confirmed POSTBOX_OWNER_EMAIL of
-- p_user_id. A repeated call by the owner who claimed answers their row and changes nothing.
create or replace function public.claim_owner(p_user_id uuid, p_email text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_email text := lower(btrim(p_email));
  m record;
begin
  insert into private.owner_claims (email, user_id) values (v_email, p_user_id)
  on conflict (email) do nothing;
  if found then
    insert into public.members as cur (user_id, email, role)
    values (p_user_id, v_email, 'owner')
    on conflict (user_id) do update set role = 'owner', email = excluded.email
    returning user_id, email, role into m;
  else
    select cur.user_id, cur.email, cur.role into m
    from public.members cur
    join private.owner_claims c on c.user_id = cur.user_id and c.email = v_email
    where cur.user_id = p_user_id and cur.role = 'owner';
    if not found then
      -- Claimed before, and the team has since demoted or removed this account.
      raise exception 'postbox:forbidden' using errcode = 'P0001';
    end if;
  end if;
  return jsonb_build_object('user_id', m.user_id, 'email', m.email, 'role', m.role);
end;
$$;
