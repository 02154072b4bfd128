-- export-subscribers selects through the rule compiler too (20261127400110), as the admin who
-- asked: the function calls this with the caller's token, so their row-level security decides
-- what is exported. The CSV lines and the response headers are those of export_subscribers_csv
-- (20261122220300, 20261123130000), which this replaces.
--
-- One page of CSV lines of the matches after p_after (by id, p_limit of them); X-Export-Rows and
-- X-Export-Last-Id name its row count and last id.
create function public.export_subscribers_matching_csv(p_rules jsonb, p_after uuid, p_limit integer)
returns public."text/plain"
language plpgsql
stable
security invoker
set search_path = ''
as $$
declare
  w record;
  page record;
begin
  if not private.has_role('admin') then
    raise exception using errcode = 'PT403', message = 'postbox:forbidden: You do not have permission to do that.';
  end if;
  if p_limit is null or p_limit < 1 or p_limit > 10000 then
    perform private.rules_refuse('limit', 'must be between 1 and 10000');
  end if;
  select * into w from private.subscriber_rules_where(p_rules);
  execute format($q$
    with page as (
      select s.id, s.email, s.name, s.status, s.created_at, s.attributes
        from public.subscribers s
       where %s and ($2::uuid is null or s.id > $2)
       order by s.id
       limit $3
    )
    select coalesce(string_agg(
             private.csv_field(p.email) || ',' || private.csv_field(p.name) || ',' || p.status || ',' ||
             private.csv_field(coalesce((select string_agg(l.slug || ':' || x.status, ' ' order by l.slug)
                                           from public.subscriptions x join public.lists l on l.id = x.list_id
                                          where x.subscriber_id = p.id), '')) || ',' ||
             to_char(p.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') || ',' ||
             private.csv_field(p.attributes::text) || E'\r\n', '' order by p.id), '') as csv,
           max(p.id::text)::uuid as last_id,
           count(*)::integer as row_count
      from page p$q$, w.clause)
    into page using w.params, p_after, p_limit;
  perform set_config('response.headers', json_build_array(
      json_build_object('X-Export-Rows', page.row_count::text),
      json_build_object('X-Export-Last-Id', coalesce(page.last_id::text, ''))
    )::text, true);
  return page.csv::public."text/plain";
end;
$$;
comment on function public.export_subscribers_matching_csv(jsonb, uuid, integer) is
  'One page of the subscribers export (CSV lines) for a rule set; admins only, under their RLS.';
revoke execute on function public.export_subscribers_matching_csv(jsonb, uuid, integer) from public, anon;
grant execute on function public.export_subscribers_matching_csv(jsonb, uuid, integer)
  to authenticated, service_role;
grant execute on function private.csv_field(text) to authenticated;

drop function public.export_subscribers_csv(text, text, text, text, uuid, integer);
drop function public.export_subscribers_page(text, text, text, text, uuid, integer);
