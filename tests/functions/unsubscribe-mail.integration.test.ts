// The footer links and List-Unsubscribe header of a real Postbox mail, followed the way a mail
// provider and a reader follow them: the links signed by `subscribe` work in `unsubscribe` and
// `preferences`, and the header's one-click POST unsubscribes (SPEC §7, RFC 8058).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import {
  callFunction,
  linkIn,
  snapshot,
  sql,
  startFunctionsEmulator,
  waitForMail,
  type CaughtMail,
} from './kit';

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startFunctionsEmulator();
});
afterAll(async () => {
  await emu?.stop();
});

/** The one-click URL from the message source (MailDev's JSON keeps only some headers). */
async function oneClickUrl(mail: CaughtMail): Promise<string> {
  const source = await (await fetch(`${emu.mail!.url}/api/email/${mail.id}/source`)).text();
  const head = source.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  const match = /^List-Unsubscribe:\s*<(https?:[^>]+)>/im.exec(head);
  if (!match) throw new Error(`no http List-Unsubscribe in:\n${head}`);
  return match[1]!;
}

it('follows the footer links and the one-click header of a confirmation mail', async () => {
  const email = `mail-${randomUUID()}@example.com`;
  const subscribed = await callFunction(emu, 'subscribe', {
    body: { email, lists: ['newsletter'] },
    headers: { 'X-Forwarded-For': '10.9.8.7' },
  });
  expect(subscribed.status).toBe(200);
  const [mail] = await waitForMail(emu, email);

  const page = linkIn(mail!, '/unsubscribe/').searchParams.get('token')!;
  const shown = await callFunction(emu, 'unsubscribe', { query: { token: page } });
  expect(shown.status).toBe(200);
  expect(shown.body).toEqual({
    email: 'm***@example.com',
    lists: [{ slug: 'newsletter', name: 'The newsletter', status: 'pending' }],
  });

  const prefs = linkIn(mail!, '/preferences/').searchParams.get('token')!;
  const preferences = await callFunction(emu, 'preferences', { query: { token: prefs } });
  expect(preferences.status).toBe(200);
  expect(preferences.body.email).toBe(email);

  // A link scanner fetching the header URL changes nothing.
  const url = await oneClickUrl(mail!);
  const before = await snapshot(emu);
  expect((await fetch(url, { redirect: 'manual' })).status).toBe(200);
  expect(await snapshot(emu)).toBe(before);

  // The provider's POST: no key, no cookies, the RFC 8058 body.
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'List-Unsubscribe=One-Click',
    redirect: 'manual',
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('location')).toBeNull();
  const rows = await sql<{ status: string }>(
    emu,
    `select s.status from public.subscriptions s join public.subscribers u on u.id = s.subscriber_id
      where u.email = $1`,
    [email],
  );
  expect(rows).toEqual([{ status: 'unsubscribed' }]);
});
