// Merge tags end to end (issue 21): each reader gets their own greeting, a syntax error blocks a
// test, a send and a schedule with template_error naming the line, the archive holds nobody's
// values, and the editor's preview is the test message's HTML part byte for byte but for the links.
import { randomUUID } from 'node:crypto';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { previewCampaign } from '../../lib/admin/campaign-editor-preview';
import {
  callFunction,
  clientFor,
  createSubscriber,
  signTestToken,
  sql,
  TEST_SITE_URL,
  waitForMail,
} from '../functions/kit';
import {
  campaignRow,
  deliveryCounts,
  drainCampaign,
  listWithSubscribers,
  member,
  newCampaign,
  sendCampaign,
  startCampaignEmulator,
  type Member,
} from './kit';

let emu: RunningEmulator;
let admin: Member;

beforeAll(async () => {
  emu = await startCampaignEmulator({ POSTBOX_SEND_RATE: 'unlimited' });
  admin = await member(emu, 'admin');
});
afterAll(async () => {
  await emu?.stop();
});

/** The HTML and text parts of a caught message, decoded from its raw source (not MailDev's JSON). */
async function rawParts(mailId: string): Promise<{ html: string; text: string }> {
  const source = await (await fetch(`${emu.mail!.url}/api/email/${mailId}/source`)).text();
  const parsed = await simpleParser(source);
  return { html: String(parsed.html), text: String(parsed.text) };
}

const GREETING =
  'Hi {{ subscriber.first_name | default: "friend" }},\n\nNews for {{ subscriber.email }}.';

