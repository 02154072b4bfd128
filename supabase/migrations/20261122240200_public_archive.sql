-- The public archive (SPEC §2, §6): anyone, signed in or not, reads archived sent campaigns through
-- two functions that answer only what a reader sees (subject, preheader, sanitised HTML, slug and
-- date). The table itself is for the team: its other columns (the raw Markdown, which may hold
-- what the sanitiser removed, the author, recipient and failure counts, sender details) were
-- readable by anon and by any signed-in stranger before this migration.

drop policy "Members see every campaign, everyone the archive" on public.campaigns;
drop policy "Anyone can read the public archive" on public.campaigns;
create policy "Members see every campaign" on public.campaigns
  for select to authenticated using ((select private.has_role('viewer')));
revoke select on public.campaigns from anon;

-- Keyset order of the archive: newest first, the id breaking ties of the same instant.
drop index if exists public.campaigns_archive_idx;
create index campaigns_archive_idx on public.campaigns (finished_at desc, id desc)
  where archive and status = 'sent';

-- `Issue title` → `issue-title`, at most 80 characters; `issue` when nothing is left.
create function private.archive_slug_base(p_subject text)
returns text
language sql
immutable
set search_path = ''
as $$
  select coalesce(
    nullif(btrim(left(btrim(regexp_replace(lower(coalesce(p_subject, '')), '[^a-z0-9]+', '-', 'g'), '-'), 80), '-'), ''),
    'issue')
$$;

-- An archived campaign needs a slug for /archive/issue/?slug=. The editor may choose one; a send
-- that starts without one gets the subject's, with the start of the id when that is taken.
create function private.fill_archive_slug()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  base text;
begin
  if new.archive and new.slug is null and new.status in ('sending', 'sent') then
    base := private.archive_slug_base(new.subject);
    if exists (select 1 from public.campaigns c where c.slug = base and c.id <> new.id) then
      base := base || '-' || left(replace(new.id::text, '-', ''), 8);
    end if;
    new.slug := base;
  end if;
  return new;
end;
$$;
create trigger campaigns_fill_archive_slug
  before insert or update on public.campaigns
  for each row execute function private.fill_archive_slug();

update public.campaigns set slug = slug where archive and status = 'sent' and slug is null;

-- One page of the archive, newest first. With p_before (a finished_at and id from a page's last
-- row) the issues older than it; with p_after (a page's first row) the issues newer than it, still
-- returned newest first. Answers up to p_limit + 1 rows (1 to 50 a page) so the caller knows
-- whether another page lies beyond in the direction it moved.
create function public.archive_issues(
  p_limit integer default 20,
  p_before_at timestamptz default null,
  p_before_id uuid default null,
  p_after_at timestamptz default null,
  p_after_id uuid default null
)
returns table (id uuid, slug text, subject text, preheader text, finished_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  -- Two branches, each walking campaigns_archive_idx in its own direction; only one has rows.
  (select c.id, c.slug, c.subject, c.preheader, c.finished_at
   from public.campaigns c
   where p_after_at is null
     and c.archive and c.status = 'sent' and c.slug is not null and c.finished_at is not null
     and (p_before_at is null or (c.finished_at, c.id) < (p_before_at, coalesce(p_before_id,
       'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid)))
   order by c.finished_at desc, c.id desc
   limit least(greatest(coalesce(p_limit, 20), 1), 50) + 1)
  union all
  (select c.id, c.slug, c.subject, c.preheader, c.finished_at
   from public.campaigns c
   where p_after_at is not null
     and c.archive and c.status = 'sent' and c.slug is not null and c.finished_at is not null
     and (c.finished_at, c.id) > (p_after_at, coalesce(p_after_id,
       '00000000-0000-0000-0000-000000000000'::uuid))
   order by c.finished_at asc, c.id asc
   limit least(greatest(coalesce(p_limit, 20), 1), 50) + 1)
  order by finished_at desc, id desc
$$;
comment on function public.archive_issues(integer, timestamptz, uuid, timestamptz, uuid) is
  'A keyset page of the public archive for anyone: archived sent campaigns, newest first, p_limit + 1 rows.';

-- One archived issue by its slug, or no row (unknown, not archived, or not sent).
create function public.archive_issue(p_slug text)
returns table (id uuid, slug text, subject text, preheader text, body_html text, finished_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select c.id, c.slug, c.subject, c.preheader, c.body_html, c.finished_at
  from public.campaigns c
  where c.slug = p_slug and c.archive and c.status = 'sent' and c.finished_at is not null
$$;
comment on function public.archive_issue(text) is
  'One archived sent campaign by slug for anyone: what a reader sees, nothing of the team''s.';

revoke execute on function public.archive_issues(integer, timestamptz, uuid, timestamptz, uuid) from public;
revoke execute on function public.archive_issue(text) from public;
grant execute on function public.archive_issues(integer, timestamptz, uuid, timestamptz, uuid)
  to anon, authenticated, service_role;
grant execute on function public.archive_issue(text) to anon, authenticated, service_role;
