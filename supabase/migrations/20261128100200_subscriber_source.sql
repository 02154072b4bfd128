-- Where each subscriber came from (issue 24: segments select by source): 'form' (the public
-- signup form, its confirm link, a waitlist let-in), 'import' (a CSV import), 'team' (a member
-- in the admin) or 'api' (anything else: the service key, SQL). The column is signup_source, as
-- plpgsql functions over subscribers already name a variable `source`. Set once when the row is created,
-- from the same postbox.source setting the subscription events record (private.event_source).
create function private.subscriber_source()
returns text
language sql
stable
set search_path = ''
as $$
  select case private.event_source()
           when 'form' then 'form' when 'confirm-link' then 'form' when 'let-in' then 'form'
           when 'import' then 'import'
           when 'admin' then 'team'
           else 'api' end
$$;
-- The column default runs as whoever inserts (an admin through the API, the signup functions).
revoke execute on function private.subscriber_source() from public;
grant execute on function private.subscriber_source(), private.event_source() to anon, authenticated, service_role;

alter table public.subscribers add column signup_source text;
-- Existing rows: the source of their oldest event that names one, else 'api'. Triggers are off
-- for this one statement so the backfill is not an edit in anyone's history.
set session_replication_role = replica;
update public.subscribers s set signup_source = coalesce((
    select case e.data ->> 'source'
             when 'form' then 'form' when 'confirm-link' then 'form' when 'let-in' then 'form'
             when 'import' then 'import' when 'admin' then 'team' else 'api' end
      from public.events e
     where e.subscriber_id = s.id and e.data ? 'source'
     order by e.created_at, e.id limit 1), 'api');
reset session_replication_role;
alter table public.subscribers
  alter column signup_source set default private.subscriber_source(),
  alter column signup_source set not null,
  add constraint subscribers_source_check check (signup_source in ('form', 'import', 'team', 'api'));
comment on column public.subscribers.signup_source is 'Where the subscriber came from: form, import, team or api (set at creation).';
