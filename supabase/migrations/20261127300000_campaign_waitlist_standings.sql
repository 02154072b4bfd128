-- Merge tags (issue 21): `{{ waitlist.position }}` and `{{ waitlist.referral_url }}` in a campaign
-- to a waitlist list. process-queue asks once per claimed batch, and only when the campaign uses
-- them: each reader's place on the campaign's first waitlist list (by creation, then id, as the
-- List-Id header picks its list) and their referral code.
-- Parameters: the campaign, the batch's subscriber ids. One row per subscriber that exists (any
-- order); no rows when the campaign goes to no waitlist list. standing is private.waitlist_standing's
-- {position (null unless confirmed on that list), total, referrals}.
create or replace function public.campaign_waitlist_standings(
  p_campaign_id uuid,
  p_subscribers uuid[]
)
returns table (subscriber_id uuid, list_slug text, referral_code text, standing jsonb)
language sql
stable
security definer
set search_path = ''
as $$
  with wl as (
    select l.id, l.slug
    from public.campaign_lists cl
    join public.lists l on l.id = cl.list_id
    where cl.campaign_id = p_campaign_id and l.waitlist
    order by l.created_at, l.id
    limit 1
  )
  select s.id, wl.slug, s.referral_code, private.waitlist_standing(wl.id, s.id)
  from wl
  cross join public.subscribers s
  where s.id = any(p_subscribers);
$$;

comment on function public.campaign_waitlist_standings(uuid, uuid[]) is
  'Waitlist merge tags of a campaign batch: each reader''s standing on the campaign''s first waitlist list. Service role only (process-queue).';

revoke execute on function public.campaign_waitlist_standings(uuid, uuid[]) from public, anon, authenticated;
grant execute on function public.campaign_waitlist_standings(uuid, uuid[]) to service_role;
