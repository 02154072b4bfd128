-- record_delivery asks after every message whether the campaign has anything queued or sending
-- left; near the end of a large send no queued row answers it, so this index keeps that check to
-- the few open rows instead of every delivery of the campaign.
create index deliveries_open_idx on public.deliveries (campaign_id) where status in ('queued', 'sending');
