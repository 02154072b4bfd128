// The emulator started for a site on another port (`npm run dev -- --port 3100`, `--site-url`):
// the functions' emails link to it, and Auth's magic links come back to it, through HTTP.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callFunction, stopScheduler, waitForMail } from '../tests/functions/kit';
import { startEmulator, type RunningEmulator } from './index.js';
import { authFetch, linkIn } from './auth/test-kit.js';

const SITE = 'http://127.0.0.1:3100';
let emu: RunningEmulator;

beforeAll(async () => {
  // A stale setting from the environment: the site the emulator was started for wins over it.
  process.env.POSTBOX_SITE_URL = 'http://127.0.0.1:3999';
  emu = await startEmulator({
    memory: true,
    port: 0,
    dbPort: null,
    mailWebPort: 0,
    mailSmtpPort: 0,
    siteUrl: SITE,
  });
  await stopScheduler(emu);
}, 120_000);
afterAll(async () => {
  await emu?.stop();
});

const address = (tag: string) => `${tag}-${randomUUID().slice(0, 8)}@example.com`;

describe('the site URL follows the site port', () => {
  it("is the base of every link in subscribe's confirmation email", async () => {
    const email = address('visitor');
    const res = await callFunction(emu, 'subscribe', { body: { email } });
    expect(res.status).toBe(200);
    const [mail] = await waitForMail(emu, email);
    const links = mail!.text.match(/https?:\/\/[^\s)>\]]+/g) ?? [];
    const siteLinks = links.filter((l) => !l.startsWith(emu.url));
    expect(siteLinks.length).toBeGreaterThan(0);
    for (const link of siteLinks) expect(new URL(link).origin).toBe(SITE);
    expect(siteLinks.some((l) => l.startsWith(`${SITE}/confirm/`))).toBe(true);
  });

  it.each([
    ['no redirect_to', undefined, `${SITE}`],
    ['localhost on the site port', 'http://localhost:3100/admin/', 'http://localhost:3100/admin/'],
    ['the default port, no longer the site', 'http://localhost:3000/admin/', `${SITE}`],
  ])("sends Auth's magic link with %s back to the right place", async (_, redirectTo, expected) => {
    const email = address('member');
    const created = await authFetch(emu, '/admin/users', {
      method: 'POST',
      apikey: emu.keys.secret,
      body: { email, email_confirm: true },
    });
    expect(created.status).toBe(200);
    const query = redirectTo ? `?redirect_to=${encodeURIComponent(redirectTo)}` : '';
    const otp = await authFetch(emu, `/otp${query}`, {
      method: 'POST',
      body: { email, create_user: false },
    });
    expect(otp.status).toBe(200);
    const [mail] = await waitForMail(emu, email);
    const verified = await fetch(linkIn(mail! as Parameters<typeof linkIn>[0]), {
      redirect: 'manual',
    });
    expect(verified.status).toBe(303);
    const location = verified.headers.get('location')!;
    expect(location.split('#')[0]!.replace(/\/$/, '')).toBe(expected.replace(/\/$/, ''));
    expect(location).toContain('access_token=');
  });
});
