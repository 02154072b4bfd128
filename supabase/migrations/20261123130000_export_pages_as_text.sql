-- export-subscribers read each page of 5,000 CSV lines as JSON ({csv, last_id, row_count}) through
-- supabase-js: the function's process parsed a megabyte of escaped JSON per page, made a string of
-- it and encoded that string again for the upload, and collected all of them as garbage (40 % of
-- its time in a CPU profile). For 1,000,000 rows that was 1.4-1.9 CPU seconds, against the 2 s
-- a request may use on hosted edge functions, so a slow hour failed the export (546 WORKER_LIMIT).
--
-- This variant answers the same page as the response body itself, and names its row count and
-- last id in response headers (PostgREST's `response.headers` setting). The function then passes
-- bytes from one socket to the other without decoding them. The page is built by
-- export_subscribers_page, unchanged.
--
-- PostgREST 12 has no builtin text/plain output: a function returning a domain named after a
-- media type is that type's handler, and answers `Accept: text/plain` with its value as it is.
create domain public."text/plain" as text;
comment on domain public."text/plain" is
  'A function returning this answers Accept: text/plain with its value as is (PostgREST media type handlers).';

create function public.export_subscribers_csv(p_list text, p_status text, p_subscriber_status text,
  p_search text, p_after uuid, p_limit integer)
returns public."text/plain"
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  page record;
begin
  select * into page
    from public.export_subscribers_page(p_list, p_status, p_subscriber_status, p_search, p_after,
                                        p_limit);
  perform set_config('response.headers', json_build_array(
      json_build_object('X-Export-Rows', page.row_count::text),
      json_build_object('X-Export-Last-Id', coalesce(page.last_id::text, ''))
    )::text, true);
  return page.csv::public."text/plain";
end;
$$;
revoke execute on function public.export_subscribers_csv(text, text, text, text, uuid, integer)
  from public, anon, authenticated;
grant execute on function public.export_subscribers_csv(text, text, text, text, uuid, integer)
  to service_role;
