-- Named queries of the storage service. Loaded once by sql.ts; `$n` are always values.
-- Timestamps come back as Postgres text and bigints as text (see emulator/db/types.ts).

-- name: set-scope
-- The per-request context supabase/storage sets (src/internal/database/postgres/scope.ts):
-- $1 role, $2 raw JWT, $3 sub, $4 claims JSON, $5 headers JSON, $6 method, $7 path, $8 operation.
-- The delete guard of storage migration 0055 is opened for the API's own statements.
select
  set_config('role', $1, true),
  set_config('request.jwt.claim.role', $1, true),
  set_config('request.jwt', $2, true),
  set_config('request.jwt.claim.sub', $3, true),
  set_config('request.jwt.claims', $4, true),
  set_config('request.headers', $5, true),
  set_config('request.method', $6, true),
  set_config('request.path', $7, true),
  set_config('storage.operation', $8, true),
  set_config('storage.allow_delete_query', 'true', true);

-- name: find-bucket
-- $1 bucket id. One row or none.
select id, name, owner, owner_id, public, avif_autodetection, file_size_limit,
  allowed_mime_types, type, created_at, updated_at
from storage.buckets
where id = $1;

-- name: list-buckets
-- $1 ILIKE pattern or null, $2 limit or null, $3 offset or null. `/*order*/` is replaced by a
-- whitelisted ORDER BY clause.
select id, name, owner, owner_id, public, avif_autodetection, file_size_limit,
  allowed_mime_types, type, created_at, updated_at
from storage.buckets
where $1::text is null or name ilike $1
/*order*/
limit $2 offset $3;

-- name: create-bucket
-- $1 id, $2 name, $3 owner uuid or null, $4 owner_id, $5 public, $6 file_size_limit, $7 allowed_mime_types.
insert into storage.buckets (id, name, owner, owner_id, public, file_size_limit, allowed_mime_types)
values ($1, $2, $3, $4, coalesce($5, false), $6, $7);

-- name: update-bucket
-- $1 id; $2 public, $3 file_size_limit, $4 allowed_mime_types, each applied when its flag
-- ($5, $6, $7) is true. Returns the id of the updated row (none when invisible or missing).
update storage.buckets
set public = case when $5 then $2 else public end,
  file_size_limit = case when $6 then $3 else file_size_limit end,
  allowed_mime_types = case when $7 then $4 else allowed_mime_types end,
  updated_at = now()
where id = $1
returning id;

-- name: count-objects
-- $1 bucket id. Elevated: how many objects the bucket holds, whoever can see them.
select count(*)::int as count from storage.objects where bucket_id = $1;

