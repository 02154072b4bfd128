-- Catalogue queries behind the REST schema cache. Each takes $1 = the exposed schemas (text[]).

-- name: tables
-- Tables, views, materialized views and foreign tables with their columns in attnum order.
select n.nspname as schema, c.relname as name, c.relkind::text as kind,
  coalesce((
    select json_agg(json_build_object(
      'name', a.attname,
      'type', format_type(a.atttypid, a.atttypmod),
      'typname', t.typname,
      'nullable', not a.attnotnull,
      'hasDefault', a.atthasdef or a.attidentity <> '',
      'generated', a.attgenerated <> '') order by a.attnum)
    from pg_attribute a join pg_type t on t.oid = a.atttypid
    where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped), '[]') as columns
from pg_class c join pg_namespace n on n.oid = c.relnamespace
where n.nspname = any($1) and c.relkind in ('r', 'v', 'm', 'f', 'p');

-- name: keys
-- Primary keys ('p') and unique constraints ('u'), columns in key order.
select n.nspname as schema, c.relname as table, con.conname as name, con.contype::text as type,
  to_json(array(
    select a.attname from unnest(con.conkey) with ordinality k(attnum, ord)
    join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.attnum order by k.ord)) as columns
from pg_constraint con
join pg_class c on c.oid = con.conrelid join pg_namespace n on n.oid = c.relnamespace
where con.contype in ('p', 'u') and n.nspname = any($1);

-- name: foreign_keys
-- Foreign keys touching an exposed schema; columns and ref_columns are paired by position.
select con.conname as name, n1.nspname as schema, c1.relname as table,
  to_json(array(
    select a.attname from unnest(con.conkey) with ordinality k(attnum, ord)
    join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.attnum order by k.ord)) as columns,
  n2.nspname as ref_schema, c2.relname as ref_table,
  to_json(array(
    select a.attname from unnest(con.confkey) with ordinality k(attnum, ord)
    join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.attnum order by k.ord)) as ref_columns
from pg_constraint con
join pg_class c1 on c1.oid = con.conrelid join pg_namespace n1 on n1.oid = c1.relnamespace
join pg_class c2 on c2.oid = con.confrelid join pg_namespace n2 on n2.oid = c2.relnamespace
where con.contype = 'f' and (n1.nspname = any($1) or n2.nspname = any($1));

-- name: view_sources
-- Which tables each exposed view reads from (through its rewrite rule's dependencies).
select distinct vn.nspname as schema, v.relname as view, tn.nspname as source_schema, t.relname as source_table
from pg_rewrite r
join pg_class v on v.oid = r.ev_class join pg_namespace vn on vn.oid = v.relnamespace
join pg_depend d on d.objid = r.oid and d.classid = 'pg_rewrite'::regclass and d.refclassid = 'pg_class'::regclass
join pg_class t on t.oid = d.refobjid and t.oid <> v.oid join pg_namespace tn on tn.oid = t.relnamespace
where v.relkind in ('v', 'm') and vn.nspname = any($1) and t.relkind in ('r', 'p', 'v', 'm', 'f');

-- name: functions
-- Functions with every argument (mode i/o/b/v/t), defaults count, return type, volatility and
-- their own settings (`create function … set statement_timeout = '60s'`).
select n.nspname as schema, p.proname as name,
  coalesce((
    select json_agg(json_build_object('name', coalesce(a.name, ''), 'type', format_type(a.type, null), 'mode', a.mode::text) order by a.ord)
    from unnest(
      coalesce(p.proallargtypes, p.proargtypes::oid[]),
      coalesce(p.proargmodes, array_fill('i'::"char", array[p.pronargs::int])),
      coalesce(p.proargnames, array_fill(''::text, array[coalesce(array_length(p.proallargtypes, 1), p.pronargs::int)]))
    ) with ordinality a(type, mode, name, ord)), '[]') as args,
  p.pronargdefaults::int as n_defaults, p.proretset as returns_set,
  format_type(p.prorettype, null) as return_type,
  (rt.typrelid <> 0 or rt.typname = 'record') as returns_composite,
  -- A function returning a domain named like a media type (`create domain "text/plain" as text`)
  -- is that media type's handler for itself (PostgREST 12's media type handlers).
  case when rt.typtype = 'd' and not p.proretset
        and rt.typname ~* '^[A-Za-z0-9.-]+/[A-Za-z0-9.+-]+$' then lower(rt.typname) end as media_type,
  case when rt.typtype = 'd' then format_type(rt.typbasetype, null) end as media_base_type,
  p.provolatile::text as volatility,
  to_json(p.proconfig) as config,
  (not p.proretset or p.prorows = 1) as single_row
from pg_proc p
join pg_namespace n on n.oid = p.pronamespace
join pg_type rt on rt.oid = p.prorettype
where n.nspname = any($1) and p.prokind = 'f';

-- name: role_settings
-- Per-role settings (ALTER ROLE … SET) of this database or all databases (no parameters).
select r.rolname as role, to_json(s.setconfig) as settings
from pg_db_role_setting s join pg_roles r on r.oid = s.setrole
where s.setdatabase in (0, (select oid from pg_database where datname = current_database()))
order by s.setdatabase;

-- name: switchable_roles
-- Every role, and whether PostgREST's `authenticator` could SET ROLE to it (no parameters).
select rolname as role, pg_has_role('authenticator', oid, 'member') as allowed from pg_roles;
