-- The site's public identity for every visitor, signed in or not (SPEC §6: anyone reads the public
-- settings). anon can select these columns directly, but `settings` hides its row from a signed-in
-- address that is not a member (it may hold sender details), so public pages read them here.
create function public.public_settings()
returns table (site_name text, tagline text, logo_path text, show_subscriber_count boolean)
language sql
stable
security definer
set search_path = ''
as $$
  select s.site_name, s.tagline, s.logo_path, s.show_subscriber_count from public.settings s where s.id
$$;
comment on function public.public_settings() is 'The four public columns of the settings row, for anyone.';

revoke execute on function public.public_settings() from public;
grant execute on function public.public_settings() to anon, authenticated, service_role;
