-- record_delivery (one result a call) has had no caller since process-queue writes its results in
-- groups with record_deliveries (20261122260000); a service-role function nobody uses is only
-- surface to keep correct.
drop function public.record_delivery(uuid, uuid, uuid, text, text, text, integer);
