-- What the dashboard listens to (SPEC §2): new signups and subscription changes. Realtime checks
-- each row against the listener's SELECT policy, so only members receive them.
alter publication supabase_realtime add table public.subscribers, public.subscriptions;

-- The waitlist page cannot read other people's rows, so a confirmation on a waitlist list is
-- announced on the public broadcast topic `waitlist:<slug>`; pages then re-ask `waitlist` for
-- their own position. The payload names no subscriber.
create function private.announce_waitlist_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  list_slug text;
begin
  select l.slug into list_slug from public.lists l where l.id = new.list_id and l.waitlist;
  if list_slug is not null then
    perform realtime.send(jsonb_build_object('list', list_slug), 'positions', 'waitlist:' || list_slug, false);
  end if;
  return null;
end;
$$;
revoke execute on function private.announce_waitlist_change() from public;
create trigger subscriptions_announce_waitlist
  after insert or update of status on public.subscriptions
  for each row execute function private.announce_waitlist_change();
