-- CSV import batches in parallel (issue 6: 1,000,000 rows in a minute). One batch at a time left
-- a core idle while the other worked through 5,000 rows; now a run applies several batches at
-- once, and the rules of 20261122220100 still hold:
-- * The first occurrence of an address in the file wins and every later one is reported as a
--   duplicate, whichever batch commits first. Before a batch is applied it is *reserved*, in file
--   order, one batch after the other (a short transaction): its addresses are recorded with their
--   line, first line winning. Applying then keeps exactly the rows whose line holds the address,
--   so concurrent batches never write the same subscriber.
-- * A batch is applied exactly once: the ledger row its reservation wrote is marked applied in
--   the same transaction as the rows, so a retried, stale or raced batch changes nothing.
-- * A resumed run starts after the last batch of the unbroken applied prefix of the file
--   (processed_rows, resume_offset, resume_line); batches applied beyond a gap are found in the
--   ledger and skipped.
-- * Nothing is written unless the run still holds the import (its lease token).

alter table private.import_emails add column line integer;
comment on column private.import_emails.line is 'The file line that holds the address; null for addresses taken before batches ran in parallel (always earlier lines).';

create table private.import_batches (
  import_id uuid not null,
  first_row integer not null check (first_row >= 0),
  records integer not null check (records >= 0),
  end_offset bigint not null,
  end_line integer not null,
  applied boolean not null default false,
  primary key (import_id, first_row)
);
comment on table private.import_batches is 'The batches of running imports: reserved in file order, then applied once each (any order). Emptied when the import ends.';
revoke all on private.import_batches from public, anon, authenticated;

-- Reserves one batch: data rows [p_from, p_from + p_records) of the file, ending at byte p_offset
-- after line p_line; `p_emails`/`p_lines` are the addresses of its valid rows and their lines.
-- Must be called in file order (the function awaits each reservation before the next). Calling
-- it again for the same rows (a resumed run) changes nothing.
create function public.reserve_import_batch(p_import_id uuid, p_token uuid, p_from integer,
  p_records integer, p_offset bigint, p_line integer, p_emails text[], p_lines integer[])
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not exists (select 1 from public.imports
                  where id = p_import_id and status = 'running' and lease_token = p_token) then
    raise exception 'postbox:conflict: This import is not held by this run.' using errcode = 'P0001';
  end if;
  -- Batch boundaries are the same in every run; rows already applied in other boundaries
  -- (a run with another batch size) could otherwise be applied twice.
  if exists (select 1 from private.import_batches b
              where b.import_id = p_import_id and b.applied
                and b.first_row < p_from + p_records and b.first_row + b.records > p_from
                and (b.first_row, b.records) <> (p_from, p_records)) then
    raise exception 'postbox:conflict: These rows were applied in other batches.' using errcode = 'P0001';
  end if;
  insert into private.import_batches (import_id, first_row, records, end_offset, end_line)
  values (p_import_id, p_from, p_records, p_offset, p_line)
  on conflict (import_id, first_row) do update
    set records = excluded.records, end_offset = excluded.end_offset, end_line = excluded.end_line
    where not import_batches.applied;
  insert into private.import_emails (import_id, email, line)
  select distinct on (e.email) p_import_id, e.email, e.line
    from unnest(p_emails, p_lines) as e(email, line)
   order by e.email, e.line
  on conflict do nothing;
end;
$$;

-- Applies a reserved batch: `p_rows` [{line, email, name, attributes}] already checked by the
-- function (SPEC §5), `p_bad` [{line, reason}] the rows it refused. Returns the import as it is
-- after the batch (or unchanged when the batch had been applied already). With `p_done` the batch
-- is the file's last one and the import ends — only once every earlier batch is applied.
create function public.apply_import_batch(p_import_id uuid, p_token uuid, p_from integer,
  p_rows jsonb, p_bad jsonb, p_done boolean, p_lease_seconds integer)
returns public.imports
language plpgsql
security definer
set search_path = ''
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

  create temp table import_rows on commit drop as
    select r.line, r.email, coalesce(r.name, '') as name, coalesce(r.attributes, '{}') as attributes,
           null::text as reason, null::uuid as subscriber_id, false as created
      from jsonb_to_recordset(p_rows) as r(line integer, email text, name text, attributes jsonb);

  -- The reservation kept each address's first line in the file; any other line is a duplicate.
  update import_rows r set reason = 'duplicate address in the file'
   where not exists (select 1 from private.import_emails e
                      where e.import_id = p_import_id and e.email = r.email and e.line = r.line);

  -- A blocklisted address is never re-enabled or subscribed (SPEC §4).
  update import_rows r set reason = 'address is blocklisted'
    from public.subscribers s
   where r.reason is null and s.email = r.email and s.status = 'blocklisted';
  update import_rows r set reason = 'attributes over 4 KB together with the existing ones'
    from public.subscribers s
   where r.reason is null and s.email = r.email
     and not private.is_valid_attributes(s.attributes || r.attributes);

  -- A non-empty name replaces the stored one; attributes are merged, the file's keys winning.
  with upserted as (
    insert into public.subscribers as s (email, name, attributes)
    select email, name, attributes from import_rows where reason is null order by email
    on conflict (email) do update
      set name = case when excluded.name <> '' then excluded.name else s.name end,
          attributes = s.attributes || excluded.attributes
    returning s.id, s.email, (s.xmax = 0) as created
  )
  update import_rows r set subscriber_id = u.id, created = u.created
    from upserted u where u.email = r.email and r.reason is null;

  -- The chosen lists: new subscriptions get the import's opt-in; pending may become confirmed;
  -- an unsubscribed address stays unsubscribed (an import is not consent).
  insert into public.subscriptions as x (subscriber_id, list_id, status)
  select r.subscriber_id, l.id, imp.optin
    from import_rows r cross join unnest(imp.list_ids) as l(id)
   where r.subscriber_id is not null
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

-- A failed import forgets its addresses and batches too.
create or replace function public.fail_import(p_import_id uuid, p_token uuid, p_reason text)
returns public.imports
language plpgsql
security definer
set search_path = ''
as $$
declare
  result public.imports;
begin
  update public.imports set status = 'failed', failure_reason = left(p_reason, 500)
   where id = p_import_id and lease_token = p_token and status = 'running'
  returning * into result;
  delete from private.import_emails where import_id = p_import_id;
  delete from private.import_batches where import_id = p_import_id;
  return result;
end;
$$;

-- So does a deleted one.
create or replace function private.forget_import_emails()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from private.import_emails e using old_rows o where e.import_id = o.id;
  delete from private.import_batches b using old_rows o where b.import_id = o.id;
  return null;
end;
$$;

drop function public.import_batch(uuid, uuid, integer, jsonb, jsonb, integer, bigint, integer, boolean, integer);

revoke execute on function
  public.reserve_import_batch(uuid, uuid, integer, integer, bigint, integer, text[], integer[]),
  public.apply_import_batch(uuid, uuid, integer, jsonb, jsonb, boolean, integer)
  from public, anon, authenticated;
grant execute on function
  public.reserve_import_batch(uuid, uuid, integer, integer, bigint, integer, text[], integer[]),
  public.apply_import_batch(uuid, uuid, integer, jsonb, jsonb, boolean, integer)
  to service_role;
