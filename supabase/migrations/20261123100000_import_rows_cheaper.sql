-- What a large import still spent per row in Postgres (issue 6), measured with perf on the backend
-- applying 5,000-row batches and with auto_explain on the batch's statements:
--
-- * JIT compilation. The statement that gives each new subscription the referrals its subscriber
--   already has is planned with the batch's 5,000 rows and, on young tables, about 40 referred
--   subscribers per row: an estimated cost of 2-17 million, far above jit_above_cost, so Postgres
--   compiled it with LLVM (inlining and optimisation) on most batches. The compilation took
--   110-320 ms; the statement itself runs in about 10 ms. Nothing these functions run lasts long
--   enough for JIT to pay off, so they turn it off for themselves (and for the triggers they fire).
-- * events_type_created_idx. Every event updated three indexes; nothing reads events by type
--   alone (the subscriber page reads by events_subscriber_idx, the campaign report by
--   events_campaign_idx), and an import writes three events per row.
-- * The details of a subscription event ({list_id, list, from, to, source}) were built with
--   jsonb_build_object for every row, though they are the same for every row of a list and
--   transition in a statement: 10,000 identical objects per import batch. They are built once per
--   list and transition now.
-- * New addresses went through INSERT … ON CONFLICT, which probes the unique index before every
--   row and inserts speculatively, and then an UPDATE of the batch's table with the ids it
--   returned. The batch already looked every address up: rows it found no subscriber for get
--   their id when the table is built and are inserted plainly. If someone else adds one of those
--   addresses in between (a form signup of the same address), the insert fails with a unique
--   violation, is undone, and those rows take the upsert as before, so the outcome is the same.

drop index public.events_type_created_idx;

create or replace function private.apply_subscription_changes(p_subscribers uuid[], p_lists uuid[],
  p_from text[], p_to text[], p_inserted boolean, p_referrals integer[])
returns void
language plpgsql
security definer
set search_path = ''
set jit = off
as $$
declare
  source text := private.event_source();
  campaign uuid := private.event_campaign();
  fix record;
begin
  -- SPEC §4: a blocklisted subscriber cannot be (re)subscribed.
  if exists (select 1 from unnest(p_subscribers, p_to) c(subscriber_id, status)
             join public.subscribers s on s.id = c.subscriber_id
             where c.status in ('pending', 'confirmed') and s.status = 'blocklisted') then
    raise exception 'A blocklisted subscriber cannot be subscribed.' using errcode = '23514';
  end if;

  -- A subscription entering or leaving `confirmed` moves its referrer's count on that list.
  -- (A subscriber being deleted is already gone here: subscribers_uncount_referrals did it.)
  update public.subscriptions t set referrals = t.referrals + d.delta
    from (select s.referred_by, c.list_id,
                 sum(case when c.status_to = 'confirmed' then 1 else -1 end)::integer as delta
            from unnest(p_subscribers, p_lists, p_from, p_to) c(subscriber_id, list_id, status_from, status_to)
            join public.subscribers s on s.id = c.subscriber_id
           where s.referred_by is not null
             and (c.status_from = 'confirmed') is distinct from (c.status_to = 'confirmed')
             and (c.status_from = 'confirmed' or c.status_to = 'confirmed')
           group by s.referred_by, c.list_id) d
   where t.subscriber_id = d.referred_by and t.list_id = d.list_id and d.delta <> 0;

  -- A new subscription starts with the referrals its subscriber already has on that list (after
  -- the step above, so a referrer and a referred subscriber inserted together count once).
  if p_inserted then
    for fix in
      select c.subscriber_id, c.list_id, n.referrals
        from unnest(p_subscribers, p_lists, p_referrals) c(subscriber_id, list_id, inserted)
        cross join lateral (
          select count(*)::integer as referrals
            from public.subscribers r
            cross join lateral (
              select 1 from public.subscriptions rs
               where rs.subscriber_id = r.id and rs.list_id = c.list_id and rs.status = 'confirmed'
               limit 1) confirmed
           where r.referred_by = c.subscriber_id and r.referred_by is not null) n
       where n.referrals <> 0 or c.inserted <> 0
    loop
      update public.subscriptions set referrals = fix.referrals
       where subscriber_id = fix.subscriber_id and list_id = fix.list_id
         and referrals <> fix.referrals;
    end loop;
  end if;

  -- SPEC §4: every transition writes an event, {list_id, list, from, to, source}; the details
  -- once per list and transition (`from` is null for an insert, hence the coalesce in the join).
  insert into public.events (subscriber_id, campaign_id, type, data)
  with c as materialized (
    select *
      from unnest(p_subscribers, p_lists, p_from, p_to) with ordinality
             as c(subscriber_id, list_id, status_from, status_to, ord)
     where c.status_to is not null
  ), details as (
    select t.list_id, coalesce(t.status_from, '') as status_from, t.status_to,
           jsonb_build_object('list_id', t.list_id, 'list', l.slug, 'from', t.status_from,
             'to', t.status_to, 'source', source) as data
      from (select distinct list_id, status_from, status_to from c) t
      left join public.lists l on l.id = t.list_id
  )
  select c.subscriber_id, campaign, k.type, d.data
    from c
    join details d
      on d.list_id = c.list_id and d.status_from = coalesce(c.status_from, '')
     and d.status_to = c.status_to
    cross join lateral (
      select 'subscribed' as type, 1 as step where c.status_from is null
      union all
      select 'confirmed', 2 where c.status_from is null and c.status_to = 'confirmed'
      union all
      select case when c.status_to = 'unsubscribed' then 'unsubscribed'
                  when c.status_from = 'unsubscribed' then 'resubscribed'
                  when c.status_to = 'confirmed' then 'confirmed' end, 1
       where c.status_from is not null
    ) k
   where k.type is not null
   order by c.ord, k.step;

  -- The waitlist page cannot read other people's rows: announce on `waitlist:<slug>` (event
  -- 'positions', no subscriber named) once per waitlist list this statement changed.
  perform realtime.send(jsonb_build_object('list', l.slug), 'positions', 'waitlist:' || l.slug, false)
     from public.lists l
    where l.waitlist
      and l.id in (select c.list_id from unnest(p_lists, p_to) c(list_id, status_to)
                    where c.status_to is not null);