describe('merge tags', () => {
  it('gives each reader their own greeting, and the archive nobody’s', async () => {
    const slug = await listWithSubscribers(emu, 'greet', 0);
    const named = await createSubscriber(emu, { [slug]: 'confirmed' }, { name: 'Grace Hopper' });
    const [unnamed] = await sql<{ id: string; email: string }>(
      emu,
      `insert into public.subscribers (email) values ('nameless-' || gen_random_uuid() || '@example.com')
       returning id, email`,
    );
    await sql(
      emu,
      `insert into public.subscriptions (subscriber_id, list_id, status)
       select $1, id, 'confirmed' from public.lists where slug = $2`,
      [unnamed!.id, slug],
    );
    const id = await newCampaign(emu, [slug], {
      subject: 'Hello {{ subscriber.first_name | default: "you" }}',
      body_md: GREETING,
    });
    await sql(emu, `update public.campaigns set archive = true, slug = $2 where id = $1`, [
      id,
      `greet-${id.slice(0, 8)}`,
    ]);
    expect((await sendCampaign(emu, admin, { campaign_id: id, action: 'send' })).status).toBe(200);
    await drainCampaign(emu, id);

    const [toNamed] = await waitForMail(emu, named.email);
    const [toUnnamed] = await waitForMail(emu, unnamed!.email);
    expect(toNamed!.subject).toBe('Hello Grace');
    expect(toUnnamed!.subject).toBe('Hello you');
    const a = await rawParts(toNamed!.id);
    const b = await rawParts(toUnnamed!.id);
    expect(a.text).toContain(`Hi Grace,\n\nNews for ${named.email}.`);
    expect(a.html).toContain(
      `<p style="margin: 0 0 16px;">Hi Grace,</p>\n<p style="margin: 0 0 16px;">News for ${named.email}.</p>`,
    );
    expect(b.text).toContain(`Hi friend,\n\nNews for ${unnamed!.email}.`);
    expect(b.html).toContain('<p style="margin: 0 0 16px;">Hi friend,</p>');
    expect(a.html).not.toContain(unnamed!.email);
    expect(b.html).not.toContain('Grace');

    // The archive, read as anyone reads it: defaults, no reader's name or address.
    const { data, error } = await clientFor(emu, 'publishable')
      .rpc('archive_issue', { p_slug: `greet-${id.slice(0, 8)}` })
      .single<{ body_html: string }>();
    expect(error).toBeNull();
    expect(data!.body_html).toBe('<p>Hi friend,</p>\n<p>News for .</p>');

    // "View in browser": the same link in both emails, answering nobody's copy as JSON.
    const webLink = (html: string) => /href="([^"]*\/web\/\?token=[^"]+)"/.exec(html)?.[1];
    expect(webLink(a.html)).toBeDefined();
    expect(webLink(a.html)).toBe(webLink(b.html));
    const token = new URL(webLink(a.html)!.replace(/&amp;/g, '&')).searchParams.get('token')!;
    const web = await callFunction(emu, 'web-version', { method: 'GET', query: { token } });
    expect(web.status).toBe(200);
    expect(web.headers.get('content-type')).toMatch(/^application\/json/);
    expect(web.body.subject).toBe('Hello you');
    expect(web.body.html).toContain(
      '<p style="margin: 0 0 16px;">Hi friend,</p>\n<p style="margin: 0 0 16px;">News for .</p>',
    );
    expect(web.body.html).not.toMatch(/Grace|nameless-|unsubscribe\/\?token/);
    expect(web.body.text).toContain('Hi friend,');
  });

  it("answers a web version only for a signed, started campaign's token", async () => {
    const draft = await newCampaign(emu, [await listWithSubscribers(emu, 'web', 1)]);
    const draftToken = signTestToken({ p: 'web', s: '', c: draft });
    const notOut = await callFunction(emu, 'web-version', {
      method: 'GET',
      query: { token: draftToken },
    });
    expect([notOut.status, notOut.body.error.code]).toEqual([404, 'not_found']);
    const forged = signTestToken({ p: 'web', s: '', c: draft }, 'another-secret');
    const refused = await callFunction(emu, 'web-version', {
      method: 'GET',
      query: { token: forged },
    });
    expect([refused.status, refused.body.error.code]).toEqual([400, 'token_invalid']);
    // A token for another purpose (a reader's preferences) is no web version token.
    const other = signTestToken({ p: 'preferences', s: draft });
    const wrong = await callFunction(emu, 'web-version', {
      method: 'GET',
      query: { token: other },
    });
    expect(wrong.status).toBe(400);
  });

  it('blocks a test, a send and a schedule with template_error naming the line', async () => {
    const slug = await listWithSubscribers(emu, 'broken', 2);
    const id = await newCampaign(emu, [slug], {
      body_md: 'Hello\n\nThere {{ subscriber.name | nosuchfilter }}\n',
    });
    const before = (await fetch(`${emu.mail!.url}/api/email`).then((r) => r.json())).length;
    for (const body of [
      { campaign_id: id, action: 'test' },
      { campaign_id: id, action: 'send' },
      { campaign_id: id, action: 'schedule', at: new Date(Date.now() + 3_600_000).toISOString() },
    ]) {
      const res = await sendCampaign(emu, admin, body);
      expect([body.action, res.status, res.body.error]).toEqual([
        body.action,
        422,
        {
          code: 'template_error',
          message: 'Body, line 3: undefined filter: nosuchfilter',
          field: 'body_md',
        },
      ]);
    }
    const subject = await newCampaign(emu, [slug], { subject: 'Hi {% if x %}' });
    const res = await sendCampaign(emu, admin, { campaign_id: subject, action: 'send' });
    expect(res.body.error).toMatchObject({ code: 'template_error', field: 'subject' });
    expect(res.body.error.message).toMatch(/^Subject, line 1: /);
    expect((await campaignRow(emu, id)).status).toBe('draft');
    expect(await deliveryCounts(emu, id)).toEqual({});
    expect((await fetch(`${emu.mail!.url}/api/email`).then((r) => r.json())).length).toBe(before);
  });

  it('blocks a send whose loop runs past the limits', async () => {
    const slug = await listWithSubscribers(emu, 'loop', 1);
    const id = await newCampaign(emu, [slug], {
      body_md: 'a\n\n{% for i in (1..100000000) %}x{% endfor %}',
    });
    const res = await sendCampaign(emu, admin, { campaign_id: id, action: 'send' });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('template_error');
    expect(res.body.error.message).toMatch(/^Body, line 3: .*limit exceeded/);
  });
});

