-- A CSV export is opened in a spreadsheet more often than anywhere else, and a cell that starts
-- with =, +, -, @, a tab or a carriage return is read there as a formula. Names come from public
-- signup forms, so anyone could plant `=HYPERLINK(...)` (or worse) in the team's next export.
-- Such a field now starts with an apostrophe, which spreadsheets take as "this is text" and do
-- not show (the OWASP advice for CSV injection), and is always quoted. The import drops that one
-- apostrophe again (_shared/csv-rows.ts), so an export read back into Postbox round-trips.
--
-- Still an SQL-standard body without a SET clause, so the planner inlines it into the export's
-- page (20261123120000).
create or replace function private.csv_field(value text)
returns text
language sql
immutable
return case when value is null then ''
            when value ~ '^[-=+@\t\r]' then '"''' || replace(value, '"', '""') || '"'
            when value ~ '[",\r\n]' then '"' || replace(value, '"', '""') || '"'
            else value end;
