-- Automations (issue 24): a trigger, ordered steps and exit rules; each subscriber's progress is one
-- automation_enrolments row, and each email an automation sends is one automation_sends row. Also
-- the database's clock for the engine (postbox_now), which tests move forward instead of sleeping.
-- Members read everything here; editors write drafts and paused automations; admins and owners all.

-- The engine's "now": the real clock plus an offset only the service role can move (tests move it
-- forward to pass a wait step). Claims keep using the real clock: they time worker crashes.
create table private.clock (
  id boolean primary key default true check (id),
  offset_by interval not null default interval '0'
);
insert into private.clock default values;
alter table private.clock enable row level security;

create function public.postbox_now()
returns timestamptz
language sql
stable
security definer
set search_path = ''
as $$
  select now() + coalesce((select offset_by from private.clock), interval '0')
$$;
comment on function public.postbox_now() is 'The automation engine''s clock: now() plus the offset move_clock set (0 outside tests).';

create function public.move_clock(p_by interval)
returns timestamptz
language plpgsql
security definer
set search_path = ''
as $$
begin
  if p_by is null or p_by < interval '0' then
    raise exception 'postbox:invalid_input: by: must be a positive interval' using errcode = 'P0001';
  end if;
  update private.clock set offset_by = offset_by + p_by;
  return public.postbox_now();
end;
$$;
comment on function public.move_clock(interval) is 'Moves postbox_now() forward (tests); service role only.';
revoke execute on function public.move_clock(interval) from public, anon, authenticated;
grant execute on function public.move_clock(interval) to service_role;
revoke execute on function public.postbox_now() from public, anon, authenticated;
grant execute on function public.postbox_now() to service_role;

