-- Deleting one's own data (SPEC §1, §7 preferences "delete") also forgets the mail provider's
-- events about the address: private.email_event_receipts keys an event without a Message-ID by
-- `<email> <occurred_at>` (20261122250000_email_events.sql), which kept the address after
-- everything else was gone. A provider's retry after the deletion finds no subscriber and is
-- ignored, so nothing needs the receipt any more. Receipts keyed by a Message-ID name no address.
create or replace function public.delete_subscriber_data(p_subscriber uuid)
returns jsonb
language plpgsql
set search_path = ''
as $$
declare
  who public.subscribers := private.self_service_subscriber(p_subscriber);
begin
  perform set_config('postbox.source', 'preferences', true);
  delete from public.subscribers s where s.id = who.id;
  delete from private.rate_limits r where r.key = who.email;
  delete from private.email_event_receipts r where starts_with(r.key, who.email || ' ');
  return jsonb_build_object('deleted', true);
end;
$$;
