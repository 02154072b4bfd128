-- Campaigns (SPEC §3, §4): a Markdown issue sent to the confirmed subscribers of chosen lists.
create table public.campaigns (
  id uuid primary key default gen_random_uuid(),
  name text not null check (char_length(btrim(name)) between 1 and 200),
  subject text not null default '' check (char_length(subject) <= 200),
  preheader text not null default '' check (char_length(preheader) <= 200),
  body_md text not null default '' check (octet_length(body_md) <= 524288),
  body_html text not null default '',
  from_name text check (from_name is null or char_length(from_name) <= 100),
  from_email text check (from_email is null or private.is_valid_email(from_email)),
  status text not null default 'draft'
    check (status in ('draft', 'scheduled', 'sending', 'paused', 'sent', 'cancelled')),
  scheduled_at timestamptz,
  started_at timestamptz,
  finished_at timestamptz,
  archive boolean not null default false,
  slug text unique check (slug is null or (char_length(slug) <= 96 and slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$')),
  recipients integer not null default 0,
  sent integer not null default 0,
  failed integer not null default 0,
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.campaigns is 'Only drafts are edited through the API; every status change goes through send-campaign / process-queue (service role), checked by campaigns_check_transition.';
comment on column public.campaigns.body_html is 'Sanitised HTML rendered from body_md when the send starts; what the archive shows.';
comment on column public.campaigns.archive is 'Show this campaign in the public archive once it is sent.';

create index campaigns_status_idx on public.campaigns (status, created_at desc);
create index campaigns_archive_idx on public.campaigns (finished_at desc) where archive and status = 'sent';

alter table public.campaigns enable row level security;

create trigger campaigns_touch_updated_at before update on public.campaigns
  for each row execute function private.touch_updated_at();

-- SPEC §4: draft → scheduled → sending → sent; sending ↔ paused; draft/scheduled/paused →
-- cancelled; a scheduled campaign may go back to draft (unschedule). Only drafts are edited.
create function private.check_campaign_transition()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    if new.status <> 'draft' then
      raise exception 'postbox:conflict: A new campaign starts as a draft.' using errcode = 'P0001';
    end if;
    return new;
  end if;
  if new.status = old.status then
    -- Counters and timestamps move while sending; content only while a draft.
    if old.status <> 'draft' and (new.subject, new.preheader, new.body_md, new.name, new.from_name,
        new.from_email) is distinct from (old.subject, old.preheader, old.body_md, old.name,
        old.from_name, old.from_email) then
      raise exception 'postbox:conflict: Only drafts can be edited.' using errcode = 'P0001';
    end if;
    return new;
  end if;
  if not (old.status, new.status) in (
    ('draft', 'scheduled'), ('draft', 'sending'), ('draft', 'cancelled'),
    ('scheduled', 'sending'), ('scheduled', 'cancelled'), ('scheduled', 'draft'),
    ('sending', 'paused'), ('sending', 'sent'),
    ('paused', 'sending'), ('paused', 'cancelled')
  ) then
    raise exception 'postbox:conflict: A % campaign cannot become %.', old.status, new.status
      using errcode = 'P0001';
  end if;
  if new.status = 'sending' and new.started_at is null then
    new.started_at := now();
  end if;
  if new.status in ('sent', 'cancelled') then
    new.finished_at := now();
  end if;
  return new;
end;
$$;
create trigger campaigns_check_transition
  before insert or update on public.campaigns
  for each row execute function private.check_campaign_transition();

create policy "Members see every campaign, everyone the archive" on public.campaigns
  for select to authenticated using ((archive and status = 'sent') or (select private.has_role('viewer')));
create policy "Anyone can read the public archive" on public.campaigns
  for select to anon using (archive and status = 'sent');
create policy "Editors write drafts" on public.campaigns
  for insert to authenticated with check ((select private.has_role('editor')) and status = 'draft');
create policy "Editors edit drafts" on public.campaigns
  for update to authenticated using ((select private.has_role('editor')) and status = 'draft')
  with check ((select private.has_role('editor')) and status = 'draft');
create policy "Editors delete drafts, admins finished campaigns too" on public.campaigns
  for delete to authenticated using (
    ((select private.has_role('editor')) and status = 'draft')
    or ((select private.has_role('admin')) and status in ('sent', 'cancelled'))
  );

-- Clients write content only; status, counters and timestamps belong to the functions.
grant select on public.campaigns to anon;
grant select, delete on public.campaigns to authenticated;
grant insert (name, subject, preheader, body_md, from_name, from_email, archive, slug)
  on public.campaigns to authenticated;
grant update (name, subject, preheader, body_md, from_name, from_email, archive, slug)
  on public.campaigns to authenticated;
grant all on public.campaigns to service_role;

-- The lists a campaign goes to.
create table public.campaign_lists (
  campaign_id uuid not null references public.campaigns (id) on delete cascade,
  list_id uuid not null references public.lists (id) on delete cascade,
  primary key (campaign_id, list_id)
);
create index campaign_lists_list_idx on public.campaign_lists (list_id);
alter table public.campaign_lists enable row level security;

create policy "Members see campaign lists" on public.campaign_lists
  for select to authenticated using ((select private.has_role('viewer')));
create policy "Editors choose lists of drafts" on public.campaign_lists
  for insert to authenticated with check (
    (select private.has_role('editor'))
    and exists (select 1 from public.campaigns c where c.id = campaign_id and c.status = 'draft'));
create policy "Editors unchoose lists of drafts" on public.campaign_lists
  for delete to authenticated using (
    (select private.has_role('editor'))
    and exists (select 1 from public.campaigns c where c.id = campaign_id and c.status = 'draft'));

grant select, insert, delete on public.campaign_lists to authenticated;
grant all on public.campaign_lists to service_role;

alter table public.events
  add constraint events_campaign_id_fkey foreign key (campaign_id)
  references public.campaigns (id) on delete set null;
create index events_campaign_idx on public.events (campaign_id, type) where campaign_id is not null;

alter publication supabase_realtime add table public.campaigns;
