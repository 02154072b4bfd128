// subscribe's plain-HTML-form side through HTTP against the emulator: an urlencoded POST (no apikey,
// as a browser form sends it) is answered with a 303 to the site's own outcome page for every
// outcome, writes exactly what the JSON API writes, and nothing in the form can move the Location.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { callFunction, snapshot, sql, startFunctionsEmulator, TEST_SITE_URL } from './kit';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startFunctionsEmulator({ trustedProxyHops: 1 });
  await sql(
    emu,
    `insert into public.lists (slug, name, optin) values ('form-single', 'Single opt-in', 'single')`,
  );
}, 120_000);
afterAll(async () => {
  await emu?.stop();
});

const unique = () => `${Date.now()}-${randomBytes(4).toString('hex')}@example.com`;
const ip = () => `10.${[1, 2, 3].map(() => randomBytes(1)[0]).join('.')}`;

/** Posts `fields` the way a browser submits a `<form method="post">`: urlencoded, no apikey. */
async function post(fields: [string, string][], clientIp = ip()) {
  const response = await fetch(`${emu.url}/functions/v1/subscribe`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      'X-Forwarded-For': clientIp,
      Origin: 'http://127.0.0.1:4999',
    },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
  await response.arrayBuffer();
  return { status: response.status, location: response.headers.get('location'), response };
}

async function stateOf(email: string) {
  return sql<{ list: string; status: string; name: string }>(
    emu,
    `select l.slug as list, s.status, u.name from public.subscribers u
     join public.subscriptions s on s.subscriber_id = u.id
     join public.lists l on l.id = s.list_id where u.email = $1 order by l.slug`,
    [email],
  );
}

describe('subscribe: a plain HTML form post', () => {
  it('subscribes to a double opt-in list and sends the visitor to check their inbox', async () => {
    const email = unique();
    const res = await post([
      ['email', email],
      ['name', 'Form Ada'],
      ['list', 'newsletter'],
      ['website', ''],
    ]);
    expect(res.status).toBe(303);
    expect(res.location).toBe(`${TEST_SITE_URL}/subscribe/check-inbox/`);
    expect(await stateOf(email)).toEqual([
      { list: 'newsletter', status: 'pending', name: 'Form Ada' },
    ]);
  });

  it('subscribes to a single opt-in list (repeated `lists` fields) and says thank you', async () => {
    const email = unique();
    const res = await post([
      ['email', email],
      ['lists', 'form-single'],
    ]);
    expect(res.status).toBe(303);
    expect(res.location).toBe(`${TEST_SITE_URL}/subscribe/thanks/`);
    expect(await stateOf(email)).toEqual([{ list: 'form-single', status: 'confirmed', name: '' }]);
  });

  it('sends an invalid address to the invalid page and writes nothing', async () => {
    const before = await snapshot(emu);
    const res = await post([
      ['email', 'not-an-address'],
      ['list', 'newsletter'],
    ]);
    expect(res.status).toBe(303);
    expect(res.location).toBe(`${TEST_SITE_URL}/subscribe/invalid/`);
    expect(await snapshot(emu)).toBe(before);
  });

  it('sends an unknown list to the list-not-found page and writes nothing', async () => {
    const before = await snapshot(emu);
    const res = await post([
      ['email', unique()],
      ['list', 'no-such-list'],
    ]);
    expect(res.location).toBe(`${TEST_SITE_URL}/subscribe/no-list/`);
    expect(res.status).toBe(303);
    expect(await snapshot(emu)).toBe(before);
  });

  it('sends the sixth attempt for one address to the too-many page, with Retry-After', async () => {
    const email = unique();
    for (let i = 0; i < 5; i++) {
      const ok = await post([
        ['email', email],
        ['list', 'newsletter'],
      ]);
      expect(ok.location).toBe(`${TEST_SITE_URL}/subscribe/check-inbox/`);
    }
    const res = await post([
      ['email', email],
      ['list', 'newsletter'],
    ]);
    expect(res.status).toBe(303);
    expect(res.location).toBe(`${TEST_SITE_URL}/subscribe/too-many/`);
    expect(Number(res.response.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('treats a filled honeypot as a success and writes nothing', async () => {
    const before = await snapshot(emu);
    const email = unique();
    const res = await post([
      ['email', email],
      ['list', 'newsletter'],
      ['website', 'https://spam.example'],
    ]);
    expect(res.location).toBe(`${TEST_SITE_URL}/subscribe/check-inbox/`);
    expect(await stateOf(email)).toEqual([]);
    expect(await snapshot(emu)).toBe(before);
  });

  it('never takes the Location from the request', async () => {
    const email = unique();
    const res = await post([
      ['email', email],
      ['list', 'newsletter'],
      ['redirect', 'https://evil.example/phish'],
      ['redirect_to', 'https://evil.example/phish'],
      ['next', '//evil.example'],
      ['site', 'https://evil.example'],
    ]);
    expect(res.location).toBe(`${TEST_SITE_URL}/subscribe/check-inbox/`);
    // Nor from the headers a proxy or the page could set.
    const headed = await fetch(`${emu.url}/functions/v1/subscribe`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        'X-Forwarded-For': ip(),
        'X-Forwarded-Host': 'evil.example',
        Referer: 'https://evil.example/form',
        Origin: 'https://evil.example',
      },
      body: new URLSearchParams({ email: 'bad', redirect: 'https://evil.example' }).toString(),
      redirect: 'manual',
    });
    expect(headed.headers.get('location')).toBe(`${TEST_SITE_URL}/subscribe/invalid/`);
  });

  it('keeps answering JSON to a JSON post', async () => {
    const res = await callFunction(emu, 'subscribe', {
      body: { email: 'not-an-address', redirect: 'https://evil.example' },
      headers: { 'X-Forwarded-For': ip() },
    });
    expect(res.status).toBe(422);
    expect(res.headers.get('location')).toBeNull();
    expect(res.body.error.code).toBe('invalid_email');
  });
});
