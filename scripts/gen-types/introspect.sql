-- Catalogue queries gen-types runs to describe the rendered schemas. Each takes $1 = text[] of
-- schema names (except enums, which reads every schema so columns can use enums from elsewhere).
-- Modelled on postgres-meta's src/lib/sql (columns, table_relationships, functions, types).

-- name: relations
-- Tables (r, p, f) and views (v, m), ordered by schema and name.
select n.nspname as schema, c.relname as name, c.relkind::text as kind,
  case
    when c.relkind in ('v', 'f') then (pg_relation_is_updatable(c.oid::regclass, false) & 20) = 20
    else c.relkind in ('r', 'p')
  end as updatable
from pg_class c
join pg_namespace n on n.oid = c.relnamespace
where n.nspname = any($1) and c.relkind in ('r', 'p', 'f', 'v', 'm')
order by 1, 2;

-- name: columns
-- Columns of those relations in attnum order; a domain is described by its base type.
select n.nspname as schema, c.relname as relation, a.attname as name,
  coalesce(bn.nspname, tn.nspname) as type_schema,
  coalesce(bt.typname, t.typname) as type_name,
  not (a.attnotnull or (t.typtype = 'd' and t.typnotnull)) as nullable,
  a.atthasdef as has_default,
  case a.attidentity when 'a' then 'ALWAYS' when 'd' then 'BY DEFAULT' end as identity,
  (c.relkind in ('r', 'p')
    or (c.relkind in ('v', 'f') and pg_column_is_updatable(c.oid::regclass, a.attnum, false))
  ) as updatable
from pg_attribute a
join pg_class c on c.oid = a.attrelid
join pg_namespace n on n.oid = c.relnamespace
join pg_type t on t.oid = a.atttypid
join pg_namespace tn on tn.oid = t.typnamespace
left join pg_type bt on t.typtype = 'd' and bt.oid = t.typbasetype
left join pg_namespace bn on bn.oid = bt.typnamespace
where n.nspname = any($1) and c.relkind in ('r', 'p', 'f', 'v', 'm')
  and a.attnum > 0 and not a.attisdropped
order by 1, 2, a.attnum;

-- name: relationships
-- Foreign keys declared on relations of these schemas; columns in constraint order. One-to-one when
-- the referencing columns are exactly a primary key or unique constraint of their table. Oids are
-- text (as the query trees of views-definitions spell them).
select con.conname as foreign_key_name, n1.nspname as schema, tab.relname as relation,
  n2.nspname as referenced_schema, other.relname as referenced_relation,
  con.conrelid::text as relation_oid, con.confrelid::text as referenced_oid,
  to_json(con.conkey) as column_numbers, to_json(con.confkey) as referenced_column_numbers,
  (select json_agg(a.attname order by k.ord)
     from unnest(con.conkey) with ordinality k(attnum, ord)
     join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.attnum) as columns,
  (select json_agg(a.attname order by k.ord)
     from unnest(con.confkey) with ordinality k(attnum, ord)
     join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.attnum) as referenced_columns,
  exists (
    select 1 from pg_constraint u
    where u.conrelid = con.conrelid and u.contype in ('p', 'u')
      and (select array_agg(x order by x) from unnest(u.conkey) x)
        = (select array_agg(x order by x) from unnest(con.conkey) x)
  ) as is_one_to_one
from pg_constraint con
join pg_class tab on tab.oid = con.conrelid
join pg_namespace n1 on n1.oid = tab.relnamespace
join pg_class other on other.oid = con.confrelid
join pg_namespace n2 on n2.oid = other.relnamespace
where con.contype = 'f' and n1.nspname = any($1)
order by 1, 2, 3;

-- name: view_definitions
-- Every user view's stored query tree (outfuncs text) and its columns, to trace view columns back to
-- table columns; views of all schemas, since a public view may select from a view elsewhere.
select c.oid::text as oid, n.nspname as schema, c.relname as name, r.ev_action::text as definition,
  (select json_agg(json_build_object('number', a.attnum, 'name', a.attname) order by a.attnum)
     from pg_attribute a where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped) as columns
from pg_class c
join pg_namespace n on n.oid = c.relnamespace
join pg_rewrite r on r.ev_class = c.oid and r.rulename = '_RETURN'
where c.relkind in ('v', 'm')
  and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\_%'
order by 2, 3;

-- name: functions
-- Plain functions (not procedures or aggregates). args lists every argument in declaration order
-- with its mode (i in, o out, b inout, v variadic, t table); defaults belong to the last
-- n_defaults input arguments. Overloads come in creation order, as the CLI lists them. A domain
-- return type (such as a media type handler's "text/plain") is described by its base type.
select n.nspname as schema, p.proname as name, p.proretset as returns_set,
  coalesce(bn.nspname, rn.nspname) as return_type_schema,
  coalesce(bt.typname, rt.typname) as return_type_name,
  case when rc.relkind in ('r', 'p', 'f', 'v', 'm') then rc.relname end as returns_relation,
  p.pronargdefaults as n_defaults,
  coalesce((
    select json_agg(json_build_object(
      'name', coalesce(p.proargnames[a.ord], ''),
      'mode', coalesce(p.proargmodes[a.ord]::text, 'i'),
      'type_schema', an.nspname,
      'type_name', at.typname) order by a.ord)
    from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) with ordinality a(typ, ord)
    join pg_type at on at.oid = a.typ
    join pg_namespace an on an.oid = at.typnamespace
  ), '[]'::json) as args
from pg_proc p
join pg_namespace n on n.oid = p.pronamespace
join pg_type rt on rt.oid = p.prorettype
join pg_namespace rn on rn.oid = rt.typnamespace
left join pg_type bt on rt.typtype = 'd' and bt.oid = rt.typbasetype
left join pg_namespace bn on bn.oid = bt.typnamespace
left join pg_class rc on rc.oid = rt.typrelid
where n.nspname = any($1) and p.prokind = 'f'
order by 1, 2, p.oid;

-- name: enums
-- Every enum of every schema, labels in their declared order.
select n.nspname as schema, t.typname as name,
  json_agg(e.enumlabel order by e.enumsortorder) as values
from pg_type t
join pg_namespace n on n.oid = t.typnamespace
join pg_enum e on e.enumtypid = t.oid
group by 1, 2
order by 1, 2;

-- name: composite_types
-- Free-standing composite types (create type ... as (...)), attributes in declared order.
select n.nspname as schema, t.typname as name,
  json_agg(json_build_object('name', a.attname, 'type_schema', an.nspname, 'type_name', at.typname)
    order by a.attnum) as attributes
from pg_type t
join pg_namespace n on n.oid = t.typnamespace
join pg_class c on c.oid = t.typrelid and c.relkind = 'c'
join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
join pg_type at on at.oid = a.atttypid
join pg_namespace an on an.oid = at.typnamespace
where n.nspname = any($1)
group by 1, 2
order by 1, 2;
