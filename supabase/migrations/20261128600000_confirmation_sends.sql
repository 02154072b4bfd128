-- Resending the confirmation email (issue 23, Subscribers): to one pending subscriber, to every
-- subscriber matching a rule set (the page's selection or filter, e.g. pending for more than two
-- days), or to the addresses an import left pending. A send is a row with counters the page
-- watches; the addresses it will mail are items, taken in batches by the resend-confirmation
-- function, which mails them at the send rate (the token bucket campaigns use) and hands on to a
-- fresh run when its time is spent. Each address counts against the subscribe form's limit of 5
-- per address per 10 minutes (the bucket `subscribe:email`), so the team and the form together
-- never mail one address more often than the form alone may.

create table public.confirmation_sends (
  id uuid primary key default gen_random_uuid(),
  import_id uuid unique references public.imports (id) on delete cascade,
  status text not null default 'queued' check (status in ('waiting', 'queued', 'running', 'done')),
  total integer check (total >= 0),
  sent integer not null default 0,
  failed integer not null default 0,
  limited integer not null default 0,
  skipped integer not null default 0,
  created_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  finished_at timestamptz,
  lease_token uuid,
  lease_until timestamptz
);
comment on table public.confirmation_sends is 'A resend of the confirmation email to pending subscribers, with its progress. Written only by the resend-confirmation function (service role) and, for an import''s option, by triggers on imports.';
comment on column public.confirmation_sends.status is 'waiting: for its import to finish; queued: to be taken by a run; running: a run holds it (lease); done.';
comment on column public.confirmation_sends.total is 'Addresses chosen (enabled, with a pending subscription); null until chosen (an import''s when the import is done).';
comment on column public.confirmation_sends.limited is 'Not mailed: the address had 5 confirmation emails in the last 10 minutes (SPEC §9).';
comment on column public.confirmation_sends.skipped is 'Not mailed: no longer pending, blocklisted or deleted by the time its turn came.';
create index confirmation_sends_due_idx on public.confirmation_sends (created_at)
  where status in ('queued', 'running');
alter table public.confirmation_sends enable row level security;
create policy "Members can see confirmation sends" on public.confirmation_sends
  for select to authenticated using ((select private.has_role('viewer')));
grant select on public.confirmation_sends to authenticated;
grant all on public.confirmation_sends to service_role;

-- The addresses a send has still to take; a row is deleted when a run takes it. Deleting a
-- subscriber deletes theirs (their data goes with them).
create table private.confirmation_send_items (
  send_id uuid not null references public.confirmation_sends (id) on delete cascade,
  subscriber_id uuid not null references public.subscribers (id) on delete cascade,
  primary key (send_id, subscriber_id)
);
create index confirmation_send_items_subscriber_idx on private.confirmation_send_items (subscriber_id);
comment on table private.confirmation_send_items is 'Subscribers a confirmation send has yet to mail; taken (deleted) in batches by its run.';
alter table private.confirmation_send_items enable row level security;
grant all on private.confirmation_send_items to service_role;

-- An import's option: "send the confirmation email to the addresses left pending".
alter table public.imports add column send_confirmations boolean not null default false;
comment on column public.imports.send_confirmations is 'When the import is done, mail the confirmation email to the subscribers it left pending on its lists (a confirmation_sends row follows it).';
grant insert (send_confirmations) on public.imports to authenticated;

-- Chooses a send's addresses: enabled subscribers with a pending subscription, among those matching
-- `p_rules` (a manual send), or those the import wrote (its 'imported' events) pending on its lists.
-- Answers how many were chosen.
create function private.fill_confirmation_send(p_send uuid, p_rules jsonb)
returns integer
language plpgsql
security definer
set search_path = ''
set statement_timeout = '120s'
as $$
declare
  send public.confirmation_sends;
  imp public.imports;
  w record;
  n integer;
begin
  select * into send from public.confirmation_sends where id = p_send for update;
  if send.import_id is not null then
    select * into imp from public.imports where id = send.import_id;
    insert into private.confirmation_send_items (send_id, subscriber_id)
    select distinct p_send, e.subscriber_id
      from public.events e
      join public.subscribers s on s.id = e.subscriber_id and s.status = 'enabled'
     where e.type = 'imported' and e.created_at >= imp.created_at
       and e.data ->> 'import_id' = imp.id::text
       and exists (select 1 from public.subscriptions x
                    where x.subscriber_id = e.subscriber_id and x.status = 'pending'
                      and x.list_id = any (imp.list_ids))
    on conflict do nothing;
  else
    select * into w from private.subscriber_rules_where(p_rules);
    execute format('insert into private.confirmation_send_items (send_id, subscriber_id)
                    select $2, s.id from public.subscribers s
                     where %s and s.status = ''enabled''
                       and exists (select 1 from public.subscriptions x
                                    where x.subscriber_id = s.id and x.status = ''pending'')',
                   w.clause)
      using w.params, p_send;
  end if;
  get diagnostics n = row_count;
  update public.confirmation_sends set total = n,
         status = case when n = 0 then 'done' else status end,
         finished_at = case when n = 0 then now() end
   where id = p_send;
  return n;
