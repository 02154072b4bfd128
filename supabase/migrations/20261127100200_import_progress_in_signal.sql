-- team:imports carries each changed import's progress (issue 20, finding 1, follow-up).
--
-- The import dialog draws a bar per committed batch. With only ids in the message it read the row
-- again, and when two batches committed close together (they are applied in parallel) the read
-- already saw the second: a step of the bar went missing. The message now carries the counters
-- of each changed import (up to 100, as ids), as the row itself did over postgres_changes. The
-- topic is private to members, who read imports anyway; no subscriber is named.
create function private.signal_import_progress()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  changed jsonb;
  n integer;
begin
  select pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
           'id', c.id, 'status', c.status, 'total_rows', c.total_rows,
           'processed_rows', c.processed_rows, 'inserted', c.inserted, 'updated', c.updated,
           'skipped', c.skipped, 'error_count', c.error_count,
           'failure_reason', c.failure_reason, 'finished_at', c.finished_at)),
         count(*)
    into changed, n
    from (select * from changed_rows limit 101) c;
  if n > 0 then
    perform private.signal('team:imports', 'changed', pg_catalog.jsonb_build_object(
      'op', pg_catalog.lower(tg_op),
      'ids', case when n > 100 then null
                  else (select pg_catalog.jsonb_agg(r -> 'id') from pg_catalog.jsonb_array_elements(changed) r) end,
      'imports', case when n > 100 then null else changed end), true);
  end if;
  return null;
end;
$$;
revoke execute on function private.signal_import_progress() from public;

drop trigger imports_signal_insert on public.imports;
drop trigger imports_signal_update on public.imports;
create trigger imports_signal_insert after insert on public.imports
  referencing new table as changed_rows
  for each statement execute function private.signal_import_progress();
create trigger imports_signal_update after update on public.imports
  referencing new table as changed_rows
  for each statement execute function private.signal_import_progress();
