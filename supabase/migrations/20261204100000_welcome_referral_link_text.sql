-- The welcome's default text shows a waitlist reader's referral link itself, not only behind a
-- "Your referral link" button: readers copy it from the email to share it (lib/email-render/
-- system-emails.ts holds the same default; tests/automations/welcome.integration.test.ts compares).
-- The default body moves into a function of its own, so a later change replaces only that, and
-- welcome automations whose email is still the old default, word for word, get the new one; one the
-- team edited (or seeded from a customised welcome template) is left as it is.

create function private.welcome_default_body()
returns text
language sql
immutable
set search_path = ''
as $$
  select E'# Welcome to {{ site.name }}\n\n'
      || E'You are now subscribed to {{ lists }} from {{ site.name }}. Thank you!\n\n'
      || E'{% if waitlist.position %}\n\n'
      || E'You are number {{ waitlist.position }} on the {{ waitlist.list }}. Every friend who signs up through your link and confirms moves you up. Your link to share: [{{ waitlist.referral_url }}]({{ waitlist.referral_url }})\n\n'
      || E'Your place changes as people join and refer friends.\n\n'
      || E'[See your place live]({{ waitlist.place_url }})\n\n'
      || E'{% endif %}\n'
$$;
revoke execute on function private.welcome_default_body() from public;

create or replace function private.seed_welcome_automations(p_lists uuid[])
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  l record;
  t record;
  new_id uuid;
  made integer := 0;
begin
  select coalesce(c.subject, 'Welcome to {{ site.name }}') as subject,
         coalesce(c.preheader, 'You are now subscribed to {{ lists }}.') as preheader,
         coalesce(c.body_md, private.welcome_default_body()) as body_md
    into t
    from (select 1) one
    left join public.email_templates c on c.kind = 'welcome';
  for l in
    insert into private.welcome_seeds (list_id)
    select x.id from public.lists x
     where x.id = any(p_lists) and x.visibility = 'public'
     order by x.created_at, x.id
    on conflict (list_id) do nothing
    returning list_id
  loop
    insert into public.automations (name, status, trigger_kind, trigger_list_id,
                                    trigger_signups_only, welcome, created_by)
    select left('Welcome to ' || x.name, 100), 'draft', 'list', x.id, true, true, null
      from public.lists x where x.id = l.list_id
    returning id into new_id;
    insert into public.automation_steps (automation_id, position, kind, subject, preheader, body_md)
    values (new_id, 1, 'email', left(private.welcome_automation_text(t.subject), 200),
            left(private.welcome_automation_text(t.preheader), 200),
            private.welcome_automation_text(t.body_md));
    update public.automations set status = 'active' where id = new_id;
    made := made + 1;
  end loop;
  return made;
end;
$$;
revoke execute on function private.seed_welcome_automations(uuid[]) from public;

update public.automation_steps s
   set body_md = private.welcome_automation_text(private.welcome_default_body())
  from public.automations a
 where a.id = s.automation_id
   and a.welcome
   and s.kind = 'email'
   and s.body_md = private.welcome_automation_text(E'# Welcome to {{ site.name }}\n\n'
           || E'You are now subscribed to {{ lists }} from {{ site.name }}. Thank you!\n\n'
           || E'{% if waitlist.position %}\n\n'
           || E'You are number {{ waitlist.position }} on the {{ waitlist.list }}. Share your link: every friend who signs up and confirms moves you up.\n\n'
           || E'[Your referral link]({{ waitlist.referral_url }})\n\n'
           || E'Your place changes as people join and refer friends.\n\n'
           || E'[See your place live]({{ waitlist.place_url }})\n\n'
           || E'{% endif %}\n');
