-- A list's seeded welcome automation (20261203100000) goes with the list: deleted with it, so no
-- "Welcome to <deleted list>" that enrols nobody is left in the automations list or linked from
-- Settings → Emails. Automations the team made on the list stay (their trigger list becomes
-- empty, as before); a welcome the team pointed at another list stays too.
create function private.delete_welcome_of_list()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from public.automations a where a.welcome and a.trigger_list_id = old.id;
  return old;
end;
$$;
revoke execute on function private.delete_welcome_of_list() from public;
create trigger lists_delete_welcome before delete on public.lists
  for each row execute function private.delete_welcome_of_list();

-- Welcomes whose list is already gone.
delete from public.automations where welcome and trigger_list_id is null;
