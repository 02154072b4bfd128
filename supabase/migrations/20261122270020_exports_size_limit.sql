-- Exports of a large audience are bigger than the 50 MB uploads are held to (issue 6: 1,000,000
-- subscribers make a CSV of about 100 MB). The `exports` bucket (written only by
-- export-subscribers with the service key) takes files up to 500 MB. Storage also applies the
-- project's global upload limit (supabase/config.toml [storage] file_size_limit, set to match; on
-- a hosted project, the Storage settings), so an export over that limit still fails with
-- payload_too_large rather than leaving a partial file.
update storage.buckets set file_size_limit = 524288000 where id = 'exports';
