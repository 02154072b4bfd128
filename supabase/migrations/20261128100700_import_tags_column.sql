-- The import's `tags` column (issue 24): the edge function passes every column other than email
-- and name as an attribute, so a column named `tags` (any case) arrives as an attribute; the batch
-- takes it out of the attributes and tags the row's subscriber with each name in it (comma or
-- semicolon separated), creating tags that do not exist yet. Otherwise as in 20261127400700.

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
  -- The history's 'updated' events name who started the import (20261127400000 event_actor).
  perform set_config('postbox.actor', coalesce((select jsonb_build_object('id', m.user_id, 'email', m.email)
                                                  from public.members m where m.user_id = imp.created_by),
                                                 'null'::jsonb)::text, true);

  -- Each row with the reason it is skipped, in one pass of key lookups (the batch's rows are
  -- estimated at 100, so the planner probes the indexes): the reservation kept each address's
  -- first line in the file, any other line is a duplicate; a blocklisted address is never
  -- re-enabled or subscribed (SPEC §4); merged attributes must stay within 4 KB. A row to write
  -- whose address has no subscriber gets the new subscriber's id here (`created`).
  create temp table import_rows on commit drop as
    select x.line, x.email, x.name, x.attributes, x.tags, x.reason,
           case when x.reason is null and not x.found then private.uuid_v7() end as subscriber_id,
           x.reason is null and not x.found as created
      from (select r.line, r.email, coalesce(r.name, '') as name,
                   coalesce(r.attributes, '{}')
                     - coalesce((select array_agg(k) from jsonb_object_keys(coalesce(r.attributes, '{}')) k
                                  where lower(btrim(k)) = 'tags'), '{}'::text[]) as attributes,
                   (select t.value from jsonb_each_text(coalesce(r.attributes, '{}')) t
                     where lower(btrim(t.key)) = 'tags' limit 1) as tags,
                   s.id is not null as found,
                   case when e.email is null then 'duplicate address in the file'
                        when s.status = 'blocklisted' then 'address is blocklisted'
                        when s.id is not null and imp.existing = 'merge'
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

  -- Existing addresses, as the import's `existing` option says: 'merge' (a non-empty name replaces
  -- the stored one; attributes are merged, the file's keys winning), 'overwrite' (the same name
  -- rule; a row's attributes replace the stored ones when it has any) or 'keep' (name and
  -- attributes stay as they are; only the subscriptions below apply).
  with upserted as (
    insert into public.subscribers as s (email, name, attributes)
    select email, name, attributes from import_rows
     where reason is null and subscriber_id is null order by email
    on conflict (email) do update
      set name = case when imp.existing <> 'keep' and excluded.name <> '' then excluded.name
                      else s.name end,
          attributes = case when imp.existing = 'keep' then s.attributes
                            when imp.existing = 'overwrite' and excluded.attributes <> '{}'
                              then excluded.attributes
                            when imp.existing = 'overwrite' then s.attributes
                            else s.attributes || excluded.attributes end
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

  -- The `tags` column (issue 24): names separated by commas or semicolons, trimmed; a tag that
  -- does not exist yet is created (names are unique ignoring case); names a tag cannot have
  -- (over 64 characters, control characters) are left out.
  insert into public.tags (name)
  select distinct on (lower(t.name)) t.name
    from import_rows r, lateral (select btrim(p) as name from regexp_split_to_table(r.tags, '[,;]') p) t
   where r.subscriber_id is not null and r.tags is not null
     and char_length(t.name) between 1 and 64 and t.name !~ '[[:cntrl:]]'
   order by lower(t.name), t.name
  on conflict ((lower(name))) do nothing;
  insert into public.subscriber_tags (subscriber_id, tag_id)
  select distinct r.subscriber_id, g.id
    from import_rows r, lateral (select btrim(p) as name from regexp_split_to_table(r.tags, '[,;]') p) t
    join public.tags g on lower(g.name) = lower(t.name)
   where r.subscriber_id is not null and r.tags is not null
  on conflict do nothing;

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