end;
$$;
revoke execute on function private.fill_confirmation_send(uuid, jsonb) from public;

-- A manual send (the resend-confirmation function, after checking the caller is an admin or the
-- owner): the matches of `p_rules` that are pending somewhere. Answers the send's row.
create function public.start_confirmation_send(p_rules jsonb, p_actor uuid)
returns public.confirmation_sends
language plpgsql
security definer
set search_path = ''
set statement_timeout = '120s'
as $$
declare
  new_id uuid;
  send public.confirmation_sends;
begin
  insert into public.confirmation_sends (created_by) values (p_actor) returning id into new_id;
  perform private.fill_confirmation_send(new_id, p_rules);
  select * into send from public.confirmation_sends where id = new_id;
  return send;
end;
$$;
comment on function public.start_confirmation_send(jsonb, uuid) is 'Service role only (resend-confirmation): a send to the pending subscribers matching the rules.';

-- A run takes the send: queued, or running with its lease run out (a run that died). Answers the
-- row, or null when another run holds it or it is done. An import's send chooses its addresses here.
create function public.lease_confirmation_send(p_send uuid, p_token uuid, p_lease_seconds integer)
returns public.confirmation_sends
language plpgsql
security definer
set search_path = ''
as $$
declare
  send public.confirmation_sends;
begin
  update public.confirmation_sends
     set status = 'running', lease_token = p_token,
         lease_until = clock_timestamp() + make_interval(secs => p_lease_seconds)
   where id = p_send
     and (status = 'queued' or (status = 'running' and (lease_until is null or lease_until < clock_timestamp())))
  returning * into send;
  if send.id is null then
    return null;
  end if;
  if send.total is null then
    perform private.fill_confirmation_send(p_send, null);
    select * into send from public.confirmation_sends where id = p_send;
    if send.status = 'done' then
      return null;
    end if;
  end if;
  return send;
end;
$$;
comment on function public.lease_confirmation_send(uuid, uuid, integer) is 'Service role only (resend-confirmation): a run takes a queued send (or one whose run died).';

