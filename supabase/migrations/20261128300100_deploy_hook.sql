-- Deploy hook (issue 22): a URL, with optional headers and JSON body, that Postbox POSTs to when
-- what the static site pre-renders changes (an issue published, changed or withdrawn; the site's
-- identity; the public lists), so a host that builds on a webhook (Netlify, Vercel, Cloudflare
-- Pages, GitHub Actions) rebuilds. It may hold a token, so only the owner reads or writes it
-- (`settings` is public). Changes only ask for a call; a pg_cron job sends one call once the
-- requests have been quiet for 5 s, so one publish (or a burst of edits) is one build.

-- Header names as HTTP allows them, string values only, at most 20.
create function private.deploy_hook_headers_ok(p_headers jsonb)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select jsonb_typeof(p_headers) = 'object'
    and (select count(*) from jsonb_each(p_headers)) <= 20
    and not exists (
      select 1 from jsonb_each(p_headers) h
      where jsonb_typeof(h.value) <> 'string'
         or h.key !~ '^[A-Za-z0-9!#$%&''*+.^_`|~-]{1,100}$'
         or char_length(h.value #>> '{}') > 4096)
$$;

create table public.deploy_hooks (
  id boolean primary key default true check (id),
  url text not null check (url ~ '^https?://[^\s/]+' and char_length(url) <= 2048),
  headers jsonb not null default '{}'::jsonb check (private.deploy_hook_headers_ok(headers)),
  body jsonb check (body is null or jsonb_typeof(body) in ('object', 'array')),
  enabled boolean not null default true,
  -- Bookkeeping of the server, not the owner's to write: requests counted, the count last called.
  requests bigint not null default 0,
  called_requests bigint not null default 0,
  requested_at timestamptz,
  requested_reason text,
  called_at timestamptz,
  last_request_id bigint,
  updated_at timestamptz not null default now()
);
comment on table public.deploy_hooks is
  'At most one row: the deploy hook. Only the owner reads and writes it (it may hold a token).';

create trigger deploy_hooks_touch_updated_at before update of url, headers, body, enabled
  on public.deploy_hooks for each row execute function private.touch_updated_at();

alter table public.deploy_hooks enable row level security;
create policy "The owner reads the deploy hook" on public.deploy_hooks
  for select to authenticated using ((select private.has_role('owner')));
create policy "The owner sets the deploy hook" on public.deploy_hooks
  for insert to authenticated with check ((select private.has_role('owner')));
create policy "The owner changes the deploy hook" on public.deploy_hooks
  for update to authenticated using ((select private.has_role('owner')))
  with check ((select private.has_role('owner')));
create policy "The owner removes the deploy hook" on public.deploy_hooks
  for delete to authenticated using ((select private.has_role('owner')));

revoke all on public.deploy_hooks from public, anon, authenticated;
grant select, delete on public.deploy_hooks to authenticated;
grant insert (url, headers, body, enabled), update (url, headers, body, enabled)
  on public.deploy_hooks to authenticated;
grant all on public.deploy_hooks to service_role;

-- Asks for a call (from the triggers below): counted, sent later by private.call_deploy_hook().
create function private.request_deploy(p_reason text)
returns void
language sql
security definer
set search_path = ''
as $$
  update public.deploy_hooks
  set requests = requests + 1, requested_at = now(), requested_reason = p_reason
  where enabled
$$;

-- One POST when requests came since the last call and none in the last 5 s; the request id, or
-- null. pg_net sends it after this transaction commits and does not wait for the answer.
create function private.call_deploy_hook(p_quiet interval default interval '5 seconds')
returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare
  hook public.deploy_hooks;
  request bigint;
begin
  select * into hook from public.deploy_hooks
  where enabled and requests > called_requests and requested_at <= now() - p_quiet
  for update skip locked;
  if not found then
    return null;
  end if;
  request := net.http_post(
    url := hook.url,
    body := coalesce(hook.body, '{}'::jsonb),
    headers := jsonb_build_object('Content-Type', 'application/json') || hook.headers,
    timeout_milliseconds := 10000);
  update public.deploy_hooks
  set called_requests = hook.requests, called_at = now(), last_request_id = request
  where id;
  return request;
end;
$$;

-- An issue appears, changes or goes from the archive.
create function private.campaign_requests_deploy()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  was boolean := tg_op <> 'INSERT' and old.archive and old.status = 'sent';
  now_in boolean := tg_op <> 'DELETE' and new.archive and new.status = 'sent';
begin
  if was is distinct from now_in
     or (was and now_in and (old.slug, old.subject, old.preheader, old.body_html)
         is distinct from (new.slug, new.subject, new.preheader, new.body_html)) then
    perform private.request_deploy('issue');
  end if;
  return null;
end;
$$;
create trigger campaigns_request_deploy
  after insert or update of status, archive, slug, subject, preheader, body_html or delete
  on public.campaigns for each row execute function private.campaign_requests_deploy();

-- The site's identity (what public_settings() answers).
create function private.settings_request_deploy()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.request_deploy('identity');
  return null;
end;
$$;
create trigger settings_request_deploy
  after update of site_name, tagline, logo_path, show_subscriber_count on public.settings
  for each row
  when ((old.site_name, old.tagline, old.logo_path, old.show_subscriber_count)
        is distinct from (new.site_name, new.tagline, new.logo_path, new.show_subscriber_count))
  execute function private.settings_request_deploy();

-- A public list added, changed, removed, or made public or private.
create function private.list_requests_deploy()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  was boolean := tg_op <> 'INSERT' and old.visibility = 'public';
  now_in boolean := tg_op <> 'DELETE' and new.visibility = 'public';
begin
  if was is distinct from now_in
     or (was and now_in and (old.slug, old.name, old.description, old.optin, old.waitlist)
         is distinct from (new.slug, new.name, new.description, new.optin, new.waitlist)) then
    perform private.request_deploy('lists');
  end if;
  return null;
end;
$$;
create trigger lists_request_deploy after insert or update or delete on public.lists
  for each row execute function private.list_requests_deploy();

-- The owner's "Send a test call" and the card's last answer.
create function public.test_deploy_hook()
returns bigint
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not private.has_role('owner') then
    raise exception 'Only the owner can call the deploy hook.' using errcode = '42501';
  end if;
  update public.deploy_hooks set requests = requests + 1, requested_at = now() - interval '1 hour',
    requested_reason = 'test';
  return private.call_deploy_hook();
end;
$$;

create function public.deploy_hook_last_call()
returns table (called_at timestamptz, reason text, status_code integer, error text, answered boolean)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not private.has_role('owner') then
    return;
  end if;
  return query
    select h.called_at, h.requested_reason, r.status_code, coalesce(r.error_msg, ''), r.id is not null
    from public.deploy_hooks h
    left join net._http_response r on r.id = h.last_request_id
    where h.last_request_id is not null;
end;
$$;

revoke execute on function private.deploy_hook_headers_ok(jsonb) from public;
grant execute on function private.deploy_hook_headers_ok(jsonb) to authenticated, service_role;
revoke execute on function private.request_deploy(text), private.call_deploy_hook(interval),
  private.campaign_requests_deploy(), private.settings_request_deploy(),
  private.list_requests_deploy() from public, anon, authenticated;
revoke execute on function public.test_deploy_hook(), public.deploy_hook_last_call() from public, anon;
grant execute on function public.test_deploy_hook(), public.deploy_hook_last_call()
  to authenticated, service_role;

select cron.schedule('postbox-deploy-hook', '10 seconds', 'select private.call_deploy_hook()');
