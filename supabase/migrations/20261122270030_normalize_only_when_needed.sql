-- The address and name normalisation (20261122100400) runs as plpgsql for every row written to
-- subscribers; an import writes 5,000 rows per statement that the function already trimmed and
-- lower-cased (issue 6). The same trigger now fires only when there is something to change: the
-- WHEN condition is evaluated without calling plpgsql, and a row it lets through is normalised
-- exactly as before.
drop trigger subscribers_normalize on public.subscribers;
create trigger subscribers_normalize before insert or update of email, name on public.subscribers
  for each row
  when (new.email is distinct from lower(btrim(new.email))
        or new.name is distinct from btrim(coalesce(new.name, '')))
  execute function private.normalize_subscriber();