-- Takes the next `p_limit` addresses of a send held by `p_token`. Each still enabled and pending
-- counts against the subscribe form's per-address limit; allowed ones get a fresh confirm nonce for
-- their pending lists and are answered as the confirmation email needs them (what the subscribe
-- function's `mail` holds). Answers {mails, settings, remaining}.
create function public.take_confirmation_batch(p_send uuid, p_token uuid, p_limit integer,
  p_lease_seconds integer)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  taken uuid[];
  sub record;
  mails jsonb := '[]'::jsonb;
  n_limited integer := 0;
  n_skipped integer := 0;
  new_nonce text;
begin
  update public.confirmation_sends
     set lease_until = clock_timestamp() + make_interval(secs => p_lease_seconds)
   where id = p_send and status = 'running' and lease_token = p_token;
  if not found then
    raise exception 'postbox:conflict: This send is not held by this run.' using errcode = 'P0001';
  end if;

  with gone as (
    delete from private.confirmation_send_items i
     where i.send_id = p_send and i.subscriber_id in (
       select j.subscriber_id from private.confirmation_send_items j
        where j.send_id = p_send order by j.subscriber_id limit greatest(p_limit, 1)
        for update skip locked)
    returning i.subscriber_id)
  select array_agg(subscriber_id order by subscriber_id) into taken from gone;

  for sub in
    select t.id as taken_id, s.id, s.email,
           (select array_agg(x.list_id order by l.created_at, l.id)
              from public.subscriptions x join public.lists l on l.id = x.list_id
             where x.subscriber_id = s.id and x.status = 'pending') as lists,
           (select jsonb_agg(l.name order by l.created_at, l.id)
              from public.subscriptions x join public.lists l on l.id = x.list_id
             where x.subscriber_id = s.id and x.status = 'pending') as list_names
      from unnest(coalesce(taken, '{}'::uuid[])) t(id)
      left join public.subscribers s on s.id = t.id and s.status = 'enabled'
  loop
    if sub.id is null or sub.lists is null then
      n_skipped := n_skipped + 1;
    elsif public.hit_rate_limit('subscribe:email', sub.email, 5, 600) > 0 then
      n_limited := n_limited + 1;
    else
      new_nonce := encode(extensions.gen_random_bytes(16), 'hex');
      insert into private.confirm_nonces (nonce, subscriber_id) values (new_nonce, sub.id);
      mails := mails || jsonb_build_object('subscriber_id', sub.id, 'email', sub.email,
        'lists', to_jsonb(sub.lists), 'list_names', sub.list_names, 'nonce', new_nonce);
    end if;
  end loop;

  update public.confirmation_sends
     set limited = limited + n_limited, skipped = skipped + n_skipped
   where id = p_send;
  return jsonb_build_object('mails', mails, 'settings', private.mail_settings(),
    'remaining', (select count(*) from private.confirmation_send_items i where i.send_id = p_send));
end;
$$;
comment on function public.take_confirmation_batch(uuid, uuid, integer, integer) is 'Service role only (resend-confirmation): the next addresses of a send, rate-limited per address, with fresh confirm nonces.';

-- What a run mailed of its last batch; `p_done` (nothing left) finishes the send, `p_release`
-- gives the send back for the next run (its time is spent). Answers the row.
create function public.record_confirmation_batch(p_send uuid, p_token uuid, p_sent integer,
  p_failed integer, p_done boolean, p_release boolean)
returns public.confirmation_sends
language plpgsql
security definer
set search_path = ''
as $$
declare
  send public.confirmation_sends;
begin
  update public.confirmation_sends
     set sent = sent + greatest(p_sent, 0), failed = failed + greatest(p_failed, 0),
         status = case when p_done then 'done' when p_release then 'queued' else status end,
         finished_at = case when p_done then now() else finished_at end,
         lease_token = case when p_done or p_release then null else lease_token end,
         lease_until = case when p_done or p_release then null else lease_until end
   where id = p_send and status = 'running' and lease_token = p_token
  returning * into send;
  if send.id is null then
    raise exception 'postbox:conflict: This send is not held by this run.' using errcode = 'P0001';
  end if;
  return send;
end;
$$;
comment on function public.record_confirmation_batch(uuid, uuid, integer, integer, boolean, boolean) is 'Service role only (resend-confirmation): counts what a run mailed and finishes or releases the send.';

revoke execute on function public.start_confirmation_send(jsonb, uuid),
  public.lease_confirmation_send(uuid, uuid, integer),
  public.take_confirmation_batch(uuid, uuid, integer, integer),
  public.record_confirmation_batch(uuid, uuid, integer, integer, boolean, boolean)
  from public, anon, authenticated;
grant execute on function public.start_confirmation_send(jsonb, uuid),
  public.lease_confirmation_send(uuid, uuid, integer),
  public.take_confirmation_batch(uuid, uuid, integer, integer),
  public.record_confirmation_batch(uuid, uuid, integer, integer, boolean, boolean)
  to service_role;

-- Starts a run for each send that waits for one: queued (an import just finished, a run handed
-- on without its continuation arriving) or running with its lease run out (the run died). pg_cron
-- calls it every 10 seconds, as it calls process-queue (20261122210100); it sends nothing when
-- there is nothing to do. Answers how many runs were asked for.
create function private.kick_confirmation_sends()
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  url text;
  service_key text;
  due record;
  kicked integer := 0;
begin
  for due in
    select c.id from public.confirmation_sends c
     where c.status = 'queued'
        or (c.status = 'running' and (c.lease_until is null or c.lease_until < clock_timestamp()))
     order by c.created_at limit 10
  loop
    url := coalesce(url, private.scheduler_secret('postbox_project_url'));
    service_key := coalesce(service_key, private.scheduler_secret('postbox_service_role_key'));
    if url is null or service_key is null then
      return 0;
    end if;
    perform net.http_post(
      url := rtrim(url, '/') || '/functions/v1/resend-confirmation',
      body := jsonb_build_object('send_id', due.id),
      headers := jsonb_build_object('Content-Type', 'application/json',
                                    'Authorization', 'Bearer ' || service_key),
      timeout_milliseconds := 30000);
    kicked := kicked + 1;
  end loop;
  return kicked;
end;
$$;
revoke execute on function private.kick_confirmation_sends() from public, anon, authenticated, service_role;
select cron.schedule('postbox-confirmation-sends', '10 seconds', 'select private.kick_confirmation_sends()');

-- The import's option: its send waits for the import, then is queued when the import ends (done,
-- or failed part-way: the rows it did write are pending all the same) and started at once.
create function private.import_confirmation_sends()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    if new.send_confirmations and new.optin = 'pending' then
      insert into public.confirmation_sends (import_id, status, created_by)
      values (new.id, 'waiting', new.created_by);
    end if;
  elsif new.status in ('done', 'failed') and old.status is distinct from new.status then
    update public.confirmation_sends set status = 'queued'
     where import_id = new.id and status = 'waiting';
    if found then
      perform private.kick_confirmation_sends();
    end if;
  end if;
  return null;
end;
$$;
revoke execute on function private.import_confirmation_sends() from public;
create trigger imports_confirmation_sends_insert after insert on public.imports
  for each row when (new.send_confirmations) execute function private.import_confirmation_sends();
create trigger imports_confirmation_sends_update after update of status on public.imports
  for each row when (new.send_confirmations and new.status in ('done', 'failed'))
  execute function private.import_confirmation_sends();
