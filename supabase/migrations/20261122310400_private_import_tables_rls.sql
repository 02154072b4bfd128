-- Row-level security on the import's bookkeeping tables too, as on every other table
-- (private.rate_limits, private.confirm_nonces): no policy, so nobody but their owner reads or
-- writes them. They were already out of reach — the private schema is not exposed and every
-- privilege is revoked — and the import's security definer functions, which run as the owner,
-- are the only code that touches them.
alter table private.import_emails enable row level security;
alter table private.import_batches enable row level security;
