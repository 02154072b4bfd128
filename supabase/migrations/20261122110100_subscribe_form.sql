-- subscribe in one round trip: the SPEC §9 limits (5 per address and 30 per client address per 10
-- minutes, through hit_rate_limit) are counted first, in the same call as the write, so a signup
-- costs the edge function one database request instead of three. A refused attempt writes nothing
-- but its count (the answer names the seconds to wait instead of raising, so the count is kept).
create function public.subscribe_form(p_email text, p_name text, p_lists text[], p_ref text,
  p_attributes jsonb, p_client text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  per_email integer;
  per_client integer;
begin
  per_email := public.hit_rate_limit('subscribe:email', lower(btrim(p_email)), 5, 600);
  per_client := public.hit_rate_limit('subscribe:ip', coalesce(p_client, 'unknown'), 30, 600);
  if per_email > 0 or per_client > 0 then
    return jsonb_build_object('retry_after', greatest(per_email, per_client));
  end if;
  return public.subscribe_visitor(p_email, p_name, p_lists, p_ref, p_attributes);
end;
$$;
comment on function public.subscribe_form(text, text, text[], text, jsonb, text) is 'Service role only (subscribe): rate limits, then subscribe_visitor; {retry_after} when limited.';
revoke execute on function public.subscribe_form(text, text, text[], text, jsonb, text) from public, anon, authenticated;
grant execute on function public.subscribe_form(text, text, text[], text, jsonb, text) to service_role;
