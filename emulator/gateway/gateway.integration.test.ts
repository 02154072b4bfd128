// The gateway as a client sees it: health, CORS, unknown routes, unimplemented services.
import { request } from 'node:http';
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

/** A raw request: fetch refuses to send TRACE at all. */
function rawRequest(method: string, path: string) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
    (resolve, reject) => {
      const req = request(`${emu.url}${path}`, { method }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      });
      req.on('error', reject);
      req.end();
    },
  );
}

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

  it('answers TRACE with 405 on every prefix instead of failing to build a request', async () => {
    const paths = [
      '/auth/v1/settings',
      '/storage/v1/bucket',
      '/realtime/v1/api/broadcast',
      '/nowhere',
    ];
    for (const path of paths) {
      const res = await rawRequest('TRACE', path);
      expect(res.status, path).toBe(405);
      expect(res.headers.allow).toBe('GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS');
      expect(JSON.parse(res.body)).toEqual({ message: 'Method not allowed' });
    }
    // REST answers it itself, as PostgREST does for a method it does not know.
    const rest = await rawRequest('TRACE', '/rest/v1/lists');
    expect(rest.status).toBe(405);
    expect(JSON.parse(rest.body)).toMatchObject({ code: 'PGRST117' });
    // Functions answer as they do for any method they do not take (contract §5.3).
    const fn = await rawRequest('TRACE', '/functions/v1/anything');
    expect(fn.status).toBe(405);
    expect(fn.headers['sb-error-code']).toBe('METHOD_NOT_ALLOWED');
    expect(fn.headers.allow).toBe('GET, POST, PUT, PATCH, DELETE, OPTIONS');
    expect(JSON.parse(fn.body)).toEqual({
      code: 'METHOD_NOT_ALLOWED',
      message: 'Method not allowed',
    });
  });

  it('answers an unknown path as Kong does', async () => {
    const res = await fetch(`${emu.url}/nowhere`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'no Route matched with those values' });
  });
});
