-- The delivery state check (SPEC §4) runs its function only for a transition that is not allowed.
-- Every claim and every recorded result changes the status of up to 100 rows, and entering the
-- PL/pgSQL function (with its search_path setting) for each row was a measurable part of a send,
-- most of all on PGlite; the trigger's WHEN clause is evaluated by the executor alone. The function
-- keeps its own check, so the rule holds whichever way it is called.
drop trigger deliveries_check_transition on public.deliveries;
create trigger deliveries_check_transition
  before update of status on public.deliveries
  for each row
  when (new.status is distinct from old.status and (old.status, new.status) not in (
    ('queued', 'sending'), ('sending', 'queued'), ('sending', 'sent'), ('sending', 'failed'),
    ('sent', 'bounced'), ('failed', 'queued')
  ))
  execute function private.check_delivery_transition();
