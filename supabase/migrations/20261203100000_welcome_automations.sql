-- The welcome becomes an automation (issue 24): every public list gets, once, a one-step automation
-- "Welcome to <list>" that sends the welcome email when someone joins the list, in the team's
-- wording from Settings → Emails when they had changed it, else the default, converted to the
-- automation email's merge tags ({{ lists }} and {{ waitlist.list }} become {{ list.name }}). A
-- list made public later gets one too, once: private.welcome_seeds records that a list was seeded,
-- so deleting the automation is final. Lists that are not public get none.
--
-- Who is welcomed stays who was before: readers who joined through the signup form or its API (at
-- once on a single opt-in list, on clicking the confirm link on a double opt-in one), not imports,
-- team adds, bulk adds or a Let in. That is an automation option, trigger_signups_only ("only new
-- sign-ups from the form"), on for the seeded welcome and off by default. A Let in with "also send
-- the list's welcome" enrols the people it subscribed in the target list's sign-ups-only
-- automations itself. The confirm function no longer mails a welcome: the automation does, and a
-- sign-up that enrols someone starts a process-queue run at once (pg_net) so it goes out promptly.

alter table public.automations
  add column trigger_signups_only boolean not null default false,
  add column welcome boolean not null default false;
comment on column public.automations.trigger_signups_only is 'A list trigger enrols only readers who joined through the signup form or API (at confirmation on double opt-in), not imports, team or bulk adds, nor a Let in (unless it asks for the welcome).';
comment on column public.automations.welcome is 'Seeded as the list''s welcome (issue 24): shown as the welcome in the admin and linked from Settings → Emails.';
grant update (trigger_signups_only) on public.automations to authenticated;

-- Lists that have had their welcome seeded (kept when the automation is deleted: never seeded again).
create table private.welcome_seeds (
  list_id uuid primary key references public.lists (id) on delete cascade,
  seeded_at timestamptz not null default now()
);
comment on table private.welcome_seeds is 'Lists whose welcome automation was seeded once; a deleted welcome is not seeded again.';
alter table private.welcome_seeds enable row level security;
revoke all on private.welcome_seeds from public, anon, authenticated;
grant all on private.welcome_seeds to service_role;

-- A welcome template in the automation email's merge tags: the system welcome's {{ lists }} (the
-- lists just confirmed) and {{ waitlist.list }} are the automation's trigger list, {{ list.name }}.
-- lib/email-render/system-emails.ts (welcomeAutomationTemplate) does the same, and tests compare.
create function private.welcome_automation_text(p_text text)
returns text
language sql
immutable
set search_path = ''
as $$
  select regexp_replace(p_text, '\{\{(-?)\s*(lists|waitlist\.list)\s*(-?)\}\}', '{{\1 list.name \3}}', 'g')
$$;

-- Seeds the welcome automation of each of these lists that is public and was never seeded; answers
-- how many were made. Active at once, with one email step.
create function private.seed_welcome_automations(p_lists uuid[])
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
         coalesce(c.body_md, E'# Welcome to {{ site.name }}\n\n'
           || E'You are now subscribed to {{ lists }} from {{ site.name }}. Thank you!\n\n'
           || E'{% if waitlist.position %}\n\n'
           || E'You are number {{ waitlist.position }} on the {{ waitlist.list }}. Share your link: every friend who signs up and confirms moves you up.\n\n'
           || E'[Your referral link]({{ waitlist.referral_url }})\n\n'
           || E'Your place changes as people join and refer friends.\n\n'
           || E'[See your place live]({{ waitlist.place_url }})\n\n'
           || E'{% endif %}\n') as body_md
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
revoke execute on function private.seed_welcome_automations(uuid[]), private.welcome_automation_text(text) from public;

create function private.seed_welcome_on_lists()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  ids uuid[];
begin
  if tg_op = 'INSERT' then
    select array_agg(n.id) into ids from new_rows n where n.visibility = 'public';
  else
    select array_agg(n.id) into ids
      from new_rows n join old_rows o on o.id = n.id
     where n.visibility = 'public' and o.visibility <> 'public';
  end if;
  if ids is not null then
    perform private.seed_welcome_automations(ids);
  end if;
  return null;
end;
$$;
revoke execute on function private.seed_welcome_on_lists() from public;
create trigger lists_seed_welcome_insert after insert on public.lists
  referencing new table as new_rows
  for each statement execute function private.seed_welcome_on_lists();
create trigger lists_seed_welcome_update after update on public.lists
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.seed_welcome_on_lists();

-- Every public list now.
select private.seed_welcome_automations(array_agg(id)) from public.lists where visibility = 'public';

-- Did this statement's change come from a reader signing up (the form or its API, or the confirm
-- link), as opposed to an import, the team, a bulk action, a Let in or the service key?
create function private.is_signup()
returns boolean
language sql
stable
set search_path = ''
as $$
  select private.event_source() in ('form', 'confirm-link')
