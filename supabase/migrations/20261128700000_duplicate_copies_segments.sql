-- A duplicated campaign keeps its whole audience: the segments it includes and excludes as well as
-- its lists (duplicate_campaign predates campaign_segments, 20261128100600). Still security
-- invoker, so the caller's RLS decides, as for the lists.
create or replace function public.duplicate_campaign(p_campaign_id uuid)
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
  insert into public.campaign_segments (campaign_id, segment_id, mode)
  select copy.id, cs.segment_id, cs.mode from public.campaign_segments cs
   where cs.campaign_id = p_campaign_id;
  return copy;
end;
$$;
