-- Issues have pretty URLs `/archive/<slug>/` (issue 22), next to the site's own routes under
-- /archive/: `issue` (the client-rendered `/archive/issue/?slug=`) and `index`. A campaign slug may
-- not be one of those: the editor's choice is refused (a check violation naming the slug, which
-- the editor shows on the slug field), and a slug made from the subject gets the id's start, as a
-- taken one already does.

create function private.archive_slug_reserved(p_slug text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select p_slug in ('issue', 'index')
$$;
comment on function private.archive_slug_reserved(text) is
  'True for a slug that is a route of the site under /archive/ and so cannot be an issue''s.';

create or replace function private.fill_archive_slug()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  base text;
begin
  if new.archive and new.slug is null and new.status in ('sending', 'sent') then
    base := private.archive_slug_base(new.subject);
    if private.archive_slug_reserved(base)
       or exists (select 1 from public.campaigns c where c.slug = base and c.id <> new.id) then
      base := base || '-' || left(replace(new.id::text, '-', ''), 8);
    end if;
    new.slug := base;
  end if;
  return new;
end;
$$;

-- Slugs already taken by a route move aside the same way; their old `?slug=` link then shows
-- "not found", which is why the check comes with this rule rather than after many such issues.
update public.campaigns
set slug = slug || '-' || left(replace(id::text, '-', ''), 8)
where private.archive_slug_reserved(slug);

alter table public.campaigns
  add constraint campaigns_slug_not_reserved check (not private.archive_slug_reserved(slug));
