-- A referral code only for subscribers who join a waitlist (issue 6).
--
-- Every subscriber got a random referral code when the row was written, though only a waitlist
-- member ever sees or uses one (SPEC §2: the referral link on /confirm/ and /waitlist/?code=).
-- The codes are random on purpose (the code is what lets a visitor see a place on the waitlist),
-- so each new one lands on a random page of the unique index: on a large import that page is
-- rarely in shared buffers, and a 1,000,000-row import into a newsletter spent about a sixth of
-- its database time on this index (measured with the constraint dropped: 123 against 148 CPU
-- seconds). Now the code is given when a subscriber first gets a pending or confirmed
-- subscription to a waitlist list, by a trigger at the end of that statement, so the signup,
-- confirmation and waitlist answers see it as before. Codes already given stay.

alter table public.subscribers
  alter column referral_code drop default,
  alter column referral_code drop not null;
comment on column public.subscribers.referral_code is
  'The code of the subscriber''s referral link: given when they first join a waitlist list, null until then.';

-- Once per statement, on its transition table; a statement that touches no waitlist list (an
-- import into a newsletter) only looks its lists up.
create function private.give_waitlist_referral_codes()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not exists (select 1 from public.lists l
                  where l.waitlist and l.id in (select n.list_id from new_rows n)) then
    return null;
  end if;
  update public.subscribers s set referral_code = private.new_referral_code()
    from (select distinct n.subscriber_id
            from new_rows n
            join public.lists l on l.id = n.list_id
           where l.waitlist and n.status in ('pending', 'confirmed')) w
   where s.id = w.subscriber_id and s.referral_code is null;
  return null;
end;
$$;

create trigger subscriptions_give_referral_codes_insert
  after insert on public.subscriptions
  referencing new table as new_rows
  for each statement execute function private.give_waitlist_referral_codes();
create trigger subscriptions_give_referral_codes_update
  after update on public.subscriptions
  referencing new table as new_rows
  for each statement execute function private.give_waitlist_referral_codes();
