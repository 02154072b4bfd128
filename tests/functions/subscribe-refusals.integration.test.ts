// subscribe (SPEC §7, §9) refusals through HTTP against the emulator: every bad input, wrong method,
// content type and size, and the rate limits, each answered with its code and changing nothing.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { callFunction, snapshot, startFunctionsEmulator } from './kit';

let emu: RunningEmulator;
beforeAll(async () => {
  // The test is the trusted proxy in front of the functions: the last hop it sends is the client.
  emu = await startFunctionsEmulator({ trustedProxyHops: 1 });
}, 120_000);
afterAll(async () => {
  await emu?.stop();
});

const unique = () => `${Date.now()}-${randomBytes(4).toString('hex')}@example.com`;
/** A fresh client address per request, so only the per-email limit can apply unless a test wants the IP one. */
const ip = () => `10.${[1, 2, 3].map(() => randomBytes(1)[0]).join('.')}`;
const subscribe = (body: unknown, headers: Record<string, string> = {}) =>
  callFunction(emu, 'subscribe', { body, headers: { 'X-Forwarded-For': ip(), ...headers } });

describe('subscribe: refusals change nothing', () => {
  const cases: [
    string,
    () => Promise<{ status: number; body: { error?: { code: string; field?: string } } }>,
    number,
    string,
  ][] = [
    ['malformed email', () => subscribe({ email: 'not-an-email' }), 422, 'invalid_email'],
    [
      'email without a dot in the domain',
      () => subscribe({ email: 'a@localhost' }),
      422,
      'invalid_email',
    ],
    [
      'email with a doubled dot',
      () => subscribe({ email: 'a..b@example.com' }),
      422,
      'invalid_email',
    ],
    [
      'oversized email',
      () => subscribe({ email: `${'a'.repeat(250)}@example.com` }),
      422,
      'invalid_email',
    ],
    [
      'oversized local part',
      () => subscribe({ email: `${'a'.repeat(65)}@example.com` }),
      422,
      'invalid_email',
    ],
    ['email not a string', () => subscribe({ email: 42 }), 422, 'invalid_email'],
    ['missing email', () => subscribe({ name: 'x' }), 422, 'invalid_email'],
    [
      'name too long',
      () => subscribe({ email: unique(), name: 'n'.repeat(101) }),
      422,
      'invalid_input',
    ],
    [
      'name with a control character',
      () => subscribe({ email: unique(), name: 'a\u0007b' }),
      422,
      'invalid_input',
    ],
    [
      'name with an unpaired surrogate',
      () => subscribe({ email: unique(), name: 'Ada \ud800' }),
      422,
      'invalid_input',
    ],
    [
      'attributes with an unpaired surrogate',
      () => subscribe({ email: unique(), attributes: { city: ['Lon\udc00don'] } }),
      422,
      'invalid_input',
    ],
    [
      'attributes with an unpaired surrogate in a key',
      () => subscribe({ email: unique(), attributes: { '\ud83d': 'x' } }),
      422,
      'invalid_input',
    ],
    [
      'unknown list',
      () => subscribe({ email: unique(), lists: ['no-such-list'] }),
      404,
      'list_not_found',
    ],
    [
      'private list',
      () => subscribe({ email: unique(), lists: ['beta-testers'] }),
      404,
      'list_not_found',
    ],
    [
      'one unknown among known lists',
      () => subscribe({ email: unique(), lists: ['newsletter', 'nope'] }),
      404,
      'list_not_found',
    ],
    [
      'malformed slug',
      () => subscribe({ email: unique(), lists: ['Not A Slug'] }),
      404,
      'list_not_found',
    ],
    [
      'too many lists',
      () => subscribe({ email: unique(), lists: Array.from({ length: 21 }, (_, i) => `l${i}`) }),
      422,
      'invalid_input',
    ],
    [
      'lists not an array',
      () => subscribe({ email: unique(), lists: 'newsletter' }),
      422,
      'invalid_input',
    ],
    [
      'attributes over 4 KB',
      () => subscribe({ email: unique(), attributes: { x: 'y'.repeat(4100) } }),
      422,
      'invalid_input',
    ],
    [
      'attributes an array',
      () => subscribe({ email: unique(), attributes: [1] }),
      422,
      'invalid_input',
    ],
    [
      'referral code too long',
      () => subscribe({ email: unique(), ref: 'r'.repeat(33) }),
      422,
      'invalid_input',
    ],
    [
      'wrong method',
      () => callFunction(emu, 'subscribe', { method: 'GET' }),
      405,
      'method_not_allowed',
    ],
    [
      'wrong content type',
      () =>
        callFunction(emu, 'subscribe', {
          rawBody: JSON.stringify({ email: unique() }),
          headers: { 'Content-Type': 'text/plain' },
        }),
      422,
      'invalid_input',
    ],
    [
      'invalid JSON',
      () =>
        callFunction(emu, 'subscribe', {
          rawBody: '{"email": ',
          headers: { 'Content-Type': 'application/json' },
        }),
      422,
      'invalid_input',
    ],
    ['JSON that is not an object', () => subscribe([unique()]), 422, 'invalid_input'],
    [
      'body over 16 KB',
      () => subscribe({ email: unique(), pad: 'p'.repeat(17_000) }),
      413,
      'payload_too_large',
    ],
  ];
  it.each(cases)('%s', async (_name, call, status, code) => {
    const before = await snapshot(emu);
    const res = await call();
    expect(res.status).toBe(status);
    expect(res.body.error?.code).toBe(code);
    if (code === 'invalid_input' && _name.startsWith('name'))
      expect(res.body.error?.field).toBe('name');
    if (code === 'invalid_input' && _name.startsWith('attributes'))
      expect(res.body.error?.field).toBe('attributes');
    if (code === 'list_not_found') expect(res.body.error?.field).toBe('lists');
    if (code === 'invalid_email') expect(res.body.error?.field).toBe('email');
    expect(await snapshot(emu)).toBe(before);
  });

  it('answers the CORS preflight', async () => {
    const res = await callFunction(emu, 'subscribe', { method: 'OPTIONS' });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-headers')).toContain('content-type');
  });
});

