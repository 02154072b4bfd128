-- Campaign audiences (issue 24): besides its lists, a campaign names segments to include and
-- segments to exclude. Recipients are the enabled subscribers confirmed on at least one of the
-- campaign's lists (the lists are the consent, and what the unsubscribe link and List-Id speak
-- for; a campaign still needs one, 20261124020100), narrowed to those matching at least one
-- included segment when there are any, minus everyone matching an excluded segment. Segments are
-- read when sending starts and recipients are fixed then (deliveries), as before.
create table public.campaign_segments (
  campaign_id uuid not null references public.campaigns (id) on delete cascade,
  segment_id uuid not null references public.segments (id) on delete cascade,
  mode text not null check (mode in ('include', 'exclude')),
  primary key (campaign_id, segment_id)
);
comment on table public.campaign_segments is 'Segments a campaign includes (narrowing its lists) or excludes (issue 24); edited with the draft.';
create index campaign_segments_segment_idx on public.campaign_segments (segment_id);
alter table public.campaign_segments enable row level security;

create policy "Members see campaign segments" on public.campaign_segments
  for select to authenticated using ((select private.has_role('viewer')));
create policy "Editors choose segments of drafts" on public.campaign_segments
  for insert to authenticated with check (
    (select private.has_role('editor'))
    and exists (select 1 from public.campaigns c where c.id = campaign_id and c.status = 'draft'));
create policy "Editors unchoose segments of drafts" on public.campaign_segments
  for delete to authenticated using (
    (select private.has_role('editor'))
    and exists (select 1 from public.campaigns c where c.id = campaign_id and c.status = 'draft'));
grant select, insert, delete on public.campaign_segments to authenticated;
grant all on public.campaign_segments to service_role;

-- A segment a draft or scheduled campaign still uses is not deleted from under it (an excluded
-- segment vanishing would widen the audience); sent campaigns keep their fixed recipients.
create function private.keep_used_segments()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if exists (select 1 from public.campaign_segments cs join public.campaigns c on c.id = cs.campaign_id
              where cs.segment_id = old.id and c.status in ('draft', 'scheduled', 'paused')) then
    raise exception using errcode = 'PT409',
      message = 'postbox:conflict: A campaign that has not been sent uses this segment. Remove it from the campaign first.';
  end if;
  return old;
end;
$$;
create trigger segments_keep_used before delete on public.segments
  for each row execute function private.keep_used_segments();
revoke execute on function private.keep_used_segments() from public;

-- The audience's condition on `s` as a rule set: any included segment, no excluded one.
create function private.audience_rules(p_include uuid[], p_exclude uuid[])
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select jsonb_build_object('match', 'all', 'rules',
    case when coalesce(cardinality(p_include), 0) = 0 then '[]'::jsonb
         else jsonb_build_array(jsonb_build_object('match', 'any', 'rules',
           (select jsonb_agg(jsonb_build_object('field', 'segment', 'op', 'in', 'value', i)) from unnest(p_include) i)))
    end
    || coalesce((select jsonb_agg(jsonb_build_object('field', 'segment', 'op', 'not_in', 'value', e))
                   from unnest(p_exclude) e), '[]'::jsonb))
$$;

-- The enabled subscribers confirmed on any of p_lists, matching the segments, as one query text
-- over $1 (the compiled parameters) and $2 (the lists); callers add what they do with them.
create function private.audience_sql(p_include uuid[], p_exclude uuid[], out clause text, out params jsonb)
language plpgsql
stable
set search_path = ''
as $$
declare
  w record;
begin
  select * into w from private.subscriber_rules_where(private.audience_rules(p_include, p_exclude));
  params := w.params;
  clause := format('select s.id from public.subscribers s where s.status = ''enabled''
      and exists (select 1 from public.subscriptions sub where sub.subscriber_id = s.id
                  and sub.list_id = any ($2) and sub.status = ''confirmed'') and %s', w.clause);
end;
$$;
revoke execute on function private.audience_rules(uuid[], uuid[]), private.audience_sql(uuid[], uuid[]) from public;
grant execute on function private.audience_rules(uuid[], uuid[]), private.audience_sql(uuid[], uuid[])
  to authenticated, service_role;

-- The editor's live recipient count for lists and segments (the same set start_campaign_send
-- fixes); under the caller's RLS, so non-members count 0.
create function public.campaign_audience_count(p_list_ids uuid[], p_include uuid[] default '{}',
  p_exclude uuid[] default '{}')
returns integer
language plpgsql
stable
security invoker
set search_path = ''
as $$
declare
  a record;
  n integer;
begin
  select * into a from private.audience_sql(p_include, p_exclude);
  execute format('select count(*)::integer from (%s) r', a.clause) into n
    using a.params, coalesce(p_list_ids, '{}'::uuid[]);
  return n;
end;
$$;
comment on function public.campaign_audience_count(uuid[], uuid[], uuid[]) is
  'Recipients a campaign to these lists, included and excluded segments would have now; under the caller''s RLS.';
revoke execute on function public.campaign_audience_count(uuid[], uuid[], uuid[]) from public, anon;
grant execute on function public.campaign_audience_count(uuid[], uuid[], uuid[]) to authenticated, service_role;

-- The send start fills the queue from the audience. Otherwise as 20261124020100.
create or replace function public.start_campaign_send(
  p_campaign_id uuid,
  p_body_html text,
  p_body_md text,
  p_subject text
)
returns integer
language plpgsql
set search_path = ''
as $$
declare
  campaign public.campaigns;
  total integer;
  a record;
  list_ids uuid[];
begin
  select * into campaign from public.campaigns where id = p_campaign_id for update;
  if not found then
    raise exception 'postbox:not_found: That campaign does not exist.' using errcode = 'P0001';
  end if;
  if campaign.status not in ('draft', 'scheduled') then
    raise exception 'postbox:conflict: Only a draft or scheduled campaign can be sent.' using errcode = 'P0001';
  end if;
  if (campaign.body_md, campaign.subject) is distinct from (p_body_md, p_subject) then
    raise exception 'postbox:conflict: The campaign changed while it was being sent. Try again.'
      using errcode = 'P0001';
  end if;
  if char_length(btrim(campaign.subject)) = 0 then
    raise exception 'postbox:invalid_input: subject: must be 1 to 200 characters' using errcode = 'P0001';
  end if;
  select array_agg(list_id) into list_ids from public.campaign_lists where campaign_id = p_campaign_id;
  if list_ids is null then
    raise exception 'postbox:invalid_input: lists: choose at least one list' using errcode = 'P0001';
  end if;
  select * into a from private.audience_sql(
    array(select segment_id from public.campaign_segments where campaign_id = p_campaign_id and mode = 'include'),
    array(select segment_id from public.campaign_segments where campaign_id = p_campaign_id and mode = 'exclude'));
  execute format('insert into public.deliveries (campaign_id, subscriber_id)
                  select $3, r.id from (%s) r on conflict do nothing', a.clause)
    using a.params, list_ids, p_campaign_id;
  get diagnostics total = row_count;
  if total = 0 then
    raise exception 'postbox:no_recipients: This campaign has no recipients.' using errcode = 'P0001';
  end if;
  update public.campaigns
     set status = 'sending', recipients = total, body_html = p_body_html
   where id = p_campaign_id;
  return total;
end;
$$;
