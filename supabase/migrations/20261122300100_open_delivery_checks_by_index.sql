-- "Anything left to send?" reads the open-deliveries index, whatever the statistics say (issue 5).
-- finish_campaign_if_done runs after every group of results. With the statistics taken while most
-- of a campaign was still queued, the planner answers it with a sequential scan that expects to
-- meet an open row at once; late in a large send the open rows are the last ones in the table, so
-- each check read nearly all of a 100,000-row campaign. Same rules as 20261122260100; the function
-- only forbids the sequential scan for its own statements.
create or replace function private.finish_campaign_if_done(p_campaign_id uuid)
returns boolean
language plpgsql
set search_path = ''
set enable_seqscan = off
as $$
begin
  perform 1 from public.campaigns where id = p_campaign_id and status = 'sending' for no key update;
  if not found then
    return false;
  end if;
  if exists (select 1 from public.deliveries
              where campaign_id = p_campaign_id and status in ('queued', 'sending')) then
    return false;
  end if;
  update public.campaigns set status = 'sent' where id = p_campaign_id and status = 'sending';
  return found;
end;
$$;

-- finish_idle_campaigns (20261122210000) asks the same question for every sending campaign.
create or replace function public.finish_idle_campaigns()
returns integer
language plpgsql
set search_path = ''
set enable_seqscan = off
as $$
declare
  c uuid;
  finished integer := 0;
begin
  for c in
    select id from public.campaigns cc where cc.status = 'sending'
       and not exists (select 1 from public.deliveries d
                        where d.campaign_id = cc.id and d.status in ('queued', 'sending'))
  loop
    if private.finish_campaign_if_done(c) then
      finished := finished + 1;
    end if;
  end loop;
  return finished;
end;
$$;