describe('waitlist merge tags', () => {
  it('gives each reader of a waitlist list their own place and referral link', async () => {
    const slug = `wl-${randomUUID().slice(0, 6)}`;
    await sql(
      emu,
      `insert into public.lists (slug, name, optin, waitlist) values ($1, $1, 'single', true)`,
      [slug],
    );
    const first = await createSubscriber(emu, { [slug]: 'confirmed' }, { name: 'First' });
    const second = await createSubscriber(emu, { [slug]: 'confirmed' }, { name: 'Second' });
    const id = await newCampaign(emu, [slug], {
      body_md:
        'You are number {{ waitlist.position }} of {{ waitlist.total }}: {{ waitlist.referral_url }}',
    });
    expect((await sendCampaign(emu, admin, { campaign_id: id, action: 'send' })).status).toBe(200);
    await drainCampaign(emu, id);
    const codes = await sql<{ id: string; referral_code: string }>(
      emu,
      `select id, referral_code from public.subscribers where id = any($1::uuid[])`,
      [[first.id, second.id]],
    );
    const code = (who: { id: string }) => codes.find((c) => c.id === who.id)!.referral_code;
    for (const [who, place] of [
      [first, 1],
      [second, 2],
    ] as const) {
      const [mail] = await waitForMail(emu, who.email);
      const { text } = await rawParts(mail!.id);
      expect(text).toContain(
        `You are number ${place} of 2: ${TEST_SITE_URL}/?ref=${code(who)}&list=${slug}`,
      );
    }
  });
});

describe('one renderer', () => {
  it("sends in a test exactly the editor preview's HTML and text, but for the links' tokens", async () => {
    const slug = await listWithSubscribers(emu, 'preview', 1);
    const source = {
      subject: 'Notes for {{ subscriber.first_name }}',
      preheader: 'Inside: {{ site.name }}',
      body_md: [
        '# Hi {{ subscriber.name | default: "there" }}',
        '',
        'You work at **{{ subscriber.attributes.company }}**; [read online]({{ web_url }}).',
        '',
        '| a | b |\n|---|---|\n| {{ campaign.subject }} | 2 |',
        '',
        '> quoted <img src="https://example.com/x.png" alt="x">',
      ].join('\n'),
    };
    const id = await newCampaign(emu, [slug], source);
    const res = await sendCampaign(emu, admin, { campaign_id: id, action: 'test' });
    expect(res.status).toBe(200);
    const [mail] = await waitForMail(emu, admin.email);
    const sent = await rawParts(mail!.id);

    const [settings] = await sql<{ site_name: string; postal_address: string }>(
      emu,
      `select site_name, postal_address from public.settings`,
    );
    const preview = previewCampaign(
      {
        subject: source.subject,
        preheader: source.preheader,
        bodyMd: source.body_md,
        fromName: '',
      },
      { settings: settings!, siteUrl: TEST_SITE_URL, email: admin.email },
    );
    if (!preview.ok) throw new Error(preview.error);
    // Listed differences: the query of the footer's links (tokens signed per reader, "preview" in
    // the editor) and the line breaks (a message's lines end in CRLF).
    const normalize = (text: string) =>
      text
        .replace(/(\/(?:unsubscribe|preferences|web)\/)\?[^"\s]*/g, '$1?…')
        .replace(/\r\n/g, '\n');
    expect(normalize(sent.html)).toBe(normalize(preview.html));
    expect(normalize(sent.text)).toBe(normalize(preview.text));
    expect(mail!.subject).toBe(`[Test] ${preview.subject}`);
    expect(preview.subject).toBe('Notes for Ada');
    expect(sent.html).toContain('Analytical Engines Ltd');
    expect(sent.html).toMatch(/View in browser/);
  });
});
