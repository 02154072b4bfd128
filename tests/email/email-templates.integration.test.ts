// Settings → Emails (issue 21) over HTTP and supabase-js with real tokens: who may read and write
// public.email_templates; the confirmation and already-subscribed emails use the team's
// template (a broken one falls back to the default) and reset restores the default; a test send
// arrives branded, and its footer links are answered as a test without changing anything.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  callFunction,
  linkIn,
  sql,
  startFunctionsEmulator,
  waitForMail,
  type CaughtMail,
} from '../functions/kit';
import { createTeam, uniqueEmail, type Team } from '../rls/team-kit';

let team: Team;
beforeAll(async () => {
  team = await createTeam(await startFunctionsEmulator({ trustedProxyHops: 1 }));
}, 120_000);
afterAll(async () => {
  await team?.emu.stop();
});

const ip = () => `10.${[1, 2, 3].map(() => randomBytes(1)[0]).join('.')}`;
const subscribe = (body: unknown) =>
  callFunction(team.emu, 'subscribe', { body, headers: { 'X-Forwarded-For': ip() } });
const confirm = (mail: CaughtMail) =>
  callFunction(team.emu, 'confirm', {
    body: { token: linkIn(mail, '/confirm/').searchParams.get('token') },
  });
const templates = () =>
  sql<{ kind: string; subject: string }>(
    team.emu,
    'select kind, subject from public.email_templates order by kind',
  );

const CUSTOM_CONFIRM = {
  kind: 'confirmation',
  subject: 'Say yes to {{ site.name }}',
  preheader: '',
  body_md: 'Our own words for {{ lists }}.\n\n[Yes please]({{ confirm_url }})',
};

describe('email_templates with real tokens', () => {
  it('members read, admins and the owner write, editors and strangers cannot', async () => {
    await team.service.from('email_templates').delete().neq('kind', '');
    expect((await team.anon.from('email_templates').select('kind')).error).not.toBeNull();

    const byEditor = await team.client('editor').from('email_templates').upsert(CUSTOM_CONFIRM);
    expect(byEditor.error?.code).toBe('42501');
    expect(await templates()).toEqual([]);

    const byAdmin = await team.client('admin').from('email_templates').upsert(CUSTOM_CONFIRM);
    expect(byAdmin.error).toBeNull();
    const read = await team.client('viewer').from('email_templates').select('kind, subject');
    expect(read.data).toEqual([{ kind: 'confirmation', subject: 'Say yes to {{ site.name }}' }]);
    expect((await team.client('nonMember').from('email_templates').select('kind')).data).toEqual(
      [],
    );

    // A viewer's delete matches no row it may delete; the owner's resets to the default.
    await team.client('viewer').from('email_templates').delete().eq('kind', 'confirmation');
    expect(await templates()).toHaveLength(1);
    const reset = await team
      .client('owner')
      .from('email_templates')
      .delete()
      .eq('kind', 'confirmation');
    expect(reset.error).toBeNull();
    expect(await templates()).toEqual([]);

    const bad = await team
      .client('admin')
      .from('email_templates')
      .upsert({ ...CUSTOM_CONFIRM, kind: 'invoice' });
    expect(bad.error?.code).toBe('23514');
  });
});

