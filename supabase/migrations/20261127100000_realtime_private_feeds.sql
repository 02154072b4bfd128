-- The team's live feeds move from postgres_changes to private broadcast (issue 20, finding 1).
--
-- With subscribers and subscriptions in publication supabase_realtime, an anonymous socket could
-- listen to postgres_changes on them and, by the events a `subscribe` call produced (an INSERT
-- "Error 401" event for a new address, nothing for a known one), tell a new address from a known
-- one. Hosted Realtime behaves the same for tables a role cannot read, so no table holding
-- subscribers' data (nor campaigns or imports, for one design) stays in the publication. Instead,
-- statement triggers announce changes on private topics that only members may join (RLS on
-- realtime.messages, checked against realtime.topic() as hosted Realtime checks it):
--
--   team:audience   'signups'       subscribers inserted        {op}
--                   'subscribers'   subscribers updated/deleted {op}
--                   'subscriptions' subscriptions changed       {op}
--   team:campaigns  'changed'       campaigns changed           {op, ids: up to 100 ids, or null}
--   team:imports    'changed'       imports changed             {op, ids: up to 100 ids, or null}
--
-- The messages name no subscriber; the pages read what they show again (debounced). One message
-- per statement at most, and one per topic, event and payload per transaction (private.signal),
-- so an import batch of 5,000 rows sends a handful, never one per row.

do $$
declare
  t text;
begin
  foreach t in array array['subscribers', 'subscriptions', 'campaigns', 'imports'] loop
    if exists (select 1 from pg_catalog.pg_publication_tables
                where pubname = 'supabase_realtime' and schemaname = 'public' and tablename = t) then
      execute pg_catalog.format('alter publication supabase_realtime drop table public.%I', t);
    end if;
  end loop;
end $$;

-- Sends one broadcast unless this transaction already sent the same topic, event and payload
-- (the keys sent are kept in a transaction-local setting, undone with a rolled-back savepoint
-- just as the message itself is).
create function private.signal(topic text, event text, payload jsonb, is_private boolean)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  key text := pg_catalog.md5(topic || ' ' || event || ' ' || payload::text);
  sent text := coalesce(pg_catalog.current_setting('postbox.signals_sent', true), '');
begin
  if pg_catalog.strpos(sent, key) > 0 then
    return;
  end if;
  perform pg_catalog.set_config('postbox.signals_sent', sent || key || ' ', true);
  perform realtime.send(payload, event, topic, is_private);
end;
$$;
comment on function private.signal(text, text, jsonb, boolean) is
  'realtime.send at most once per topic, event and payload in a transaction.';

-- Statement trigger: tg_argv[0] the topic, tg_argv[1] the event; nothing for a statement that
-- changed no row. The changed rows are the transition table `changed_rows`.
create function private.signal_team_rows()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if exists (select 1 from changed_rows) then
    perform private.signal(tg_argv[0], tg_argv[1],
      pg_catalog.jsonb_build_object('op', pg_catalog.lower(tg_op)), true);
  end if;
  return null;
end;
$$;

-- As signal_team_rows, naming the changed rows' ids (null when more than 100 changed, meaning
-- "any"), so a page about one campaign or import ignores the others.
create function private.signal_team_ids()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  ids jsonb;
  n integer;
begin
  select pg_catalog.jsonb_agg(r.id), count(*) into ids, n
    from (select c.id from changed_rows c limit 101) r;
  if n > 0 then
    perform private.signal(tg_argv[0], tg_argv[1], pg_catalog.jsonb_build_object(
      'op', pg_catalog.lower(tg_op), 'ids', case when n > 100 then null else ids end), true);
  end if;
  return null;
end;
$$;

revoke execute on function private.signal(text, text, jsonb, boolean), private.signal_team_rows(),
  private.signal_team_ids() from public;

create trigger subscribers_signal_insert after insert on public.subscribers
  referencing new table as changed_rows
  for each statement execute function private.signal_team_rows('team:audience', 'signups');
create trigger subscribers_signal_update after update on public.subscribers
  referencing new table as changed_rows
  for each statement execute function private.signal_team_rows('team:audience', 'subscribers');
create trigger subscribers_signal_delete after delete on public.subscribers
  referencing old table as changed_rows
  for each statement execute function private.signal_team_rows('team:audience', 'subscribers');

create trigger subscriptions_signal_insert after insert on public.subscriptions
  referencing new table as changed_rows
  for each statement execute function private.signal_team_rows('team:audience', 'subscriptions');
create trigger subscriptions_signal_update after update on public.subscriptions
  referencing new table as changed_rows
  for each statement execute function private.signal_team_rows('team:audience', 'subscriptions');
create trigger subscriptions_signal_delete after delete on public.subscriptions
  referencing old table as changed_rows
  for each statement execute function private.signal_team_rows('team:audience', 'subscriptions');

create trigger campaigns_signal_insert after insert on public.campaigns
  referencing new table as changed_rows
  for each statement execute function private.signal_team_ids('team:campaigns', 'changed');
create trigger campaigns_signal_update after update on public.campaigns
  referencing new table as changed_rows
  for each statement execute function private.signal_team_ids('team:campaigns', 'changed');
create trigger campaigns_signal_delete after delete on public.campaigns
  referencing old table as changed_rows
  for each statement execute function private.signal_team_ids('team:campaigns', 'changed');

create trigger imports_signal_insert after insert on public.imports
  referencing new table as changed_rows
  for each statement execute function private.signal_team_ids('team:imports', 'changed');
create trigger imports_signal_update after update on public.imports
  referencing new table as changed_rows
  for each statement execute function private.signal_team_ids('team:imports', 'changed');
create trigger imports_signal_delete after delete on public.imports
  referencing old table as changed_rows
  for each statement execute function private.signal_team_ids('team:imports', 'changed');

-- Who may join which private topic: Realtime inserts probe rows for the topic and selects them as
-- the caller, with realtime.topic() set to the topic. Members (any role) read the team topics,
-- as they read the tables behind them; nobody may write to them or track presence there (the
-- messages come from the database only). No other private topic is open to anyone.
create policy "Members receive the team's live feeds" on realtime.messages
  for select to authenticated
  using (
    extension = 'broadcast'
    and (select realtime.topic()) in ('team:audience', 'team:campaigns', 'team:imports')
    and (select private.has_role('viewer'))
  );