$$;
revoke execute on function private.is_signup() from public;

-- The enrolment trigger of 20261202200000, with sign-ups-only automations enrolling sign-ups only,
-- and a process-queue run started when a sign-up was enrolled (the welcome goes out at once).
create or replace function private.enrol_on_subscriptions()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  a_ids uuid[];
  s_ids uuid[];
  signup boolean;
begin
  if tg_op in ('INSERT', 'UPDATE') and exists (
      select 1 from public.automations where status = 'active' and trigger_kind = 'list') then
    signup := private.is_signup();
    if tg_op = 'INSERT' then
      select array_agg(a.id), array_agg(n.subscriber_id) into a_ids, s_ids
        from new_rows n
        join public.automations a on a.trigger_list_id = n.list_id and a.status = 'active' and a.trigger_kind = 'list'
                                 and (signup or not a.trigger_signups_only)
       where n.status = 'confirmed';
    else
      -- Confirmed now and not before (no old row, or one in another status).
      select array_agg(a.id), array_agg(n.subscriber_id) into a_ids, s_ids
        from (select c.subscriber_id, c.list_id from new_rows c where c.status = 'confirmed'
              except
              select o.subscriber_id, o.list_id from old_rows o where o.status = 'confirmed') n
        join public.automations a on a.trigger_list_id = n.list_id and a.status = 'active' and a.trigger_kind = 'list'
                                 and (signup or not a.trigger_signups_only);
    end if;
    if a_ids is not null and private.enrol(a_ids, s_ids) > 0 and signup then
      perform private.kick_process_queue();
    end if;
  end if;
  -- Leaving a list (unsubscribed or removed) may end enrolments at once, so reports are current.
  if tg_op in ('UPDATE', 'DELETE') and exists (select 1 from public.automation_enrolments where state = 'active') then
    if tg_op = 'UPDATE' then
      select array_agg(distinct n.subscriber_id) into s_ids from new_rows n where n.status <> 'confirmed';
    else
      select array_agg(distinct o.subscriber_id) into s_ids from old_rows o;
    end if;
    if s_ids is not null then
      perform private.exit_enrolments(null, s_ids);
    end if;
  end if;
  return null;
end;
$$;

-- Waitlist merge tags in an automation email (process-queue, per claimed batch): each reader's
-- place and referral code on the automation's trigger list, when that list is a waitlist. No rows
-- otherwise. standing is private.waitlist_standing's {position, total, referrals}.
create function public.automation_waitlist_standings(p_list uuid, p_subscribers uuid[])
returns table (subscriber_id uuid, list_slug text, referral_code text, standing jsonb)
language sql
stable
security definer
set search_path = ''
as $$
  select s.id, l.slug, s.referral_code, private.waitlist_standing(l.id, s.id)
    from public.lists l
    cross join public.subscribers s
   where l.id = p_list and l.waitlist and s.id = any(p_subscribers);
$$;
comment on function public.automation_waitlist_standings(uuid, uuid[]) is
  'Waitlist merge tags of an automation batch: each reader''s standing on the trigger list when it is a waitlist. Service role only (process-queue).';
revoke execute on function public.automation_waitlist_standings(uuid, uuid[]) from public, anon, authenticated;
grant execute on function public.automation_waitlist_standings(uuid, uuid[]) to service_role;
