-- The export's CSV quoting (20261122220300) runs four times for every exported row. As an SQL
-- function with `set search_path = ''` PostgreSQL could not inline it, so each field paid a
-- function call with its own executor: about 0.5 s of a 0.56 s page of 5,000 rows (auto_explain),
-- and a 1,000,000-row export spent some 30 CPU seconds in Postgres. With an SQL-standard body
-- (`return`) and no SET clause the planner inlines it into the page's expression; it is as safe as
-- before, because such a body is parsed when the function is created (as in 20261122310000). The
-- rule is unchanged: RFC 4180 quoting, a field with a quote, delimiter or line break is quoted and
-- its quotes doubled; null is an empty field.
create or replace function private.csv_field(value text)
returns text
language sql
immutable
return case when value is null then ''
            when value ~ '[",\r\n]' then '"' || replace(value, '"', '""') || '"'
            else value end;
