-- pg_net stand-in (contract §6.3): the `net` schema with the extension's tables and functions, for
-- servers where the real extension is not available (PGlite, Debian's PostgreSQL). Requests are sent
-- by emulator/cron/net-worker.ts in the emulator process; the migrations runner turns
-- `create extension pg_net` into a no-op where this stands in. Idempotent; skipped where the real
-- extension is available.

-- pg_net 0.20: objects as in its sql/pg_net.sql; the worker is emulator/cron/net-worker.ts, woken
-- by NOTIFY, which Postgres delivers only when the calling transaction commits.
do $net$
begin
  if exists (select 1 from pg_available_extensions where name = 'pg_net') then
    return;
  end if;
  create schema if not exists net;
  if to_regtype('net.http_method') is null then
    create domain net.http_method as text
      check (value ilike 'get' or value ilike 'post' or value ilike 'delete');
  end if;
  create unlogged table if not exists net.http_request_queue (
    id bigserial,
    method net.http_method not null,
    url text not null,
    headers jsonb,
    body bytea,
    timeout_milliseconds int not null
  );
  create unlogged table if not exists net._http_response (
    id bigint,
    status_code integer,
    content_type text,
    headers jsonb,
    content text,
    timed_out bool,
    error_msg text,
    created timestamptz not null default now()
  );
  create index if not exists _http_response_created_idx on net._http_response (created);

  -- curl_easy_escape: everything but unreserved characters is percent-encoded (UTF-8 bytes).
  create or replace function net._urlencode_string(string varchar) returns text
  language plpgsql immutable set search_path = '' as $fn$
  declare
    bytes bytea := convert_to(string, 'UTF8');
    out text := '';
    b int;
    i int;
  begin
    for i in 0 .. length(bytes) - 1 loop
      b := get_byte(bytes, i);
      if chr(b) ~ '^[A-Za-z0-9._~-]$' and b < 128 then
        out := out || chr(b);
      else
        out := out || '%' || upper(lpad(to_hex(b), 2, '0'));
      end if;
    end loop;
    return out;
  end
  $fn$;

  create or replace function net._encode_url_with_params_array(url text, params_array text[])
  returns text language sql immutable set search_path = '' as $fn$
    select case when coalesce(cardinality(params_array), 0) = 0 then url
      else url || case when position('?' in url) > 0 then '&' else '?' end
        || array_to_string(params_array, '&') end
  $fn$;

  create or replace function net.wake() returns void
  language sql set search_path = '' as $fn$
    select pg_notify('postbox_pg_net', '')
  $fn$;

  -- The worker lives in the emulator process and runs whenever the emulator does.
  create or replace function net.check_worker_is_up() returns void
  language sql set search_path = '' as $fn$ select $fn$;
  create or replace function net.wait_until_running() returns void
  language sql set search_path = '' as $fn$ select $fn$;
  create or replace function net.worker_restart() returns bool
  language sql set search_path = '' as $fn$ select true $fn$;

  create or replace function net.http_get(url text, params jsonb default '{}'::jsonb,
      headers jsonb default '{}'::jsonb, timeout_milliseconds int default 5000)
  returns bigint language plpgsql security definer set search_path = '' as $fn$
  declare
    request_id bigint;
    params_array text[];
  begin
    select coalesce(array_agg(net._urlencode_string(key) || '=' || net._urlencode_string(value)), '{}')
      into params_array from jsonb_each_text(params);
    insert into net.http_request_queue (method, url, headers, timeout_milliseconds)
    values ('GET', net._encode_url_with_params_array(url, params_array), headers,
      timeout_milliseconds)
    returning id into request_id;
    perform net.wake();
    return request_id;
  end
  $fn$;

  create or replace function net.http_post(url text, body jsonb default '{}'::jsonb,
      params jsonb default '{}'::jsonb,
      headers jsonb default '{"Content-Type": "application/json"}'::jsonb,
      timeout_milliseconds int default 5000)
  returns bigint language plpgsql security definer set search_path = '' as $fn$
  declare
    request_id bigint;
    params_array text[];
    content_type text;
  begin
    select header_value into content_type
      from jsonb_each_text(coalesce(headers, '{}'::jsonb)) r(header_name, header_value)
      where lower(header_name) = 'content-type' limit 1;
    if content_type is null then
      headers := headers || '{"Content-Type": "application/json"}'::jsonb;
    end if;
    if content_type <> 'application/json' then
      raise exception 'Content-Type header must be "application/json"';
    end if;
    select coalesce(array_agg(net._urlencode_string(key) || '=' || net._urlencode_string(value)), '{}')
      into params_array from jsonb_each_text(params);
    insert into net.http_request_queue (method, url, headers, body, timeout_milliseconds)
    values ('POST', net._encode_url_with_params_array(url, params_array), headers,
      convert_to(body::text, 'UTF8'), timeout_milliseconds)
    returning id into request_id;
    perform net.wake();
    return request_id;
  end
  $fn$;

  create or replace function net.http_delete(url text, params jsonb default '{}'::jsonb,
      headers jsonb default '{}'::jsonb, timeout_milliseconds int default 5000,
      body jsonb default null)
  returns bigint language plpgsql security definer set search_path = '' as $fn$
  declare
    request_id bigint;
    params_array text[];
  begin
    select coalesce(array_agg(net._urlencode_string(key) || '=' || net._urlencode_string(value)), '{}')
      into params_array from jsonb_each_text(params);
    insert into net.http_request_queue (method, url, headers, body, timeout_milliseconds)
    values ('DELETE', net._encode_url_with_params_array(url, params_array), headers,
      convert_to(body::text, 'UTF8'), timeout_milliseconds)
    returning id into request_id;
    perform net.wake();
    return request_id;
  end
  $fn$;

  -- pg_net's own grants (schema, tables and sequences to PUBLIC, so every role can read the
  -- queue and responses unless a migration revokes it), then Supabase's grant_pg_net_access():
  -- the request functions run as their owner and only the API roles and postgres may call them.
  grant usage on schema net to public;
  grant all on all tables in schema net to public;
  grant all on all sequences in schema net to public;
  revoke all on all functions in schema net from public;
  grant execute on all functions in schema net to postgres, anon, authenticated, service_role;
end
$net$;
