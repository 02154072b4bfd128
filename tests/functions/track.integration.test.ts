// The track function's answers carry the CORS headers every function answer does (SPEC §7, "all
// answering CORS"): the open pixel, the click redirect and a refusal alike.
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { signTestToken, startFunctionsEmulator } from './kit';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startFunctionsEmulator();
}, 120_000);
afterAll(async () => {
  await emu?.stop();
});

const TARGET = 'https://example.com/post?a=1';
const ids = { s: randomUUID(), c: randomUUID() };

/** A GET as a mail client or browser makes it: no apikey, no JWT, redirects not followed. */
function track(query: Record<string, string>) {
  const url = new URL(`${emu.url}/functions/v1/track`);
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  return fetch(url, { redirect: 'manual', headers: { Origin: 'https://mail.example.net' } });
}

function expectCors(res: Response) {
  expect(res.headers.get('access-control-allow-origin')).toBe('*');
  expect(res.headers.get('access-control-allow-methods')).toContain('GET');
  expect(res.headers.get('access-control-expose-headers')).toContain('Retry-After');
}

describe('track: CORS on every answer', () => {
  it('the open pixel', async () => {
    const res = await track({ t: signTestToken({ p: 'open', ...ids }) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/gif');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expectCors(res);
  });

  it('the click redirect', async () => {
    const h = createHash('sha256').update(TARGET).digest('base64url');
    const res = await track({ t: signTestToken({ p: 'click', ...ids, h }), u: TARGET });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(TARGET);
    expect(res.headers.get('cache-control')).toContain('no-store');
    expectCors(res);
  });

  it('a refused token', async () => {
    const res = await track({ t: 'forged' });
    expect(res.status).toBe(400);
    expectCors(res);
  });
});
