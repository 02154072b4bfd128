-- The team's own wording of the subscriber emails (issue 21): the double opt-in confirmation, the
-- welcome and the already-subscribed notice, each a subject, preheader and Markdown body with merge
-- tags. No row means the default (lib/email-render/system-emails.ts); "reset to default" deletes
-- the row. The team reads them, admins and the owner write them; the functions read them as the
-- service role.
create table public.email_templates (
  kind text primary key check (kind in ('confirmation', 'welcome', 'already_subscribed')),
  subject text not null check (char_length(subject) between 1 and 200),
  preheader text not null default '' check (char_length(preheader) <= 200),
  body_md text not null check (char_length(body_md) between 1 and 20000),
  updated_at timestamptz not null default now()
);
comment on table public.email_templates is 'Custom subscriber emails by kind; no row means the built-in default. Members read, admins and the owner write.';

alter table public.email_templates enable row level security;

create trigger email_templates_touch_updated_at before update on public.email_templates
  for each row execute function private.touch_updated_at();

create policy "Members read the email templates" on public.email_templates
  for select to authenticated using ((select private.has_role('viewer')));
create policy "Admins add email templates" on public.email_templates
  for insert to authenticated with check ((select private.has_role('admin')));
create policy "Admins change email templates" on public.email_templates
  for update to authenticated using ((select private.has_role('admin')))
  with check ((select private.has_role('admin')));
create policy "Admins reset email templates" on public.email_templates
  for delete to authenticated using ((select private.has_role('admin')));

revoke all on public.email_templates from anon, authenticated;
grant select, delete on public.email_templates to authenticated;
-- Update of `kind` too: an upsert (insert … on conflict do update) sets every column it sends.
grant insert (kind, subject, preheader, body_md), update (kind, subject, preheader, body_md)
  on public.email_templates to authenticated;
grant all on public.email_templates to service_role;
