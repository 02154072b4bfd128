-- Named queries of the realtime service (loaded by sql.ts; `-- name:` starts each one).

-- name: published-tables
-- Tables currently in publication supabase_realtime; no parameters; rows in no particular order.
-- per_row: capture needs a row trigger, because a statement may name another table than the one
-- whose rows it changes (partitioned tables, partitions, inheritance parents and children).
select n.nspname as schema, c.relname as table, c.oid::int8 as relid,
  c.relkind = 'p' or c.relispartition or c.relhassubclass
    or exists (select 1 from pg_catalog.pg_inherits h where h.inhrelid = c.oid) as per_row
from pg_catalog.pg_publication_tables p
join pg_catalog.pg_namespace n on n.nspname = p.schemaname
join pg_catalog.pg_class c on c.relnamespace = n.oid and c.relname = p.tablename
where p.pubname = 'supabase_realtime' and c.relkind in ('r', 'p');

-- name: captured-tables
-- The capture triggers in place (cdc.ts CAPTURE_TRIGGERS), one row per table and trigger; no
-- parameters.
select n.nspname as schema, c.relname as table, c.oid::int8 as relid, t.tgname as trigger
from pg_catalog.pg_trigger t
join pg_catalog.pg_class c on c.oid = t.tgrelid
join pg_catalog.pg_namespace n on n.oid = c.relnamespace
where t.tgname in ('_realtime_capture', '_realtime_capture_insert', '_realtime_capture_update',
    '_realtime_capture_delete')
  and t.tgparentid = 0;

-- name: find-table
-- $1 schema, $2 table name → the table's oid, or no row.
select c.oid::int8 as relid
from pg_catalog.pg_class c
join pg_catalog.pg_namespace n on n.oid = c.relnamespace
where n.nspname = $1 and c.relname = $2 and c.relkind in ('r', 'p');

-- name: table-shape
-- $1 table oid → one row per column in attnum order: name, upstream type name (pg_type.typname,
-- as walrus reports it), SQL type for casts, and whether it is a primary-key column.
select a.attname as name, t.typname as type,
  pg_catalog.format_type(a.atttypid, a.atttypmod) as sql_type,
  coalesce(a.attnum = any (i.indkey), false) as pk
from pg_catalog.pg_attribute a
join pg_catalog.pg_type t on t.oid = a.atttypid
left join pg_catalog.pg_index i on i.indrelid = a.attrelid and i.indisprimary
where a.attrelid = $1::oid and a.attnum > 0 and not a.attisdropped
order by a.attnum;

-- name: role-privileges
-- $1 role name, $2 table oid → can the role select the table, does it bypass RLS, and which
-- columns it may see.
select pg_catalog.has_table_privilege($1, $2::oid, 'SELECT') as can_select,
  (select r.rolbypassrls or r.rolsuper from pg_catalog.pg_roles r where r.rolname = $1) as bypass_rls,
  coalesce((
    select array_agg(a.attname::text order by a.attnum)
    from pg_catalog.pg_attribute a
    where a.attrelid = $2::oid and a.attnum > 0 and not a.attisdropped
      and pg_catalog.has_column_privilege($1, $2::oid, a.attnum, 'SELECT')
  ), '{}') as columns;

-- name: role-exists
-- $1 role name.
select exists (select 1 from pg_catalog.pg_roles where rolname = $1) as exists;

-- name: set-caller
-- Transaction-local caller context as upstream realtime sets it (contract §6.7):
-- $1 role, $2 claims JSON, $3 claim sub, $4 claim role, $5 realtime.topic.
select pg_catalog.set_config('role', $1, true),
  pg_catalog.set_config('request.jwt.claims', $2, true),
  pg_catalog.set_config('request.jwt.claim.sub', $3, true),
  pg_catalog.set_config('request.jwt.claim.role', $4, true),
  pg_catalog.set_config('realtime.topic', $5, true),
  pg_catalog.set_config('request.headers', '{}', true);

-- name: arm
-- This service listens to changes of table $2 in schema $1 (both null: of every table) from now
-- on (setup.sql _realtime.listened()).
select _realtime.count_listening($1, $2, true);

-- name: disarm
-- This service no longer listens to table $2 in schema $1 (both null: to every table).
select _realtime.count_listening($1, $2, false);

-- name: writers
-- Transactions of other sessions on this database that have written something: their xids.
select coalesce(array_agg(backend_xid::text), '{}') as xids
from pg_catalog.pg_stat_activity
where datname = pg_catalog.current_database() and pid <> pg_catalog.pg_backend_pid()
  and backend_xid is not null;

-- name: writers-left
-- $1 xids (from `writers`) → how many of those transactions are still open.
select count(*)::int as open
from pg_catalog.pg_stat_activity
where datname = pg_catalog.current_database() and backend_xid::text = any ($1::text[]);

-- name: take-change
-- $1 id of an oversized change → its message; the row is consumed.
delete from _realtime.changes where id = $1 returning message;

-- name: purge-changes
-- Oversized changes nobody consumed (no service was listening) are dropped after a minute.
delete from _realtime.changes where created_at < now() - interval '1 minute';

-- name: get-message
-- $1 realtime.messages id → the row's broadcast fields (for messages too big for NOTIFY).
select id, topic, event, extension, private, payload,
  encode(binary_payload, 'base64') as binary_payload
from realtime.messages where id = $1;

-- name: probe-messages
-- Private-channel probe rows (rolled back afterwards), as upstream realtime's Authorization
-- module inserts them: $1 topic → one row per extension, ids returned.
insert into realtime.messages (topic, extension, event, payload, private)
select $1, e, 'probe', '{}'::jsonb, true from unnest(array['broadcast', 'presence']) e
returning id, extension;

-- name: probe-read
-- $1 probe ids → the extensions the caller may read (SELECT policy on realtime.messages).
select extension from realtime.messages where id = any ($1::uuid[]);

-- name: probe-write
-- $1 topic, $2 extension: does the caller's INSERT policy allow a message (rolled back).
insert into realtime.messages (topic, extension, event, payload, private)
values ($1, $2, 'probe', '{}'::jsonb, true);

-- name: messages-table
-- Is realtime.messages there (bootstrap 40-realtime.sql), and does it carry our trigger.
select to_regclass('realtime.messages') is not null as present,
  exists (select 1 from pg_catalog.pg_trigger
    where tgrelid = to_regclass('realtime.messages') and tgname = '_realtime_message') as watched;

-- name: replay-messages
-- Broadcast replay (private channels): $1 topic, $2 since (epoch ms), $3 limit → the newest
-- $3 broadcast rows of the topic since then, oldest first.
select id, event, payload, encode(binary_payload, 'base64') as binary_payload
from (
  select id, event, payload, binary_payload, inserted_at
  from realtime.messages
  where topic = $1 and private is true and extension = 'broadcast' and event is not null
    and inserted_at >= to_timestamp($2::float8 / 1000)
  order by inserted_at desc
  limit $3
) recent
order by inserted_at;

-- name: visible-to
-- Which callers may see one row: $1 table oid, $2 row condition over alias x, $3 the record JSON,
-- $4 JSON array of callers [{role, claims, sub}] → one boolean per caller (see setup.sql).
select _realtime.visible_to($1::oid::regclass, $2, $3::jsonb, $4::jsonb) as seen;
