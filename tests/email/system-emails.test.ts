// The subscriber emails' defaults and Auth's emails on the branded layout (issue 21): every default
// template compiles with only its own variables, renders its sample values with escaping, hides
// what does not apply, and passes caniemail's data and the layout rules like a campaign.
import { describe, expect, it } from 'vitest';
import {
  compileSystemEmail,
  DEFAULT_TEMPLATES,
  renderSystemEmail,
  sampleValues,
  SYSTEM_EMAIL_KINDS,
  type SystemValues,
} from '../../lib/email-render/system-emails';
import { siteRenderDeps } from '../../lib/email-render/site';
import { renderAuthMail, type AuthEmail } from '../../supabase/functions/_shared/auth-mail';
import { caniemailProblems, compactStyles, layoutRuleProblems } from './caniemail-rules';

const site = { name: 'Maker News', url: 'https://news.example.com' };
const settings = { site_name: 'Maker News', postal_address: '1 Main St', accent_color: '#0f766e' };
const links = {
  unsubscribe: 'https://news.example.com/unsubscribe/?token=u',
  preferences: 'https://news.example.com/preferences/?token=p',
  web: '',
};

function render(kind: (typeof SYSTEM_EMAIL_KINDS)[number], values: SystemValues) {
  const compiled = compileSystemEmail(siteRenderDeps, kind, DEFAULT_TEMPLATES[kind], settings);
  expect(compiled.unknown).toEqual([]);
  return renderSystemEmail(compiled, {
    subscriber: { email: 'ada@example.com', name: null, attributes: null },
    site,
    links,
    values,
  });
}

describe('default subscriber emails', () => {
  it.each(SYSTEM_EMAIL_KINDS)(
    '%s renders its sample on the branded layout, caniemail-clean',
    (kind) => {
      const email = render(kind, sampleValues(kind, site.url));
      expect(compactStyles(email.html)).toContain('border-top:4px solid #0f766e');
      expect(email.html).toMatch(/<td align="center" bgcolor="#0f766e"/);
      expect(email.html).toContain(`<a href="${links.preferences}"`);
      expect(caniemailProblems(email.html)).toEqual([]);
      expect(layoutRuleProblems(email.html)).toEqual([]);
      expect(email.text).toContain(`Preferences: ${links.preferences}`);
    },
  );

  it('the confirmation carries its link as a button and as text, and why it came', () => {
    const url = 'https://news.example.com/confirm/?token=a.b&x=1';
    const email = render('confirmation', { lists: 'News <b>&</b> Notes', confirm_url: url });
    expect(email.subject).toBe('Confirm your subscription to Maker News');
    expect(email.html).toContain('href="https://news.example.com/confirm/?token=a.b&amp;x=1"');
    expect(email.html).toContain('News &lt;b&gt;&amp;&lt;/b&gt; Notes');
    expect(email.html).toContain('entered in a signup form of Maker News');
    expect(email.text).toContain(`Confirm subscription:\n${url}`);
  });

  it('the welcome names the waitlist place only on a waitlist', () => {
    const plain = render('welcome', { lists: 'The newsletter' });
    expect(plain.text).toContain('You are now subscribed to The newsletter from Maker News.');
    expect(plain.text).not.toContain('You are number');
    expect(plain.text).not.toMatch(/\n{3,}/);
    const waitlist = render('welcome', sampleValues('welcome', site.url));
    expect(waitlist.text).toContain('You are number 42 on the Launch waitlist.');
    expect(waitlist.text).toContain(
      'See your place live:\nhttps://news.example.com/waitlist/?code=SAMPLE',
    );
  });

  it('already subscribed offers the changes only when the form asked for some', () => {
    const none = render('already_subscribed', {
      lists: 'The newsletter',
      changes: [],
    });
    expect(none.preheader).toBe('Manage your preferences any time.');
    expect(none.text).not.toContain('Apply these changes');
    const some = render('already_subscribed', sampleValues('already_subscribed', site.url));
    expect(some.text).toContain(
      'The form also asked to subscribe you to Product Updates, and to change your name to the one entered in the form.',
    );
    expect(some.text).toContain(
      'Apply these changes:\nhttps://news.example.com/confirm/?token=test',
    );
  });
});

describe("Auth's emails", () => {
  const base: AuthEmail = {
    type: 'magiclink',
    to: 'ada@example.com',
    code: '123456',
    link: 'https://project.example.com/auth/v1/verify?token=abc&type=magiclink',
    inviter: null,
    role: null,
    newEmail: null,
  };
  it.each([
    { ...base },
    { ...base, type: 'invite' as const, code: '', inviter: 'owner@example.com', role: 'editor' },
  ])('$type uses the branded layout and is caniemail-clean', (email) => {
    const mail = renderAuthMail(
      siteRenderDeps.juice,
      {
        ...settings,
        logo_url: 'https://project.example.com/storage/v1/object/public/media/logo.png',
      },
      email,
    );
    expect(mail.html).toContain('alt="Maker News" height="40"');
    expect(mail.html).toMatch(
      /bgcolor="#0f766e"[^>]*><a href="https:\/\/project\.example\.com\/auth\/v1\/verify\?token=abc&amp;type=/,
    );
    expect(caniemailProblems(mail.html)).toEqual([]);
    expect(layoutRuleProblems(mail.html)).toEqual([]);
  });
});
