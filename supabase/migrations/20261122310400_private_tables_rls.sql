-- Row-level security on the remaining private tables too, as on every other table
-- (private.rate_limits, private.confirm_nonces): no policy, so only their owner and roles that
-- bypass RLS (service_role) read or write them. They were already out of reach for clients — the
-- private schema is not exposed and their privileges are revoked — and the code that uses them is
-- security definer functions running as the owner, pg_cron jobs (the owner) or the service role.
alter table private.import_emails enable row level security;
alter table private.import_batches enable row level security;
alter table private.email_event_receipts enable row level security;
alter table private.scheduler_secrets enable row level security;
alter table private.send_rate enable row level security;
