-- Tags (issue 24): labels the team puts on subscribers, never shown to subscribers. A tag's name is
-- unique ignoring case ("VIP" and "vip" are one tag); a subscriber has a tag at most once.
-- Members read them; admins and owners add, rename and remove them (as they change subscribers,
-- SPEC §6). Deleting a subscriber or a tag removes its subscriber_tags rows (cascade).
create table public.tags (
  id uuid primary key default gen_random_uuid(),
  name text not null check (name = btrim(name) and char_length(name) between 1 and 64
                            and name !~ '[,;[:cntrl:]]'),
  created_at timestamptz not null default now()
);
comment on table public.tags is 'Labels on subscribers (issue 24); the name is unique ignoring case and holds no comma or semicolon (the import column separates tags with them).';
create unique index tags_name_key on public.tags (lower(name));

create table public.subscriber_tags (
  subscriber_id uuid not null references public.subscribers (id) on delete cascade,
  tag_id uuid not null references public.tags (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (subscriber_id, tag_id)
);
comment on table public.subscriber_tags is 'Which subscriber has which tag (issue 24).';
-- The rule compiler's "has tag" reads by subscriber (the primary key); filling by tag reads this.
create index subscriber_tags_tag_idx on public.subscriber_tags (tag_id, subscriber_id);

alter table public.tags enable row level security;
alter table public.subscriber_tags enable row level security;

create policy "Members can see tags" on public.tags
  for select to authenticated using ((select private.has_role('viewer')));
create policy "Admins add tags" on public.tags
  for insert to authenticated with check ((select private.has_role('admin')));
create policy "Admins rename tags" on public.tags
  for update to authenticated using ((select private.has_role('admin')))
  with check ((select private.has_role('admin')));
create policy "Admins delete tags" on public.tags
  for delete to authenticated using ((select private.has_role('admin')));

create policy "Members can see subscriber tags" on public.subscriber_tags
  for select to authenticated using ((select private.has_role('viewer')));
create policy "Admins tag subscribers" on public.subscriber_tags
  for insert to authenticated with check ((select private.has_role('admin')));
create policy "Admins untag subscribers" on public.subscriber_tags
  for delete to authenticated using ((select private.has_role('admin')));

grant select, insert, update (name), delete on public.tags to authenticated;
grant select, insert, delete on public.subscriber_tags to authenticated;
grant all on public.tags, public.subscriber_tags to service_role;
