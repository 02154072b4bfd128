-- Local sample data, applied once on a fresh database (never on hosted projects): a site identity,
-- three public lists and a private one, a handful of subscribers in every state, campaign
-- templates and one published sample issue.
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

-- Campaign templates: starting points offered by New campaign (issue 23). Each uses merge tags
-- with defaults, so a reader without a name still reads a sensible greeting.
insert into public.campaign_templates (name, description, subject, preheader, body_md) values
  ('Plain newsletter',
   'A regular issue: a short hello, a few stories and a sign-off.',
   '{{ site.name }}: this month''s issue',
   'Three things worth your time, in five minutes.',
   $md$Hi {{ subscriber.first_name | default: "friend" }},

Here is what happened at {{ site.name }} since the last issue.

## The main story

Start with the one thing you most want readers to know. Two or three short paragraphs are plenty: say what changed, why it matters to them, and what they can do next.

## Also worth a look

- **A useful link.** One sentence on why it is worth opening.
- **Something you learned.** A tip, a number or a quote from a reader.
- **What is coming.** A date, an event or a release to look forward to.

## One question for you

What would you like to read about next time? Just reply to this email: every answer is read.

Thanks for reading,\
The {{ site.name }} team
$md$),
  ('Product update',
   'Announce a release: what is new, what it means for the reader, and where to try it.',
   'What''s new in {{ site.name }}',
   'What changed, why it matters, and how to try it today.',
   $md$Hi {{ subscriber.first_name | default: "there" }},

We just shipped something we have been working on for a while, and we think you will like it.

## What is new

Describe the change in one or two sentences, from the reader's point of view: what can they do now that they could not do before?

## Why we built it

Many of you asked for this. Tell the short story of the problem, and how this solves it.

## How to try it

1. Open {{ site.name }} and sign in.
2. Find the new feature where it lives.
3. Tell us what you think: reply to this email.

## Also fixed

- A smaller improvement people will notice.
- A bug fix, in plain words.

Thank you for building this with us,\
The {{ site.name }} team
$md$),
  ('Welcome digest',
   'A warm first email for new subscribers: what to expect, and the best of the archive.',
   'Welcome to {{ site.name }}, {{ subscriber.first_name | default: "friend" }}',
   'What to expect from us, and a few favourites to start with.',
   $md$Hi {{ subscriber.first_name | default: "friend" }},

Welcome to {{ site.name }}, and thank you for subscribing. Here is what to expect, and a few of our favourite pieces to start with.

## What you will get

- **One email a month**, never more, with what we built and what we learned.
- **You are in control:** change what you receive at any time from the [preferences page]({{ preferences_url }}).

## Start here

1. **Our most-read issue.** A sentence on what it covers and why people liked it.
2. **The story behind {{ site.name }}.** Why we started, in five minutes.
3. **A practical guide.** Something the reader can use today.

## Say hello

Hit reply and tell us what brought you here. We read every message.

See you in the next issue,\
The {{ site.name }} team
$md$);

-- A published sample issue, so a fresh local site has an archive to show: /archive/, the home
-- page's latest issues, the feeds and a pre-rendered /archive/welcome/ (Lighthouse and the e2e
-- specs read it); its sections are level-1 headings, which the page shows as h2 under the
-- subject's h1. It was "sent" to nobody: no lists, no deliveries. body_html is what the send
-- renders for body_md (lib/campaign-preview.ts; lib/archive.integration.test.ts checks).
insert into public.campaigns (name, subject, preheader, body_md, body_html, archive, slug) values
  ('Welcome to The Postbox Letter', 'Welcome to The Postbox Letter',
   'A sample issue: what the archive shows, and how to send your own.',
   $md$Welcome! This is a sample issue from the local seed (`supabase/seed.sql`), so the archive, the home page's latest issues, the feeds and a pre-rendered issue page have something to show before you send your first campaign.

# What an issue looks like

Every campaign you send with **Show in the public archive** ticked appears here, at its own address, with its own title and link preview. Readers who find it can subscribe at the bottom of the page.

- Write in Markdown, with images from the media library.
- Merge tags show their defaults here, never a reader's values.
- The RSS and Atom feeds list every published issue.

# Try it

Open the admin, write a campaign and send it to yourself. The mail catcher shows the email, and the archive shows the issue once it is sent.

Thanks for reading,\
The Postbox Letter
$md$,
   $html$<p>Welcome! This is a sample issue from the local seed (<code>supabase/seed.sql</code>), so the archive, the home page's latest issues, the feeds and a pre-rendered issue page have something to show before you send your first campaign.</p>
<h1>What an issue looks like</h1>
<p>Every campaign you send with <strong>Show in the public archive</strong> ticked appears here, at its own address, with its own title and link preview. Readers who find it can subscribe at the bottom of the page.</p>
<ul>
<li>Write in Markdown, with images from the media library.</li>
<li>Merge tags show their defaults here, never a reader's values.</li>
<li>The RSS and Atom feeds list every published issue.</li>
</ul>
<h1>Try it</h1>
<p>Open the admin, write a campaign and send it to yourself. The mail catcher shows the email, and the archive shows the issue once it is sent.</p>
<p>Thanks for reading,<br />The Postbox Letter</p>$html$,
   true, 'welcome');
update public.campaigns set status = 'sending' where slug = 'welcome';
update public.campaigns set status = 'sent' where slug = 'welcome';
-- A fixed date (the send stamps now()), so every fresh database, the build's and the browser's,
-- shows the same issue.
update public.campaigns set finished_at = '2026-11-20 09:00:00+00' where slug = 'welcome';
