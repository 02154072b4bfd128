-- The public `media` bucket (SPEC §3, §5): images for the logo and campaigns, served through the
-- image loader. Anyone can fetch a public URL; members list it; editors upload; admins delete.
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('media', 'media', true, 5242880, array['image/png', 'image/jpeg', 'image/webp', 'image/gif'])
on conflict (id) do nothing;

create policy "Members can list media" on storage.objects
  for select to authenticated using (bucket_id = 'media' and (select private.has_role('viewer')));
create policy "Editors upload media" on storage.objects
  for insert to authenticated with check (bucket_id = 'media' and (select private.has_role('editor')));
create policy "Editors replace media" on storage.objects
  for update to authenticated using (bucket_id = 'media' and (select private.has_role('editor')))
  with check (bucket_id = 'media' and (select private.has_role('editor')));
create policy "Admins delete media" on storage.objects
  for delete to authenticated using (bucket_id = 'media' and (select private.has_role('admin')));
