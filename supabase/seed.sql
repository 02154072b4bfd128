-- Local sample data, applied once on a fresh database (never on hosted projects): a site identity,
-- three public lists and a private one, and a handful of subscribers in every state.
update public.settings set
  site_name = 'The Postbox Letter',
  tagline = 'Short, useful letters about building for the web. One email a fortnight, no noise.',
  sender_name = 'The Postbox Letter',
  sender_email = 'hello@example.com',
  reply_to = 'hello@example.com',
  postal_address = 'Postbox, 1 Example Street, 10115 Berlin, Germany',
  show_subscriber_count = true;

insert into public.lists (slug, name, description, visibility, optin, waitlist) values
  ('newsletter', 'The newsletter', 'The fortnightly letter.', 'public', 'double', false),
  ('product-updates', 'Product updates', 'A short note when something ships.', 'public', 'single', false),
  ('early-access', 'Early access waitlist', 'Be first in line; move up by sharing your link.', 'public', 'double', true),
  ('beta-testers', 'Beta testers', 'Hand-picked testers. Not on the signup form.', 'private', 'single', false);

insert into public.subscribers (email, name, attributes, status) values
  ('ada@example.com', 'Ada Lovelace', '{"city": "London"}', 'enabled'),
  ('grace@example.com', 'Grace Hopper', '{"city": "Arlington"}', 'enabled'),
  ('alan@example.com', 'Alan Turing', '{}', 'enabled'),
  ('katherine@example.com', 'Katherine Johnson', '{}', 'enabled'),
  ('linus@example.com', '', '{}', 'enabled'),
  ('spam@example.com', '', '{}', 'enabled');

-- Set as a source so the seeded history reads sensibly in the admin.
select set_config('postbox.source', 'seed', true);

insert into public.subscriptions (subscriber_id, list_id, status)
select s.id, l.id, v.status
from (values
  ('ada@example.com', 'newsletter', 'confirmed'),
  ('ada@example.com', 'early-access', 'confirmed'),
  ('grace@example.com', 'newsletter', 'confirmed'),
  ('grace@example.com', 'product-updates', 'confirmed'),
  ('alan@example.com', 'newsletter', 'pending'),
  ('alan@example.com', 'early-access', 'confirmed'),
  ('katherine@example.com', 'beta-testers', 'confirmed'),
  ('linus@example.com', 'newsletter', 'confirmed'),
  ('spam@example.com', 'newsletter', 'confirmed')
) as v (email, list, status)
join public.subscribers s on s.email = v.email
join public.lists l on l.slug = v.list;

update public.subscriptions set status = 'unsubscribed'
where subscriber_id = (select id from public.subscribers where email = 'linus@example.com');
update public.subscribers set status = 'blocklisted' where email = 'spam@example.com';
update public.subscribers set referred_by = (select id from public.subscribers where email = 'ada@example.com')
where email = 'alan@example.com';
