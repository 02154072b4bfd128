-- A subscriber's own data export (preferences "download my data", SPEC §1) includes their
-- automation progress (issue 24: "tags, notes and automation progress are part of the
-- subscriber's own export"): per automation they were enrolled in, its name, the state (active,
-- completed, exited and why), the pass (round), when it started and finished, the step they are at
-- (its place, kind and, for an email, subject; only while active) and the automation emails sent
-- to them. Deletion needs no change: enrolments and sends go with the subscriber (cascade).
-- Otherwise as in 20261128100210.
create or replace function public.export_subscriber(p_subscriber uuid)
returns jsonb
language plpgsql
set search_path = ''
as $$
declare
  who public.subscribers := private.self_service_subscriber(p_subscriber);
  result jsonb;
  deliveries jsonb := '[]'::jsonb;
begin
  if to_regclass('public.deliveries') is not null then
    execute 'select coalesce(jsonb_agg(to_jsonb(d) - ''subscriber_id''), ''[]''::jsonb)
               from public.deliveries d where d.subscriber_id = $1'
      into deliveries using who.id;
  end if;
  result := jsonb_build_object(
    'subscriber', jsonb_build_object(
      'id', who.id, 'email', who.email, 'name', who.name, 'attributes', who.attributes,
      'notes', who.notes, 'source', who.signup_source,
      'status', who.status, 'created_at', who.created_at, 'updated_at', who.updated_at),
    'referral', jsonb_build_object(
      'code', who.referral_code,
      'referred_by_someone', who.referred_by is not null,
      'referrals', (select count(*) from public.subscribers r where r.referred_by = who.id)),
    'subscriptions', coalesce((
      select jsonb_agg(jsonb_build_object('list', jsonb_build_object('slug', l.slug, 'name', l.name),
          'status', sub.status, 'created_at', sub.created_at, 'confirmed_at', sub.confirmed_at,
          'unsubscribed_at', sub.unsubscribed_at)
        order by l.created_at, l.slug)
      from public.subscriptions sub join public.lists l on l.id = sub.list_id
      where sub.subscriber_id = who.id), '[]'::jsonb),
    'tags', coalesce((
      select jsonb_agg(t.name order by lower(t.name))
      from public.subscriber_tags x join public.tags t on t.id = x.tag_id
      where x.subscriber_id = who.id), '[]'::jsonb),
    -- Oldest enrolment first; steps are numbered by position (1 = first) out of `steps`.
    'automations', coalesce((
      select jsonb_agg(jsonb_build_object(
          'automation', a.name, 'state', e.state, 'exit_reason', e.exit_reason, 'round', e.round,
          'started_at', e.enrolled_at, 'finished_at', e.finished_at, 'steps', n.steps,
          'current_step', case when e.state = 'active' and cur.id is not null then
            jsonb_build_object('number', cur.number, 'kind', cur.kind,
              'subject', case when cur.kind = 'email' then cur.subject end, 'due_at', e.due_at) end,
          'emails', coalesce((
            select jsonb_agg(jsonb_build_object('subject', st.subject, 'status', y.status,
                'round', y.round, 'sent_at', y.sent_at) order by y.created_at, st.position)
              from public.automation_sends y
              join public.automation_steps st on st.id = y.step_id
             where y.automation_id = e.automation_id and y.subscriber_id = who.id), '[]'::jsonb))
        order by e.enrolled_at, a.name)
      from public.automation_enrolments e
      join public.automations a on a.id = e.automation_id
      cross join lateral (select count(*) as steps from public.automation_steps s
                           where s.automation_id = e.automation_id) n
      left join lateral (
        select st.id, st.kind, st.subject,
               (select count(*) from public.automation_steps s
                 where s.automation_id = st.automation_id and s.position <= st.position) as number
          from public.automation_steps st where st.id = e.step_id) cur on true
      where e.subscriber_id = who.id), '[]'::jsonb),
    'events', coalesce((
      select jsonb_agg(jsonb_build_object('type', e.type, 'data', e.data,
          'campaign_id', e.campaign_id, 'created_at', e.created_at) order by e.id)
      from public.events e where e.subscriber_id = who.id), '[]'::jsonb),
    'deliveries', deliveries);
  insert into public.events (subscriber_id, type, data)
  values (who.id, 'exported', jsonb_build_object('source', 'preferences'));
  return result;
end;
$$;