describe('the subscriber emails', () => {
  it('use the custom confirmation and already-subscribed templates; reset restores the default', async () => {
    const admin = team.client('admin').from('email_templates');
    await admin.upsert(CUSTOM_CONFIRM);
    await admin.upsert({
      kind: 'already_subscribed',
      subject: 'Still with us',
      preheader: '',
      body_md: 'You already get {{ lists }}. [Your preferences]({{ preferences_url }})',
    });

    const email = uniqueEmail('custom');
    expect((await subscribe({ email, lists: ['newsletter'] })).status).toBe(200);
    const [confirmation] = await waitForMail(team.emu, email);
    expect(confirmation!.subject).toBe('Say yes to The Postbox Letter');
    expect(confirmation!.text).toContain('Our own words for The newsletter.');
    // The branded layout, with the link as a button.
    expect(confirmation!.html).toMatch(/border-top: ?4px solid #[0-9a-f]{6}/);
    expect(confirmation!.html).toMatch(
      /bgcolor="#[0-9a-f]{6}"[^>]*><a href="http:\/\/127\.0\.0\.1:3999\/confirm\/\?token=/,
    );
    expect((await confirm(confirmation!)).status).toBe(200);

    // The welcome is the list's welcome automation's email (issue 24), not a template here.
    const [, welcome] = await waitForMail(team.emu, email, 2);
    expect(welcome!.subject).toBe('Welcome to The Postbox Letter');
    expect(welcome!.text).toContain('You are now subscribed to The newsletter from');

    expect((await subscribe({ email, lists: ['newsletter'] })).status).toBe(200);
    const [, , again] = await waitForMail(team.emu, email, 3);
    expect(again!.subject).toBe('Still with us');
    expect(again!.text).toContain(
      'You already get The newsletter. Your preferences (http://127.0.0.1:3999/preferences/?token=',
    );

    // Reset: the defaults again.
    await team.client('admin').from('email_templates').delete().neq('kind', '');
    const other = uniqueEmail('default');
    await subscribe({ email: other, lists: ['newsletter'] });
    const [byDefault] = await waitForMail(team.emu, other);
    expect(byDefault!.subject).toBe('Confirm your subscription to The Postbox Letter');
    expect(byDefault!.text).toContain('Please confirm that you want to receive The newsletter');
  });

  it('fall back to the default when the custom template cannot render', async () => {
    await team
      .client('admin')
      .from('email_templates')
      .upsert({ ...CUSTOM_CONFIRM, body_md: 'Broken {% if %}' });
    const email = uniqueEmail('broken');
    await subscribe({ email, lists: ['newsletter'] });
    const [mail] = await waitForMail(team.emu, email);
    expect(mail!.subject).toBe('Confirm your subscription to The Postbox Letter');
    await team.service.from('email_templates').delete().neq('kind', '');
  });
});

describe('a test send from Settings → Emails', () => {
  const template = {
    action: 'test_email',
    kind: 'confirmation',
    subject: 'Hi from {{ site.name }}',
    preheader: '',
    body_md: 'Please confirm {{ lists }}.',
  };

  it('goes to the admin only, branded, with footer links that change nothing', async () => {
    const admin = team.users.admin;
    const sent = await team.client('admin').functions.invoke('send-campaign', { body: template });
    expect(sent.error).toBeNull();
    expect(sent.data).toEqual({ sent: [admin.email] });
    const [mail] = await waitForMail(team.emu, admin.email);
    expect(mail!.subject).toBe('[Test] Hi from The Postbox Letter');
    expect(mail!.text).toContain('Please confirm Weekly News and Product Updates.');

    const unsubscribe = linkIn(mail!, '/unsubscribe/');
    expect(unsubscribe.searchParams.get('test')).toBe('1');
    const token = unsubscribe.searchParams.get('token')!;
    const before = await sql(team.emu, 'select count(*)::int as n from public.events');
    const shown = await callFunction(team.emu, 'unsubscribe', { query: { token } });
    expect([shown.status, shown.body]).toEqual([200, { test: true }]);
    const clicked = await callFunction(team.emu, 'unsubscribe', {
      body: { token, action: 'unsubscribe' },
    });
    expect([clicked.status, clicked.body]).toEqual([200, { test: true }]);
    const preferences = linkIn(mail!, '/preferences/');
    expect(preferences.searchParams.get('test')).toBe('1');
    const prefs = await callFunction(team.emu, 'preferences', {
      query: { token: preferences.searchParams.get('token')! },
    });
    expect([prefs.status, prefs.body]).toEqual([200, { test: true }]);
    expect(await sql(team.emu, 'select count(*)::int as n from public.events')).toEqual(before);
  });

  it('is refused to an editor, and names a template error', async () => {
    const byEditor = await callFunction(team.emu, 'send-campaign', {
      body: template,
      bearer: await bearerOf('editor'),
    });
    expect(byEditor.status).toBe(403);
    const broken = await callFunction(team.emu, 'send-campaign', {
      body: { ...template, body_md: 'Hello {% if %}' },
      bearer: await bearerOf('admin'),
    });
    expect(broken.status).toBe(422);
    expect(broken.body).toMatchObject({ error: { code: 'template_error' } });
    // The welcome is an automation now: no test send of it here.
    const welcome = await callFunction(team.emu, 'send-campaign', {
      body: { ...template, kind: 'welcome' },
      bearer: await bearerOf('admin'),
    });
    expect(welcome.status).toBe(422);
    expect(welcome.body).toMatchObject({ error: { code: 'invalid_input' } });
  });
});

async function bearerOf(actor: 'editor' | 'admin'): Promise<string> {
  const { data } = await team.client(actor).auth.getSession();
  return data.session!.access_token;
}
