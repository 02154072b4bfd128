-- Issue 23 (Waitlist): reward milestones per waitlist — "at 3 referrals: early access to the beta"
-- — that a reader sees on their /waitlist/ page once they reach them (and the next one to aim
-- for). Text rewards only: they do not move anyone in the line (the place stays SPEC §9's).
-- Anyone may read the milestones of a public waitlist (the page is public, and the milestones are
-- what the team advertises); members read all; admins and owners manage them (SPEC §6).

create table public.waitlist_rewards (
  id uuid primary key default gen_random_uuid(),
  list_id uuid not null references public.lists (id) on delete cascade,
  referrals integer not null check (referrals between 1 and 10000),
  reward text not null check (char_length(btrim(reward)) between 1 and 200 and reward !~ '[[:cntrl:]]'),
  created_at timestamptz not null default now(),
  unique (list_id, referrals)
);
comment on table public.waitlist_rewards is 'Reward milestones of a waitlist: at `referrals` confirmed referrals, the reader''s waitlist page shows `reward`.';
alter table public.waitlist_rewards enable row level security;

create policy "Anyone can see the rewards of a public waitlist" on public.waitlist_rewards
  for select to anon, authenticated
  using (exists (select 1 from public.lists l
                  where l.id = list_id and l.waitlist and l.visibility = 'public'));
create policy "Members can see every reward" on public.waitlist_rewards
  for select to authenticated using ((select private.has_role('viewer')));
create policy "Admins add rewards to waitlists" on public.waitlist_rewards
  for insert to authenticated
  with check ((select private.has_role('admin'))
              and exists (select 1 from public.lists l where l.id = list_id and l.waitlist));
create policy "Admins change rewards" on public.waitlist_rewards
  for update to authenticated
  using ((select private.has_role('admin')))
  with check ((select private.has_role('admin'))
              and exists (select 1 from public.lists l where l.id = list_id and l.waitlist));
create policy "Admins remove rewards" on public.waitlist_rewards
  for delete to authenticated using ((select private.has_role('admin')));

grant select on public.waitlist_rewards to anon, authenticated;
grant insert (list_id, referrals, reward), update (referrals, reward), delete
  on public.waitlist_rewards to authenticated;
grant all on public.waitlist_rewards to service_role;
