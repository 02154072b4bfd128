-- Campaign lifecycle (issue 23): duplicate any campaign into a new draft; a paused campaign's
-- subject, preheader, body and name may be edited by an admin before it resumes (never its lists,
-- sender, archive or slug); a resume re-renders what the archive keeps from the edited content;
-- templates, the starting points of new campaigns.

-- The transition rule of 20261122210000_campaign_sending.sql, with one widening: while paused,
-- name, subject, preheader and body_md may change (the messages still queued are rendered from
-- them after the resume), the sender, archive and slug may not. Everything else is unchanged.
create or replace function private.check_campaign_transition()
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
    if old.status = 'paused' then
      if (new.from_name, new.from_email, new.archive, new.slug)
          is distinct from (old.from_name, old.from_email, old.archive, old.slug) then
        raise exception 'postbox:conflict: While paused only the name, subject, preheader and body can change.'
          using errcode = 'P0001';
      end if;
    elsif old.status <> 'draft' and (new.subject, new.preheader, new.body_md, new.name, new.from_name,
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
  ) and not ((old.status, new.status) = ('sent', 'sending')
             and current_setting('postbox.reopen', true) = 'on') then
    raise exception 'postbox:conflict: A % campaign cannot become %.', old.status, new.status
      using errcode = 'P0001';
  end if;
  if new.status = 'sending' and new.started_at is null then
    new.started_at := now();
  end if;
  if new.status = 'sending' then
    new.finished_at := null;
  end if;
  if new.status in ('sent', 'cancelled') then
    new.finished_at := now();
  end if;
  return new;
end;
$$;

-- SPEC §6: sending controls are the admins'; so is changing a campaign that is part sent. The
-- column grants already limit a client to the content columns; the trigger narrows them further.
create policy "Admins edit paused campaigns" on public.campaigns
  for update to authenticated using ((select private.has_role('admin')) and status = 'paused')
  with check ((select private.has_role('admin')) and status = 'paused');

-- A resume after an edit: the content read by send-campaign was checked (merge tags) and rendered
-- for the archive; this stores that rendering and resumes, or refuses (conflict) when the content
-- changed again meanwhile, so what is archived and sent is what was checked.
create function public.resume_campaign_send(
  p_campaign_id uuid,
  p_body_html text,
  p_body_md text,
  p_subject text,
  p_preheader text
)
returns public.campaigns
language plpgsql
set search_path = ''
as $$
declare
  campaign public.campaigns;
begin
  select * into campaign from public.campaigns where id = p_campaign_id for update;
  if not found then
    raise exception 'postbox:not_found: That campaign does not exist.' using errcode = 'P0001';
  end if;
  if campaign.status <> 'paused' then
    raise exception 'postbox:conflict: Only a paused campaign can be resumed.' using errcode = 'P0001';
  end if;
  if (campaign.body_md, campaign.subject, campaign.preheader)
      is distinct from (p_body_md, p_subject, p_preheader) then
    raise exception 'postbox:conflict: The campaign changed while it was being resumed. Try again.'
      using errcode = 'P0001';
  end if;
  if char_length(btrim(campaign.subject)) = 0 then
    raise exception 'postbox:invalid_input: subject: must be 1 to 200 characters' using errcode = 'P0001';
  end if;
  update public.campaigns set status = 'sending', body_html = p_body_html
   where id = p_campaign_id;
  -- Everything may have been sent before the pause took effect: finish it now.
  perform private.finish_campaign_if_done(p_campaign_id);
  select * into campaign from public.campaigns where id = p_campaign_id;
  return campaign;
end;
$$;
revoke execute on function public.resume_campaign_send(uuid, text, text, text, text) from public, anon, authenticated;
grant execute on function public.resume_campaign_send(uuid, text, text, text, text) to service_role;

-- " (copy)" added to a text of at most 200 characters, cut so the result fits.
create function private.copy_title(p_text text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case when btrim(p_text) = '' then p_text
              else left(p_text, 200 - char_length(' (copy)')) || ' (copy)' end
$$;

-- Any campaign (whatever its status) as a new draft: its name and subject with " (copy)", the
-- same preheader, body, sender, archive choice and lists; no schedule, slug, counters or report.
-- Security invoker: the caller's RLS applies, so only editors and up can (a viewer's insert is
-- refused, 42501), and only a campaign the caller can read is copied.
create function public.duplicate_campaign(p_campaign_id uuid)
returns public.campaigns
language plpgsql
security invoker
set search_path = ''
as $$
declare
  source public.campaigns;
  copy public.campaigns;
begin
  select * into source from public.campaigns where id = p_campaign_id;
  if not found then
    raise exception 'postbox:not_found: That campaign does not exist.' using errcode = 'P0001';
  end if;
  insert into public.campaigns (name, subject, preheader, body_md, from_name, from_email, archive)
  values (private.copy_title(source.name), private.copy_title(source.subject), source.preheader,
          source.body_md, source.from_name, source.from_email, source.archive)
  returning * into copy;
  insert into public.campaign_lists (campaign_id, list_id)
  select copy.id, cl.list_id from public.campaign_lists cl where cl.campaign_id = p_campaign_id;
  return copy;
end;
$$;
revoke execute on function public.duplicate_campaign(uuid) from public, anon;
grant execute on function public.duplicate_campaign(uuid) to authenticated, service_role;
grant execute on function private.copy_title(text) to authenticated, service_role;

-- Templates: starting points for new campaigns (SPEC §10). Viewers read them, editors and up
-- write them (as they write drafts).
create table public.campaign_templates (
  id uuid primary key default gen_random_uuid(),
  name text not null check (char_length(btrim(name)) between 1 and 100),
  description text not null default '' check (char_length(description) <= 300),
  subject text not null default '' check (char_length(subject) <= 200),
  preheader text not null default '' check (char_length(preheader) <= 200),
  body_md text not null default '' check (octet_length(body_md) <= 524288),
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.campaign_templates is 'Starting points for new campaigns: a new campaign copies one, and stays unrelated to it.';
create index campaign_templates_name_idx on public.campaign_templates (lower(name), id);

alter table public.campaign_templates enable row level security;

create trigger campaign_templates_touch_updated_at before update on public.campaign_templates
  for each row execute function private.touch_updated_at();

create policy "Members read templates" on public.campaign_templates
  for select to authenticated using ((select private.has_role('viewer')));
create policy "Editors add templates" on public.campaign_templates
  for insert to authenticated with check ((select private.has_role('editor')));
create policy "Editors change templates" on public.campaign_templates
  for update to authenticated using ((select private.has_role('editor')))
  with check ((select private.has_role('editor')));
create policy "Editors delete templates" on public.campaign_templates
  for delete to authenticated using ((select private.has_role('editor')));

grant select, delete on public.campaign_templates to authenticated;
grant insert (name, description, subject, preheader, body_md) on public.campaign_templates to authenticated;
grant update (name, description, subject, preheader, body_md) on public.campaign_templates to authenticated;
grant all on public.campaign_templates to service_role;