describe('subscribe: rate limits (SPEC §9)', () => {
  it('allows 5 attempts per address in 10 minutes, then 429 with Retry-After', async () => {
    const email = unique();
    for (let i = 0; i < 5; i++) {
      expect((await subscribe({ email, lists: ['product-updates'] })).status).toBe(200);
    }
    const before = await snapshot(emu);
    const res = await subscribe({ email: email.toUpperCase(), lists: ['newsletter'] });
    expect(res.status).toBe(429);
    expect(res.body.error.code).toBe('rate_limited');
    const retry = Number(res.headers.get('retry-after'));
    expect(Number.isInteger(retry) && retry >= 1 && retry <= 600).toBe(true);
    expect(res.headers.get('access-control-expose-headers')).toContain('Retry-After');
    expect(await snapshot(emu)).toBe(before);
  });

  it('allows 30 attempts per client address in 10 minutes, then 429', async () => {
    const client = ip();
    for (let i = 0; i < 30; i++) {
      const res = await subscribe(
        { email: unique(), lists: ['product-updates'] },
        { 'X-Forwarded-For': client },
      );
      expect(res.status).toBe(200);
    }
    const before = await snapshot(emu);
    const res = await subscribe({ email: unique() }, { 'X-Forwarded-For': client });
    expect(res.status).toBe(429);
    expect(res.body.error.code).toBe('rate_limited');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await snapshot(emu)).toBe(before);
    // Another client is not affected.
    expect((await subscribe({ email: unique() })).status).toBe(200);
  }, 60_000);

  it('counts a client that makes up leading X-Forwarded-For hops by its real address', async () => {
    // What the client itself sends comes first; the proxies append after it, so a fresh made-up
    // hop on every request must not earn a fresh limit.
    const client = ip();
    const spoofed = () => `${ip()}, ${ip()}`;
    for (let i = 0; i < 30; i++) {
      const res = await subscribe(
        { email: unique(), lists: ['product-updates'] },
        { 'X-Forwarded-For': `${spoofed()}, ${client}` },
      );
      expect(res.status).toBe(200);
    }
    const before = await snapshot(emu);
    const res = await subscribe(
      { email: unique() },
      { 'X-Forwarded-For': `${spoofed()}, ${client}` },
    );
    expect(res.status).toBe(429);
    expect(res.body.error.code).toBe('rate_limited');
    expect(await snapshot(emu)).toBe(before);
  }, 60_000);
});