create table public.automations (
  id uuid primary key default gen_random_uuid(),
  name text not null check (char_length(btrim(name)) between 1 and 100),
  status text not null default 'draft' check (status in ('draft', 'active', 'paused')),
  trigger_kind text not null default 'list' check (trigger_kind in ('list', 'tag', 'manual')),
  trigger_list_id uuid references public.lists (id) on delete set null,
  trigger_tag_id uuid references public.tags (id) on delete set null,
  -- Exit rules: a blocklisted subscriber, or one with no confirmed subscription left, always exits.
  exit_on_list_unsubscribe boolean not null default true,
  goal_rules jsonb check (goal_rules is null or jsonb_typeof(goal_rules) = 'object'),
  re_entry boolean not null default false,
  created_by uuid default auth.uid(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.automations is 'Issue 24: enrols on joining a list (at confirmation), a tag added or by hand; draft → active ↔ paused.';
comment on column public.automations.goal_rules is 'A rule set (the subscribers filter format); a subscriber matching it exits before their next step.';

create table public.automation_steps (
  id uuid primary key default gen_random_uuid(),
  automation_id uuid not null references public.automations (id) on delete cascade,
  position integer not null,
  kind text not null check (kind in ('email', 'wait', 'condition', 'tag_add', 'tag_remove',
                                     'list_add', 'list_remove')),
  subject text check (subject is null or char_length(subject) <= 200),
  preheader text not null default '' check (char_length(preheader) <= 200),
  body_md text check (body_md is null or octet_length(body_md) <= 524288),
  wait_seconds integer check (wait_seconds is null or wait_seconds between 60 and 31536000),
  wait_weekday smallint check (wait_weekday is null or wait_weekday between 0 and 6),
  wait_hour smallint check (wait_hour is null or wait_hour between 0 and 23),
  rules jsonb check (rules is null or jsonb_typeof(rules) = 'object'),
  tag_id uuid references public.tags (id) on delete set null,
  list_id uuid references public.lists (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint automation_steps_position_key unique (automation_id, position) deferrable initially deferred,
  constraint automation_steps_email check (kind <> 'email' or (subject is not null and body_md is not null)),
  constraint automation_steps_wait check (kind <> 'wait' or (wait_seconds is not null) <> (wait_weekday is not null and wait_hour is not null)),
  constraint automation_steps_condition check (kind <> 'condition' or rules is not null)
);
comment on table public.automation_steps is 'Steps in position order. A wait of weekday+hour is the next such hour in UTC (0 = Sunday).';

create table public.automation_enrolments (
  automation_id uuid not null references public.automations (id) on delete cascade,
  subscriber_id uuid not null references public.subscribers (id) on delete cascade,
  step_id uuid references public.automation_steps (id) on delete set null,
  state text not null default 'active' check (state in ('active', 'completed', 'exited')),
  due_at timestamptz not null,
  -- Which pass through the automation this is (re-entry starts another): part of a send's key.
  round integer not null default 1,
  exit_reason text,
  -- The claim, as deliveries have it: a process-queue run holds the row while it sends its email.
  attempts integer not null default 0,
  claimed_at timestamptz,
  claim_token uuid,
  last_error text,
  enrolled_at timestamptz not null default now(),
  finished_at timestamptz,
  updated_at timestamptz not null default now(),
  primary key (automation_id, subscriber_id)
);
comment on table public.automation_enrolments is 'One row per subscriber and automation; active → completed | exited. A claim older than the claim timeout returns to the queue.';
create index automation_enrolments_due_idx on public.automation_enrolments (due_at)
  where state = 'active' and claim_token is null;
create index automation_enrolments_claimed_idx on public.automation_enrolments (claimed_at)
  where claim_token is not null;
create index automation_enrolments_step_idx on public.automation_enrolments (step_id);
create index automation_enrolments_subscriber_idx on public.automation_enrolments (subscriber_id);

create table public.automation_sends (
  automation_id uuid not null references public.automations (id) on delete cascade,
  step_id uuid not null references public.automation_steps (id) on delete cascade,
  subscriber_id uuid not null references public.subscribers (id) on delete cascade,
  round integer not null,
  status text not null check (status in ('sent', 'failed', 'bounced')),
  attempts integer not null,
  message_id text,
  last_error text,
  sent_at timestamptz,
  created_at timestamptz not null default now(),
  primary key (step_id, subscriber_id, round)
);
comment on table public.automation_sends is 'One row per email step a subscriber passed (the key makes a second recording impossible).';
create index automation_sends_automation_idx on public.automation_sends (automation_id);
create index automation_sends_subscriber_idx on public.automation_sends (subscriber_id);

-- May the caller change this automation and its steps? Editors: drafts and paused ones; admins: all.
create function private.may_edit_automation(p_automation uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select private.has_role('admin')
      or (private.has_role('editor')
          and exists (select 1 from public.automations a
                       where a.id = p_automation and a.status in ('draft', 'paused')))
$$;
revoke execute on function private.may_edit_automation(uuid) from public;
grant execute on function private.may_edit_automation(uuid) to authenticated;

alter table public.automations enable row level security;
alter table public.automation_steps enable row level security;
alter table public.automation_enrolments enable row level security;
alter table public.automation_sends enable row level security;

create policy "Members see automations" on public.automations
  for select to authenticated using ((select private.has_role('viewer')));
create policy "Editors add draft automations" on public.automations
  for insert to authenticated
  with check ((select private.has_role('admin')) or ((select private.has_role('editor')) and status = 'draft'));
-- An editor may change a draft or paused one but not start it (status stays draft or paused).
create policy "Editors change draft and paused automations" on public.automations
  for update to authenticated
  using ((select private.has_role('admin')) or ((select private.has_role('editor')) and status in ('draft', 'paused')))
  with check ((select private.has_role('admin')) or ((select private.has_role('editor')) and status in ('draft', 'paused')));
create policy "Editors delete draft automations" on public.automations
  for delete to authenticated
  using ((select private.has_role('admin')) or ((select private.has_role('editor')) and status = 'draft'));

create policy "Members see automation steps" on public.automation_steps
  for select to authenticated using ((select private.has_role('viewer')));
create policy "Editors add steps" on public.automation_steps
  for insert to authenticated with check (private.may_edit_automation(automation_id));
create policy "Editors change steps" on public.automation_steps
  for update to authenticated using (private.may_edit_automation(automation_id))
  with check (private.may_edit_automation(automation_id));
create policy "Editors delete steps" on public.automation_steps
  for delete to authenticated using (private.may_edit_automation(automation_id));

create policy "Members see enrolments" on public.automation_enrolments
  for select to authenticated using ((select private.has_role('viewer')));
create policy "Members see automation sends" on public.automation_sends
  for select to authenticated using ((select private.has_role('viewer')));

grant select, insert, delete on public.automations to authenticated;
grant update (name, status, trigger_kind, trigger_list_id, trigger_tag_id, exit_on_list_unsubscribe,
              goal_rules, re_entry) on public.automations to authenticated;
grant select, insert, delete on public.automation_steps to authenticated;
grant update (position, kind, subject, preheader, body_md, wait_seconds, wait_weekday, wait_hour,
              rules, tag_id, list_id) on public.automation_steps to authenticated;
grant select on public.automation_enrolments, public.automation_sends to authenticated;
grant all on public.automations, public.automation_steps, public.automation_enrolments,
  public.automation_sends to service_role;

-- Starting one needs a trigger target and at least one step, every email step with a subject and body
-- (checked by the table), and goal rules the compiler accepts.
create function private.check_automation()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  -- Only when it starts: a list or tag deleted later sets the target null (it then enrols nobody).
  if new.status = 'active' and (tg_op = 'INSERT' or old.status <> 'active') then
    if new.trigger_kind = 'list' and new.trigger_list_id is null then
      raise exception 'postbox:invalid_input: trigger_list_id: choose the list that starts it' using errcode = 'P0001';
    end if;
    if new.trigger_kind = 'tag' and new.trigger_tag_id is null then
      raise exception 'postbox:invalid_input: trigger_tag_id: choose the tag that starts it' using errcode = 'P0001';
    end if;
    if tg_op = 'INSERT' or not exists (select 1 from public.automation_steps s where s.automation_id = new.id) then
      raise exception 'postbox:invalid_input: steps: add at least one step before starting it' using errcode = 'P0001';
    end if;
  end if;
  if new.goal_rules is not null then
    perform private.subscriber_rules_where(new.goal_rules);
  end if;
  return new;
end;
$$;
create trigger automations_check before insert or update on public.automations
  for each row execute function private.check_automation();

create function private.check_automation_step()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  -- Targets are checked when written by hand, not when a deleted tag or list sets them null.
  if tg_op = 'UPDATE' and new.kind = old.kind and new.rules is not distinct from old.rules
     and new.subject is not distinct from old.subject
     and (new.tag_id is null or new.tag_id is not distinct from old.tag_id)
     and (new.list_id is null or new.list_id is not distinct from old.list_id) then
    return new;
  end if;
  if new.kind = 'condition' then
    perform private.subscriber_rules_where(new.rules);
  elsif new.kind in ('tag_add', 'tag_remove') and new.tag_id is null then
    raise exception 'postbox:invalid_input: tag_id: choose a tag' using errcode = 'P0001';
  elsif new.kind in ('list_add', 'list_remove') and new.list_id is null then
    raise exception 'postbox:invalid_input: list_id: choose a list' using errcode = 'P0001';
  elsif new.kind = 'email' and char_length(btrim(coalesce(new.subject, ''))) = 0 then
    raise exception 'postbox:invalid_input: subject: must be 1 to 200 characters' using errcode = 'P0001';
  end if;
  return new;
end;
$$;
create trigger automation_steps_check before insert or update on public.automation_steps
  for each row execute function private.check_automation_step();
