-- Subscriber export (SPEC §7): export-subscribers pages through the matching subscribers by id
-- (keyset, 5,000 at a time) and gets each page as ready CSV lines, so the function only streams
-- text to storage and never holds the whole export. Service role only.

-- RFC 4180 quoting: a field with a quote, delimiter or line break is quoted, quotes doubled.
create function private.csv_field(value text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case when value is null then ''
              when value ~ '[",\r\n]' then '"' || replace(value, '"', '""') || '"'
              else value end
$$;
revoke execute on function private.csv_field(text) from public;

-- One page after `p_after` (null: from the start): CSV lines (email, name, status, lists,
-- created_at, attributes as JSON), the last id for the next page, and how many rows it holds.
-- `lists` names the subscriber's lists as slug:status, separated by spaces.
create function public.export_subscribers_page(p_list text, p_status text, p_subscriber_status text,
  p_search text, p_after uuid, p_limit integer)
returns table (csv text, last_id uuid, row_count integer)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_list uuid;
  pattern text;
begin
  if p_list is not null then
    select l.id into v_list from public.lists l where l.slug = p_list;
    if v_list is null then
      raise exception 'postbox:list_not_found: That list does not exist.' using errcode = 'P0001';
    end if;
  end if;
  if p_search is not null and p_search <> '' then
    pattern := '%' || replace(replace(replace(lower(p_search), '\', '\\'), '%', '\%'), '_', '\_') || '%';
  end if;
  return query
  with page as (
    select s.id, s.email, s.name, s.status, s.created_at, s.attributes
      from public.subscribers s
     where (p_after is null or s.id > p_after)
       and (p_subscriber_status is null or s.status = p_subscriber_status)
       and (pattern is null or s.email like pattern or lower(s.name) like pattern)
       and (v_list is null or exists (select 1 from public.subscriptions x
             where x.subscriber_id = s.id and x.list_id = v_list
               and (p_status is null or x.status = p_status)))
       and (v_list is not null or p_status is null or exists (select 1 from public.subscriptions x
             where x.subscriber_id = s.id and x.status = p_status))
     order by s.id
     limit p_limit
  )
  select coalesce(string_agg(
           private.csv_field(p.email) || ',' || private.csv_field(p.name) || ',' || p.status || ',' ||
           private.csv_field(coalesce((select string_agg(l.slug || ':' || x.status, ' ' order by l.slug)
                                         from public.subscriptions x join public.lists l on l.id = x.list_id
                                        where x.subscriber_id = p.id), '')) || ',' ||
           to_char(p.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') || ',' ||
           private.csv_field(p.attributes::text) || E'\r\n', '' order by p.id), ''),
         max(p.id::text)::uuid,
         count(*)::integer
    from page p;
end;
$$;
revoke execute on function public.export_subscribers_page(text, text, text, text, uuid, integer)
  from public, anon, authenticated;
grant execute on function public.export_subscribers_page(text, text, text, text, uuid, integer)
  to service_role;
