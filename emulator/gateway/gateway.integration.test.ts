// The gateway as a client sees it: health, CORS, unknown routes, unimplemented services.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../index.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator({
    memory: true,
    port: 0,
    dbPort: null,
    mailWebPort: 0,
    mailSmtpPort: 0,
  });
});
afterAll(() => emu?.stop());

describe('gateway', () => {
  it('answers /health with 200', async () => {
    const res = await fetch(`${emu.url}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('answers preflights with the headers a browser client needs', async () => {
    const res = await fetch(`${emu.url}/rest/v1/lists`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://127.0.0.1:3000',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'apikey, authorization, prefer',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:3000');
    expect(res.headers.get('access-control-allow-headers')).toBe('apikey, authorization, prefer');
    expect(res.headers.get('access-control-allow-methods')).toContain('PATCH');
  });

  it('exposes Content-Range on real responses', async () => {
    const res = await fetch(`${emu.url}/health`, { headers: { Origin: 'http://example.test' } });
    expect(res.headers.get('access-control-expose-headers')).toContain('Content-Range');
  });

  it('answers an unknown path as Kong does', async () => {
    const res = await fetch(`${emu.url}/nowhere`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'no Route matched with those values' });
  });
});
