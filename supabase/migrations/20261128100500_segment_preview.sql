-- The segment editor's live preview (issue 24): how many subscribers a rule set matches and a few
-- of them (newest first), in one call. Security invoker: what the caller's RLS shows is counted.
create function public.preview_subscribers_matching(p_rules jsonb, p_limit integer default 10)
returns jsonb
language plpgsql
stable
security invoker
set search_path = ''
as $$
declare
  w record;
  n bigint;
  sample jsonb;
begin
  if p_limit is null or p_limit < 0 or p_limit > 50 then
    perform private.rules_refuse('limit', 'must be between 0 and 50');
  end if;
  select * into w from private.subscriber_rules_where(p_rules);
  execute format('select count(*) from public.subscribers s where %s', w.clause) into n using w.params;
  execute format($q$select coalesce(jsonb_agg(jsonb_build_object('id', p.id, 'email', p.email,
      'name', p.name, 'status', p.status, 'created_at', p.created_at) order by p.created_at desc, p.id desc), '[]')
      from (select s.id, s.email, s.name, s.status, s.created_at from public.subscribers s where %s
            order by s.created_at desc, s.id desc limit $2) p$q$, w.clause)
    into sample using w.params, p_limit;
  return jsonb_build_object('count', n, 'sample', sample);
end;
$$;
comment on function public.preview_subscribers_matching(jsonb, integer) is
  'Count and newest few subscribers matching a rule set (the segment editor); under the caller''s RLS.';
revoke execute on function public.preview_subscribers_matching(jsonb, integer) from public, anon;
grant execute on function public.preview_subscribers_matching(jsonb, integer) to authenticated, service_role;
