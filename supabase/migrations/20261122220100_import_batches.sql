-- The import worker's SQL (SPEC §5, §9): claiming an import for one run at a time, and applying a
-- batch of rows set-based in one transaction together with the counters and the resume position.
-- Service role only (import-subscribers); errors raise `postbox:<code>` for the catalogue.

-- Claims the import for the run holding `p_token` until the lease ends: a queued import, or a
-- running one whose lease is free or expired. Null when another run holds it or it has ended.
create function public.claim_import(p_import_id uuid, p_token uuid, p_lease_seconds integer)
returns public.imports
language sql
security definer
set search_path = ''
as $$
  update public.imports
     set status = 'running', lease_token = p_token,
         lease_until = clock_timestamp() + make_interval(secs => p_lease_seconds)
   where id = p_import_id
     and (status = 'queued' or (status = 'running' and (lease_until is null or lease_until < clock_timestamp())))
  returning *
$$;

-- Gives the lease back so the next run (a continuation) can claim at once.
create function public.release_import(p_import_id uuid, p_token uuid)
returns void
language sql
security definer
set search_path = ''
as $$
  update public.imports set lease_token = null, lease_until = null
   where id = p_import_id and lease_token = p_token and status = 'running'
$$;

-- Ends an import as failed with a reason the admin can act on (e.g. no email column).
create function public.fail_import(p_import_id uuid, p_token uuid, p_reason text)
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
  return result;
end;
$$;

-- Records what the first run learned from the file before writing any row.
create function public.start_import(p_import_id uuid, p_token uuid, p_total_rows integer,
  p_columns jsonb, p_delimiter text, p_offset bigint, p_line integer)
returns public.imports
language plpgsql
security definer
set search_path = ''
as $$
declare
  result public.imports;
begin
  update public.imports
     set total_rows = p_total_rows, columns = p_columns, delimiter = p_delimiter,
         resume_offset = p_offset, resume_line = p_line
   where id = p_import_id and lease_token = p_token and status = 'running' and processed_rows = 0
  returning * into result;
  if result.id is null then
    raise exception 'postbox:conflict: This import is not held by this run.' using errcode = 'P0001';
  end if;
  return result;
end;
$$;

-- One batch: `p_rows` [{line, email, name, attributes}] already checked by the function (SPEC §5),
-- `p_bad` [{line, reason}] the rows it refused, `p_records` how many data rows the batch covers.
-- Nothing is written unless this run holds the import and the batch starts at processed_rows, so
-- a retried or stale batch can never count twice.
create function public.import_batch(p_import_id uuid, p_token uuid, p_from integer,
  p_rows jsonb, p_bad jsonb, p_records integer, p_offset bigint, p_line integer,
  p_done boolean, p_lease_seconds integer)
returns public.imports
language plpgsql
security definer
set search_path = ''
as $$
declare
  imp public.imports;
  n_inserted integer;
  n_updated integer;
  new_errors jsonb;
  n_bad integer;
begin
  select * into imp from public.imports where id = p_import_id for update;
  if imp.id is null or imp.status <> 'running' or imp.lease_token is distinct from p_token
     or imp.processed_rows <> p_from then
    raise exception 'postbox:conflict: This import is not held by this run.' using errcode = 'P0001';
  end if;
  perform set_config('postbox.source', 'import', true);

  create temp table import_rows on commit drop as
    select r.line, r.email, coalesce(r.name, '') as name, coalesce(r.attributes, '{}') as attributes,
           null::text as reason, null::uuid as subscriber_id, false as created
      from jsonb_to_recordset(p_rows) as r(line integer, email text, name text, attributes jsonb);

  -- Duplicates inside the batch, then against earlier batches of this file.
  update import_rows r set reason = 'duplicate address in the file'
   where exists (select 1 from import_rows o where o.email = r.email and o.line < r.line);
  with taken as (
    insert into private.import_emails (import_id, email)
    select p_import_id, email from import_rows where reason is null
    on conflict do nothing
    returning email
  )
  update import_rows r set reason = 'duplicate address in the file'
   where r.reason is null and not exists (select 1 from taken t where t.email = r.email);

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
  select coalesce(jsonb_agg(e order by (e ->> 'line')::integer), '[]'), count(*)
    into new_errors, n_bad
    from (select jsonb_build_object('line', line, 'reason', reason) as e from import_rows where reason is not null
          union all select value from jsonb_array_elements(coalesce(p_bad, '[]'))) bad;

  update public.imports
     set processed_rows = p_from + p_records,
         inserted = inserted + n_inserted,
         updated = updated + n_updated,
         skipped = skipped + n_bad,
         error_count = error_count + n_bad,
         errors = errors || coalesce((select jsonb_agg(value order by ordinality)
                                        from jsonb_array_elements(new_errors) with ordinality
                                       where ordinality <= 100 - jsonb_array_length(imports.errors)), '[]'),
         resume_offset = p_offset,
         resume_line = p_line,
         total_rows = case when p_done then p_from + p_records else total_rows end,
         status = case when p_done then 'done' else status end,
         lease_until = case when p_done then null else clock_timestamp() + make_interval(secs => p_lease_seconds) end
   where id = p_import_id
  returning * into imp;
  if p_done then
    delete from private.import_emails where import_id = p_import_id;
  end if;
  return imp;
end;
$$;

revoke execute on function public.claim_import(uuid, uuid, integer), public.release_import(uuid, uuid),
  public.fail_import(uuid, uuid, text),
  public.start_import(uuid, uuid, integer, jsonb, text, bigint, integer),
  public.import_batch(uuid, uuid, integer, jsonb, jsonb, integer, bigint, integer, boolean, integer)
  from public, anon, authenticated;
grant execute on function public.claim_import(uuid, uuid, integer), public.release_import(uuid, uuid),
  public.fail_import(uuid, uuid, text),
  public.start_import(uuid, uuid, integer, jsonb, text, bigint, integer),
  public.import_batch(uuid, uuid, integer, jsonb, jsonb, integer, bigint, integer, boolean, integer)
  to service_role;