-- name: delete-bucket
-- $1 bucket id. Runs as the caller, so RLS on storage.buckets decides (no RETURNING: that
-- would also need a SELECT policy, which upstream's delete does not).
delete from storage.buckets where id = $1;

-- name: allow-delete
-- Opens the delete guard for an elevated transaction (the caller's scope sets it in set-scope).
select set_config('storage.allow_delete_query', 'true', true);

-- name: find-object
-- $1 bucket id, $2 object name. As the caller (SELECT policy) or elevated.
select id, bucket_id, name, owner, owner_id, version, metadata, user_metadata,
  created_at, updated_at, last_accessed_at
from storage.objects
where bucket_id = $1 and name = $2;

-- name: find-objects
-- $1 bucket id, $2 names. The visible subset of the names.
select name from storage.objects where bucket_id = $1 and name = any($2::text[]);

-- name: insert-object
-- $1 id, $2 bucket, $3 name, $4 owner uuid or null, $5 owner_id, $6 metadata, $7 user_metadata,
-- $8 version. No RETURNING: a plain upload needs only the INSERT policy (contract §3.3).
insert into storage.objects (id, bucket_id, name, owner, owner_id, metadata, user_metadata, version)
values ($1, $2, $3, $4, $5, $6, $7, $8);

-- name: upsert-object
-- Same parameters as insert-object. The RETURNING and ON CONFLICT make an upsert need SELECT,
-- INSERT and UPDATE, as upstream's upsertObject does. Returns the row's id and the version it replaced.
with previous as (
  select version from storage.objects where bucket_id = $2 and name = $3
)
insert into storage.objects (id, bucket_id, name, owner, owner_id, metadata, user_metadata, version)
values ($1, $2, $3, $4, $5, $6, $7, $8)
on conflict (bucket_id, name) do update
set owner = excluded.owner, owner_id = excluded.owner_id, metadata = excluded.metadata,
  user_metadata = excluded.user_metadata, version = excluded.version, updated_at = now(),
  last_accessed_at = now()
returning id, (select version from previous) as previous_version;

-- name: delete-objects
-- $1 bucket id, $2 names (null: all of the bucket's objects, for emptying it). As the caller,
-- rows the caller cannot see or delete are skipped.
delete from storage.objects
where bucket_id = $1 and ($2::text[] is null or name = any($2::text[]))
returning id, bucket_id, name, owner, owner_id, version, metadata, user_metadata,
  created_at, updated_at, last_accessed_at;

-- name: move-object
-- $1 source bucket, $2 source name, $3 destination bucket, $4 destination name, $5 owner uuid,
-- $6 owner_id, $7 new version, $8 lastModified of the new file (upstream re-reads the metadata
-- of the moved copy). As the caller (SELECT + UPDATE).
update storage.objects
set bucket_id = $3, name = $4, owner = $5, owner_id = $6, version = $7, updated_at = now(),
  metadata = jsonb_set(coalesce(metadata, '{}'::jsonb), '{lastModified}', to_jsonb($8::text))
where bucket_id = $1 and name = $2
returning id, version;

-- name: list-objects
-- One folder level under a prefix, as storage.search() of storage migration 0063 returns it.
-- $1 bucket, $2 prefix ('' or ending in '/'), $3 lower(prefix || search), $4 limit, $5 offset.
-- Folders (next path segment of deeper names) have null id and metadata. `/*order*/` is
-- replaced by a whitelisted ORDER BY.
with matched as (
  select o.name, o.id, o.updated_at, o.created_at, o.last_accessed_at, o.metadata,
    substr(o.name, char_length($2) + 1) as rel
  from storage.objects o
  where o.bucket_id = $1 and left(lower(o.name), char_length($3)) = $3
), entries as (
  select split_part(rel, '/', 1) as name, null::uuid as id, null::timestamptz as updated_at,
    null::timestamptz as created_at, null::timestamptz as last_accessed_at, null::jsonb as metadata,
    true as is_folder
  from matched
  where strpos(substr(rel, char_length($3) - char_length($2) + 1), '/') > 0
  group by split_part(rel, '/', 1)
  union all
  select rel, id, updated_at, created_at, last_accessed_at, metadata, false
  from matched
  where strpos(substr(rel, char_length($3) - char_length($2) + 1), '/') = 0
)
select name, id, updated_at, created_at, last_accessed_at, metadata
from entries
/*order*/
limit $4 offset $5;

-- name: list-objects-v2
-- Flat listing (no delimiter), as upstream pg.ts listObjectsV2 queries storage.objects.
-- $1 bucket, $2 prefix, $3 limit; `/*cursor*/` (which may use $4 and $5) and `/*order*/` are
-- replaced by whitelisted clauses.
select id, name, metadata, updated_at, created_at, last_accessed_at
from storage.objects
where bucket_id = $1 and left(name, char_length($2)) = $2 and /*cursor*/
/*order*/
limit $3;

-- name: list-objects-v2-delimited
-- One folder level, as storage.search_v2 (storage migration 0050) returns it: folders are the
-- next path segment of deeper names (name without the trailing '/', id null, timestamps the
-- earliest created_at inside), `key` is split_part(name, '/', levels). `sort_name` is where a
-- folder sits in byte order of names ('sub/' after 'sub.txt').
-- $1 bucket, $2 prefix, $3 levels, $4 limit; `/*cursor*/` (which may use $5 and $6) and
-- `/*order*/` are replaced by whitelisted clauses.
with raw as (
  select o.name, o.id, o.updated_at, o.created_at, o.last_accessed_at, o.metadata,
    case when strpos(substr(o.name, char_length($2) + 1), '/') > 0
      then left(o.name, char_length($2) + strpos(substr(o.name, char_length($2) + 1), '/'))
    end as common_prefix
  from storage.objects o
  where o.bucket_id = $1 and left(o.name, char_length($2)) = $2
), entries as (
  select rtrim(common_prefix, '/') as name, null::uuid as id, min(created_at) as updated_at,
    min(created_at) as created_at, null::timestamptz as last_accessed_at, null::jsonb as metadata,
    common_prefix as sort_name
  from raw
  where common_prefix is not null
  group by common_prefix
  union all
  select name, id, updated_at, created_at, last_accessed_at, metadata, name
  from raw
  where common_prefix is null
)
select split_part(name, '/', $3::int) as key, name, id, updated_at, created_at,
  last_accessed_at, metadata
from entries
where /*cursor*/
/*order*/
limit $4;
