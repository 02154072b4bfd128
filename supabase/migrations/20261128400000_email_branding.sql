-- The emails' branding (issue 21): the owner's accent colour, checked to stay readable (white text
-- on it and it as link text on white), and the logo and colour in what mail functions read.

-- WCAG 2 contrast ratio of a `#rrggbb` colour against white. Immutable so a check can use it.
create function private.contrast_with_white(hex text)
returns numeric
language sql
immutable
strict
set search_path = ''
as $$
  with channel as (
    select (('x' || substr(hex, i, 2))::bit(8)::int / 255.0) as c, i
    from unnest(array[2, 4, 6]) as i
  ), linear as (
    select i, case when c <= 0.03928 then c / 12.92 else power((c + 0.055) / 1.055, 2.4) end as l
    from channel
  )
  select 1.05 / (sum(case i when 2 then 0.2126 when 4 then 0.7152 else 0.0722 end * l) + 0.05)
  from linear
$$;
comment on function private.contrast_with_white(text) is 'WCAG contrast ratio of #rrggbb against #ffffff (1 to 21).';

alter table public.settings
  add column accent_color text not null default '#1f4fd1'
    constraint settings_accent_color_check check (
      accent_color ~ '^#[0-9a-f]{6}$' and private.contrast_with_white(accent_color) >= 4.5);
comment on column public.settings.accent_color is 'Emails'' accent (header rule, buttons, links): lower-case #rrggbb with at least 4.5:1 contrast against white.';

grant update (accent_color) on public.settings to authenticated;

-- What outgoing mail needs from settings, now with the logo and the accent colour.
create or replace function private.mail_settings()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object('site_name', s.site_name, 'sender_name', s.sender_name,
    'sender_email', s.sender_email, 'reply_to', s.reply_to, 'postal_address', s.postal_address,
    'logo_path', s.logo_path, 'accent_color', s.accent_color)
  from public.settings s where s.id
$$;
