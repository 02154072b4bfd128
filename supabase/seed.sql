-- Local sample data, applied once on a fresh database (never on hosted projects).
-- The product tables arrive with the audience migrations; until then there is nothing to seed.
select 1;