end;
$$;

-- New addresses by plain INSERT with ids given when the batch's table is built (see the top);
-- everything else as in 20261123010000.
create or replace function public.apply_import_batch(p_import_id uuid, p_token uuid, p_from integer,
  p_rows jsonb, p_bad jsonb, p_done boolean, p_lease_seconds integer)
returns public.imports
language plpgsql
security definer
set search_path = ''
set statement_timeout = '60s'
set jit = off
as $$
declare
  imp public.imports;
  batch private.import_batches;
  next_batch private.import_batches;
  n_inserted integer;
  n_updated integer;
  new_errors jsonb;
  n_bad integer;
  chain_rows integer;
  chain_offset bigint;
  chain_line integer;
begin
  select * into imp from public.imports where id = p_import_id;
  if imp.id is null or imp.status <> 'running' or imp.lease_token is distinct from p_token then
    raise exception 'postbox:conflict: This import is not held by this run.' using errcode = 'P0001';
  end if;
  update private.import_batches set applied = true
   where import_id = p_import_id and first_row = p_from and not applied
  returning * into batch;
  if batch.import_id is null then
    if exists (select 1 from private.import_batches
                where import_id = p_import_id and first_row = p_from and applied) then
      return imp;
    end if;
    raise exception 'postbox:conflict: This batch was not reserved.' using errcode = 'P0001';
  end if;
  perform set_config('postbox.source', 'import', true);

  -- Each row with the reason it is skipped, in one pass of key lookups (the batch's rows are
  -- estimated at 100, so the planner probes the indexes): the reservation kept each address's
  -- first line in the file, any other line is a duplicate; a blocklisted address is never
  -- re-enabled or subscribed (SPEC §4); merged attributes must stay within 4 KB. A row to write
  -- whose address has no subscriber gets the new subscriber's id here (`created`).
  create temp table import_rows on commit drop as
    select x.line, x.email, x.name, x.attributes, x.reason,
           case when x.reason is null and not x.found then private.uuid_v7() end as subscriber_id,
           x.reason is null and not x.found as created
      from (select r.line, r.email, coalesce(r.name, '') as name,
                   coalesce(r.attributes, '{}') as attributes, s.id is not null as found,
                   case when e.email is null then 'duplicate address in the file'
                        when s.status = 'blocklisted' then 'address is blocklisted'
                        when s.id is not null
                         and not private.is_valid_attributes(s.attributes || coalesce(r.attributes, '{}'))
                          then 'attributes over 4 KB together with the existing ones'
                   end as reason
              from jsonb_to_recordset(p_rows) as r(line integer, email text, name text, attributes jsonb)
              left join private.import_emails e
                on e.import_id = p_import_id and e.email = r.email and e.line = r.line
              left join public.subscribers s on s.email = r.email) x;

  begin
    insert into public.subscribers (id, email, name, attributes)
    select subscriber_id, email, name, attributes from import_rows where created order by email;
  exception when unique_violation then
    -- An address was added since the lookup: the upsert below decides for these rows too.
    update import_rows set subscriber_id = null, created = false where created;
  end;

  -- Existing addresses: a non-empty name replaces the stored one; attributes are merged, the
  -- file's keys winning.
  with upserted as (
    insert into public.subscribers as s (email, name, attributes)
    select email, name, attributes from import_rows
     where reason is null and subscriber_id is null order by email
    on conflict (email) do update
      set name = case when excluded.name <> '' then excluded.name else s.name end,
          attributes = s.attributes || excluded.attributes
    returning s.id, s.email, (s.xmax = 0) as created
  )
  update import_rows r set subscriber_id = u.id, created = u.created
    from upserted u where u.email = r.email and r.reason is null;

  -- The chosen lists: new subscriptions get the import's opt-in; pending may become confirmed;
  -- an unsubscribed address stays unsubscribed (an import is not consent). A subscriber this
  -- batch created has no subscription yet and nobody else can see it before the commit, so its
  -- rows are plain inserts; only existing subscribers need the arbiter of ON CONFLICT.
  insert into public.subscriptions (subscriber_id, list_id, status, confirmed_at)
  select r.subscriber_id, l.id, imp.optin, case when imp.optin = 'confirmed' then now() end
    from import_rows r cross join unnest(imp.list_ids) as l(id)
   where r.subscriber_id is not null and r.created
   order by r.subscriber_id, l.id;
  insert into public.subscriptions as x (subscriber_id, list_id, status)
  select r.subscriber_id, l.id, imp.optin
    from import_rows r cross join unnest(imp.list_ids) as l(id)
   where r.subscriber_id is not null and not r.created
   order by r.subscriber_id, l.id
  on conflict (subscriber_id, list_id) do update set status = 'confirmed'
   where x.status = 'pending' and excluded.status = 'confirmed';

  insert into public.events (subscriber_id, type, data)
  select subscriber_id, 'imported',
         jsonb_build_object('import_id', p_import_id, 'line', line, 'created', created,
           'source', 'import')
    from import_rows where subscriber_id is not null;

  select count(*) filter (where created), count(*) filter (where subscriber_id is not null and not created)
    into n_inserted, n_updated from import_rows;
  select coalesce(jsonb_agg(e), '[]'), count(*)
    into new_errors, n_bad
    from (select jsonb_build_object('line', line, 'reason', reason) as e from import_rows where reason is not null
          union all select value from jsonb_array_elements(coalesce(p_bad, '[]'))) bad;

  -- The counters last, under the import's row lock: concurrent batches queue only here. The run
  -- must still hold the import (its lease may have run out while the batch worked).
  select * into imp from public.imports where id = p_import_id for update;
  if imp.status <> 'running' or imp.lease_token is distinct from p_token then
    raise exception 'postbox:conflict: This import is not held by this run.' using errcode = 'P0001';
  end if;
  -- Moves the resume position over every applied batch that now joins the unbroken prefix.
  chain_rows := imp.processed_rows;
  chain_offset := imp.resume_offset;
  chain_line := imp.resume_line;
  loop
    select * into next_batch from private.import_batches
     where import_id = p_import_id and first_row = chain_rows and applied and records > 0;
    exit when not found;
    chain_rows := next_batch.first_row + next_batch.records;
    chain_offset := next_batch.end_offset;
    chain_line := next_batch.end_line;
  end loop;
  if p_done and chain_rows <> batch.first_row + batch.records then
    raise exception 'postbox:conflict: An earlier batch of this import is not applied yet.' using errcode = 'P0001';
  end if;

  update public.imports
     set processed_rows = chain_rows,
         inserted = inserted + n_inserted,
         updated = updated + n_updated,
         skipped = skipped + n_bad,
         error_count = error_count + n_bad,
         -- The first 100 bad rows of the file, whatever order the batches commit in.
         errors = (select coalesce(jsonb_agg(e order by (e ->> 'line')::integer), '[]')
                     from (select e from jsonb_array_elements(imports.errors || new_errors) as x(e)
                            order by (e ->> 'line')::integer limit 100) firsts),
         resume_offset = chain_offset,
         resume_line = chain_line,
         total_rows = case when p_done then chain_rows else total_rows end,
         status = case when p_done then 'done' else status end,
         lease_until = case when p_done then null else clock_timestamp() + make_interval(secs => p_lease_seconds) end
   where id = p_import_id
  returning * into imp;
  if p_done then
    delete from private.import_emails where import_id = p_import_id;
    delete from private.import_batches where import_id = p_import_id;
  end if;
  return imp;
end;
$$;

alter function public.reserve_import_batch(uuid, uuid, integer, integer, bigint, integer, text[], integer[])
  set jit = off;
