-- The site's one settings row (SPEC §3): public identity, sender identity, tracking switches.
create table public.settings (
  id boolean primary key default true check (id),
  site_name text not null default 'Postbox' check (char_length(site_name) between 1 and 100),
  tagline text not null default '' check (char_length(tagline) <= 200),
  logo_path text check (logo_path is null or char_length(logo_path) <= 300),
  sender_name text not null default 'Postbox' check (char_length(sender_name) between 1 and 100),
  sender_email text not null default 'hello@example.com' check (private.is_valid_email(sender_email)),
  reply_to text check (reply_to is null or private.is_valid_email(reply_to)),
  postal_address text not null default '' check (char_length(postal_address) <= 300),
  show_subscriber_count boolean not null default false,
  track_opens boolean not null default false,
  track_clicks boolean not null default false,
  updated_at timestamptz not null default now()
);
comment on table public.settings is 'Exactly one row (id = true). Anyone reads the public columns; members read all; only the owner writes.';
comment on column public.settings.logo_path is 'Object path in the public media bucket, shown through the image loader.';

insert into public.settings (id) values (true);

alter table public.settings enable row level security;

create trigger settings_touch_updated_at before update on public.settings
  for each row execute function private.touch_updated_at();

create policy "Anyone can read the public settings" on public.settings
  for select to anon using (true);
create policy "Members can read the settings" on public.settings
  for select to authenticated using ((select private.has_role('viewer')));
create policy "The owner changes the settings" on public.settings
  for update to authenticated using ((select private.has_role('owner')))
  with check ((select private.has_role('owner')));

-- Column grants keep the sender identity and tracking switches away from visitors.
grant select (site_name, tagline, logo_path, show_subscriber_count) on public.settings to anon;
grant select on public.settings to authenticated;
grant update (site_name, tagline, logo_path, sender_name, sender_email, reply_to, postal_address,
  show_subscriber_count, track_opens, track_clicks) on public.settings to authenticated;
grant all on public.settings to service_role;
